; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Kotlin: classes, objects, functions (methods inside classes and companion objects); calls.
; Calling a class (Foo(1)) is a constructor call: it resolves to the class.

(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(function_declaration (simple_identifier) @name) @definition.function

(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression . (_) @receiver . (navigation_suffix (simple_identifier) @name))) @reference.call
