; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; PowerShell: functions, classes and their methods; commands (Verb-Noun args), $x.M(), [T]::new().

(function_statement (function_name) @name) @definition.function
(class_statement . (simple_name) @name) @definition.class
(class_method_definition (simple_name) @name) @definition.method

(command command_name: (command_name) @name) @reference.call
(invokation_expression (variable) @receiver (member_name (simple_name) @name)) @reference.call
(invokation_expression (type_literal (type_spec (type_name (type_identifier) @name))) (member_name (simple_name) @_new) (#eq? @_new "new")) @reference.class
