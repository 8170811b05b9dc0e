; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Hack: classes, interfaces, traits, methods, functions; calls f(), $x->f(), Foo::f(), new Foo().

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(trait_declaration name: (identifier) @name) @definition.trait
(method_declaration name: (identifier) @name) @definition.method
(function_declaration name: (identifier) @name) @definition.function

(call_expression function: (qualified_identifier (identifier) @name .)) @reference.call
(call_expression function: (selection_expression (_) @receiver (qualified_identifier (identifier) @name .))) @reference.call
(call_expression function: (selection_expression (_) @receiver (identifier) @name .)) @reference.call
(call_expression function: (scoped_identifier (qualified_identifier) @receiver (identifier) @name .)) @reference.call
(new_expression (qualified_identifier (identifier) @name .)) @reference.class
