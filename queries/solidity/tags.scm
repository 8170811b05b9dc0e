; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Solidity: contracts, interfaces, libraries, structs, functions, modifiers; calls f(), x.f(), new C().

(contract_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(library_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(function_definition name: (identifier) @name) @definition.function
(modifier_definition name: (identifier) @name) @definition.function
(constructor_definition "constructor" @name) @definition.constructor

(call_expression function: (expression (identifier) @name)) @reference.call
(call_expression function: (expression (member_expression object: (_) @receiver property: (identifier) @name))) @reference.call
(call_expression function: (expression (new_expression name: (type_name (user_defined_type (identifier) @name))))) @reference.class
