; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; PureScript: functions (one per clause), data types and classes; applications f x, M.f x.

(function name: (variable) @name) @definition.function
(data name: (type) @name) @definition.struct
(class_declaration (class_head (class_name (type) @name))) @definition.interface

(exp_apply . (exp_name (variable) @name)) @reference.call
(exp_apply . (exp_name (qualified_variable (module) @receiver (variable) @name))) @reference.call
