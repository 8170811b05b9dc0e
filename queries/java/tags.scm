; Java: what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/java.py.

(package_declaration) @package
(import_declaration) @import

; type and member declarations
(class_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(record_declaration name: (identifier) @name) @def.record
(annotation_type_declaration name: (identifier) @name) @def.annotation
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(compact_constructor_declaration name: (identifier) @name) @def.constructor
(field_declaration) @field
(enum_constant name: (identifier) @name) @enum.constant

; call sites: method calls, constructor calls, this(...)/super(...)
(method_invocation name: (identifier) @callee) @call
(object_creation_expression type: (_) @type) @new
(explicit_constructor_invocation) @ctor

; non-call references: method references (Foo::bar, this::go)
(method_reference) @ref.method

; local names and their declared types
(local_variable_declaration) @local
(resource type: (_) name: (identifier)) @resource
(formal_parameter) @param
(spread_parameter) @param
(catch_formal_parameter) @param
(enhanced_for_statement) @foreach
(lambda_expression parameters: (_) @lambda.params)
