; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Julia: modules, structs, functions (long and short form); calls f(x), Mod.f(x).

(module_definition name: (identifier) @name) @definition.namespace
(struct_definition (type_head (identifier) @name)) @definition.struct
(struct_definition (type_head (binary_expression . (identifier) @name))) @definition.struct
(function_definition (signature (call_expression . (identifier) @name))) @definition.function
(function_definition (signature (where_expression . (call_expression . (identifier) @name)))) @definition.function
(function_definition (signature (typed_expression . (call_expression . (identifier) @name)))) @definition.function
(assignment . (call_expression . (identifier) @name) (operator) @_eq (#eq? @_eq "=")) @definition.function

(call_expression . (identifier) @name) @reference.call
(call_expression . (field_expression value: (_) @receiver (identifier) @name .)) @reference.call
