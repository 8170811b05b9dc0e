; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Bash: function definitions; every command is a call (a workspace function or an external program).

(function_definition name: (word) @name) @definition.function

(command name: (command_name (word) @name)) @reference.call
