; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; R: functions bound to names (f <- function(x) ...); calls f(), obj$m(), pkg::f().

(binary_operator lhs: (identifier) @name rhs: (function_definition)) @def.function

(call function: (identifier) @callee) @call
(call function: (extract_operator lhs: (_) @receiver rhs: (identifier) @callee)) @call
(call function: (namespace_operator lhs: (_) @receiver rhs: (identifier) @callee)) @call
