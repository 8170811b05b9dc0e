; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; C#: namespaces, classes, structs, interfaces, records, enums, methods, constructors, local functions.

(namespace_declaration name: (_) @name) @definition.namespace
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(record_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(local_function_statement name: (identifier) @name) @definition.function

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (generic_name (identifier) @name))) @reference.call
(invocation_expression function: (conditional_access_expression (member_binding_expression name: (identifier) @name))) @reference.call
(object_creation_expression type: (identifier) @name) @reference.class
(object_creation_expression type: (generic_name (identifier) @name)) @reference.class
(object_creation_expression type: (qualified_name name: (identifier) @name)) @reference.class
