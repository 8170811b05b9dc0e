; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Julia: modules, structs, functions (long and short form); calls f(x), Mod.f(x).

(module_definition name: (identifier) @name) @def.namespace
(struct_definition (type_head (identifier) @name)) @def.struct
(struct_definition (type_head (binary_expression . (identifier) @name))) @def.struct
(function_definition (signature (call_expression . (identifier) @name))) @def.function
(function_definition (signature (where_expression . (call_expression . (identifier) @name)))) @def.function
(function_definition (signature (typed_expression . (call_expression . (identifier) @name)))) @def.function
(assignment . (call_expression . (identifier) @name) (operator) @_eq (#eq? @_eq "=")) @def.function

(call_expression . (identifier) @callee) @call
(call_expression . (field_expression value: (_) @receiver (identifier) @callee .)) @call
