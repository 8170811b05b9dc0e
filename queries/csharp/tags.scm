; C#: what the extractor needs from the syntax tree (server/graphmind/languages/csharp/extract.py).
; Capture names follow tree-sitter's tags vocabulary where one exists; the symbol's kind comes from
; the node's type (struct_declaration -> struct, constructor_declaration -> constructor, ...).

(namespace_declaration name: (_) @name) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace
(using_directive) @import

; type and member declarations
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.method
(field_declaration) @field
(event_field_declaration) @field
(enum_member_declaration name: (identifier) @name) @enum.constant

; call sites: method calls, base(...)/this(...) initializers, constructor calls (new C(...))
(invocation_expression function: (_) @name) @reference.call
(constructor_initializer) @reference.call
(object_creation_expression type: (_) @name) @reference.class

; local names and their declared types (project captures: no tags equivalent)
(local_declaration_statement) @local
(using_statement (variable_declaration) @local.using)
(parameter) @param
(foreach_statement) @foreach
(declaration_expression) @out.var
(declaration_pattern) @pattern
