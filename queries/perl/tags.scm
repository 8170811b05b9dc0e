; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Perl: subs and block packages; function calls (plain, qualified Pkg::f, &f) and method calls.

(package_statement name: (package) @name (block)) @definition.namespace
(subroutine_declaration_statement name: (bareword) @name) @definition.function
; `has name => ...` (Mojo::Base, Moose, Moo): an accessor method named `name`
(ambiguous_function_call_expression function: (function) @_has (#eq? @_has "has") . (autoquoted_bareword) @name) @definition.function

(function_call_expression function: (function) @name) @reference.call
(ambiguous_function_call_expression function: (function) @name) @reference.call
(method_call_expression invocant: (_) @receiver method: (method) @name) @reference.call
