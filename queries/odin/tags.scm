; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Odin: procedures and structs bound with ::; calls f(), pkg.f().

(procedure_declaration . (identifier) @name) @definition.function
(struct_declaration . (identifier) @name) @definition.struct

(call_expression function: (identifier) @name) @reference.call
(member_expression . (_) @receiver (call_expression function: (identifier) @name) @reference.call)
