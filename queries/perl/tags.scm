; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Perl: subs and block packages; function calls (plain, qualified Pkg::f, &f) and method calls.

(package_statement name: (package) @name (block)) @def.namespace
(subroutine_declaration_statement name: (bareword) @name) @def.function

(function_call_expression function: (function) @callee) @call
(ambiguous_function_call_expression function: (function) @callee) @call
(method_call_expression invocant: (_) @receiver method: (method) @callee) @call
