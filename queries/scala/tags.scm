; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Scala: classes, objects, traits, functions; calls, method calls, `new Foo`.

(class_definition name: (identifier) @name) @def.class
(object_definition name: (identifier) @name) @def.class
(trait_definition name: (identifier) @name) @def.trait
(function_definition name: (identifier) @name) @def.function
(function_declaration name: (identifier) @name) @def.function

(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @callee)) @call
(call_expression function: (generic_function function: (identifier) @callee)) @call
(instance_expression (type_identifier) @callee) @ctor
(instance_expression (generic_type (type_identifier) @callee)) @ctor
