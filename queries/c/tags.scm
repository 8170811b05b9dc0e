; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; C: function definitions (also returning pointers) and function-like macros; calls by name.
; Calls through struct fields (p->fn()) are function pointers: not captured.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @def.function
(function_definition declarator: (_ declarator: (function_declarator declarator: (identifier) @name))) @def.function
(function_definition declarator: (_ declarator: (_ declarator: (function_declarator declarator: (identifier) @name)))) @def.function
(preproc_function_def name: (identifier) @name) @def.function

(call_expression function: (identifier) @callee) @call
