; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; GDScript (Godot): classes (inner and class_name), functions; calls f(), x.f(), Foo.new().

(class_definition name: (name) @name) @definition.class
(class_name_statement (name) @name) @definition.class
(function_definition name: (name) @name) @definition.function
(constructor_definition "_init" @name) @definition.constructor

(call (identifier) @name) @reference.call
(attribute (_) @receiver . (attribute_call (identifier) @name)) @reference.call
((attribute (identifier) @name . (attribute_call (identifier) @_new)) (#eq? @_new "new")) @reference.class
