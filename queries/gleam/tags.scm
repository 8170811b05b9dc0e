; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Gleam: functions and custom types; calls f(), module.f().

(function name: (identifier) @name) @definition.function
(type_definition (type_name name: (type_identifier) @name)) @definition.struct

(function_call function: (identifier) @name) @reference.call
(function_call function: (field_access record: (_) @receiver field: (label) @name)) @reference.call
