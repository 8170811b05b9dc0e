; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Bash: function definitions; every command is a call (a workspace function or an external program).

(function_definition name: (word) @name) @def.function

(command name: (command_name (word) @callee)) @call
