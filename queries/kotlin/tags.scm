; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Kotlin: classes, objects, functions (methods inside classes and companion objects); calls.
; Calling a class (Foo(1)) is a constructor call: it resolves to the class.

(class_declaration (type_identifier) @name) @def.class
(object_declaration (type_identifier) @name) @def.class
(function_declaration (simple_identifier) @name) @def.function

(call_expression . (simple_identifier) @callee) @call
(call_expression . (navigation_expression . (_) @receiver . (navigation_suffix (simple_identifier) @callee))) @call
