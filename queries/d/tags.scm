; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; D: classes, structs, interfaces, functions and constructors; calls f(), x.f(), new Foo().

(class_declaration (class) . (identifier) @name) @definition.class
(struct_declaration (struct) . (identifier) @name) @definition.struct
(interface_declaration (interface) . (identifier) @name) @definition.interface
(function_declaration (identifier) @name . (parameters)) @definition.function
(constructor (this) @name) @definition.constructor

(call_expression . (identifier) @name) @reference.call
(call_expression . (property_expression (_) @receiver . (identifier) @name .)) @reference.call
(call_expression . (type (identifier) @receiver . (identifier) @name .)) @reference.call
(new_expression (type (identifier) @name)) @reference.class
