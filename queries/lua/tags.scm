; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Lua: function declarations (`function f`, `function M.f`, `function M:f`, `local function f`) and
; functions assigned to names; calls f(), M.f(), obj:m().

(function_declaration name: [(identifier) (dot_index_expression) (method_index_expression)] @name) @def.function
(assignment_statement (variable_list . name: [(identifier) (dot_index_expression)] @name) (expression_list . value: (function_definition))) @def.function

(function_call name: (identifier) @callee) @call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @callee)) @call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @callee)) @call
