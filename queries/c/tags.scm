; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; C: function definitions (also returning pointers) and function-like macros; calls by name.
; Calls through struct fields (p->fn()) are function pointers: not captured.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (_ declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (_ declarator: (_ declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(preproc_function_def name: (identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
