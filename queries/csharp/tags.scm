; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; C#: namespaces, classes, structs, interfaces, records, enums, methods, constructors, local functions.

(namespace_declaration name: (_) @name) @def.namespace
(class_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(record_declaration name: (identifier) @name) @def.class
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(local_function_statement name: (identifier) @name) @def.function

(invocation_expression function: (identifier) @callee) @call
(invocation_expression function: (generic_name (identifier) @callee)) @call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (identifier) @callee)) @call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (generic_name (identifier) @callee))) @call
(invocation_expression function: (conditional_access_expression (member_binding_expression name: (identifier) @callee))) @call
(object_creation_expression type: (identifier) @callee) @ctor
(object_creation_expression type: (generic_name (identifier) @callee)) @ctor
(object_creation_expression type: (qualified_name name: (identifier) @callee)) @ctor
