; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Squirrel: classes, functions and methods; calls f(), x.f().

(class_declaration . (identifier) @name) @definition.class
(function_declaration . (identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (deref_expression (_) @receiver . (identifier) @name .)) @reference.call
