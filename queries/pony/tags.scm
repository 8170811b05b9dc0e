; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Pony: actors, classes, primitives, traits, interfaces; methods (fun), behaviours (be), constructors (new); calls f(), x.f().

(actor_definition . (identifier) @name) @definition.class
(class_definition . (identifier) @name) @definition.class
(primitive_definition . (identifier) @name) @definition.class
(trait_definition . (identifier) @name) @definition.trait
(interface_definition . (identifier) @name) @definition.interface
(method . (identifier) @name) @definition.method
(behavior . (identifier) @name) @definition.method
(constructor . (identifier) @name) @definition.constructor

(call_expression callee: (identifier) @name) @reference.call
(call_expression callee: (member_expression . (_) @receiver . (identifier) @name .)) @reference.call
