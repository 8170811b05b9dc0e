; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Luau: as Lua (queries/lua/tags.scm), plus type annotations the grammar keeps out of the names.

(function_declaration name: [(identifier) (dot_index_expression) (method_index_expression)] @name) @definition.function
(assignment_statement (variable_list . name: [(identifier) (dot_index_expression)] @name) (expression_list . value: (function_definition))) @definition.function

(function_call name: (identifier) @name) @reference.call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @reference.call
