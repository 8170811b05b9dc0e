; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Ada: packages, functions and procedures (bodies and specs); calls F (X), Pkg.F (X), bare procedure calls.

(package_body name: (_) @name) @definition.namespace
(package_declaration name: (_) @name) @definition.namespace
(subprogram_body (function_specification name: (_) @name)) @definition.function
(subprogram_body (procedure_specification name: (_) @name)) @definition.function

(function_call name: (identifier) @name) @reference.call
(function_call name: (selected_component prefix: (_) @receiver selector_name: (identifier) @name)) @reference.call
(procedure_call_statement name: (identifier) @name) @reference.call
(procedure_call_statement name: (selected_component prefix: (_) @receiver selector_name: (identifier) @name)) @reference.call
