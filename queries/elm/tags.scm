; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Elm: top-level values and functions, custom types; applications f x, Module.f x.

(value_declaration functionDeclarationLeft: (function_declaration_left . (lower_case_identifier) @name)) @definition.function
(type_declaration name: (upper_case_identifier) @name) @definition.struct

(function_call_expr target: (value_expr name: (value_qid . (lower_case_identifier) @name))) @reference.call
(function_call_expr target: (value_expr name: (value_qid (upper_case_identifier) @receiver (dot) . (lower_case_identifier) @name .))) @reference.call
