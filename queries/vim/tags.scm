; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Vim script: functions (s:Name: the name after the scope; autoload#Name whole); calls f(), `call f()`.

(function_definition (function_declaration name: (identifier) @name)) @definition.function
(function_definition (function_declaration name: (scoped_identifier (identifier) @name))) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (scoped_identifier (identifier) @name)) @reference.call
