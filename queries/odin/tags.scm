; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Odin: procedures and structs bound with ::; calls f(), pkg.f().

(procedure_declaration . (identifier) @name) @definition.function
(struct_declaration . (identifier) @name) @definition.struct
; `@(require_results) f :: proc ...`: the attributes come first
(procedure_declaration . (attributes) . (identifier) @name) @definition.function
(struct_declaration . (attributes) . (identifier) @name) @definition.struct

(call_expression function: (identifier) @name) @reference.call
(member_expression . (_) @receiver (call_expression function: (identifier) @name) @reference.call)
