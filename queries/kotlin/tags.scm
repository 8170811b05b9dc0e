; Kotlin: what the extractor needs from the syntax tree (server/graphmind/languages/kotlin/extract.py).
; Capture names follow tree-sitter's tags vocabulary where one exists; the symbol's kind comes from
; the node (``interface`` / ``enum class`` / ``object``, a function inside a type is a method).
; A companion object is no symbol: its members are its class's (``Foo.create()``).

(package_header) @package
(import_header) @import

; type and member declarations
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(function_declaration (simple_identifier) @name) @definition.method
(primary_constructor) @definition.constructor
(secondary_constructor) @definition.constructor
(property_declaration) @property
(class_parameter) @class.param
(enum_entry (simple_identifier) @name) @enum.constant

; call sites: calls (a class's name called is its constructor), this(...)/super(...) delegation
(call_expression) @reference.call
(constructor_delegation_call) @reference.ctor

; local names and their declared types (project captures: no tags equivalent)
(parameter) @param
(for_statement) @foreach
(lambda_parameters) @lambda.params
