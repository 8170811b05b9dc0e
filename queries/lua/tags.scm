; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Lua: function declarations (`function f`, `function M.f`, `function M:f`, `local function f`) and
; functions assigned to names; calls f(), M.f(), obj:m().

(function_declaration name: [(identifier) (dot_index_expression) (method_index_expression)] @name) @definition.function
; `local function f`: seen from its own file only
(function_declaration "local" name: (identifier) @name) @definition.function @local
(assignment_statement (variable_list . name: [(identifier) (dot_index_expression)] @name) (expression_list . value: (function_definition))) @definition.function

(function_call name: (identifier) @name) @reference.call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @reference.call
