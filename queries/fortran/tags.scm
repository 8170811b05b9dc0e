; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Fortran: modules, functions, subroutines; calls f(x) and `call s(x)` (an array element f(i) parses as a call too).

(module (module_statement (name) @name)) @definition.namespace
(function (function_statement name: (name) @name)) @definition.function
(subroutine (subroutine_statement name: (name) @name)) @definition.function

(call_expression . (identifier) @name) @reference.call
(subroutine_call subroutine: (identifier) @name) @reference.call
