; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; R: functions bound to names (f <- function(x) ...); calls f(), obj$m(), pkg::f().

(binary_operator lhs: (identifier) @name rhs: (function_definition)) @definition.function

(call function: (identifier) @name) @reference.call
(call function: (extract_operator lhs: (_) @receiver rhs: (identifier) @name)) @reference.call
(call function: (namespace_operator lhs: (_) @receiver rhs: (identifier) @name)) @reference.call
