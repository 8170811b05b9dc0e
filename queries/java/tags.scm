; Java: what the extractor needs from the syntax tree (server/graphmind/languages/java/extract.py).
; Capture names follow tree-sitter's tags vocabulary where one exists; the symbol's kind comes from
; the node's type (enum_declaration -> enum, constructor_declaration -> constructor, ...).

(package_declaration) @package
(import_declaration) @import

; type and member declarations
(class_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(compact_constructor_declaration name: (identifier) @name) @definition.method
(field_declaration) @field
(enum_constant name: (identifier) @name) @enum.constant

; call sites: method calls, this(...)/super(...), constructor calls (new C(...))
(method_invocation name: (identifier) @name) @reference.call
(explicit_constructor_invocation) @reference.call
(object_creation_expression type: (_) @name) @reference.class

; non-call references: method references (Foo::bar, this::go)
(method_reference) @ref.method

; local names and their declared types (project captures: no tags equivalent)
(local_variable_declaration) @local
(resource type: (_) name: (identifier)) @resource
(formal_parameter) @param
(spread_parameter) @param
(catch_formal_parameter) @param
(enhanced_for_statement) @foreach
(lambda_expression parameters: (_) @lambda.params)
