; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; PHP: classes, interfaces, traits, enums, methods, functions; function, method, static and new calls.

(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(method_declaration name: (name) @name) @def.method
(function_definition name: (name) @name) @def.function

(function_call_expression function: (name) @callee) @call
(function_call_expression function: (qualified_name (name) @callee .)) @call
(member_call_expression object: (_) @receiver name: (name) @callee) @call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @callee) @call
(scoped_call_expression scope: (_) @receiver name: (name) @callee) @call
(object_creation_expression (name) @callee) @ctor
(object_creation_expression (qualified_name (name) @callee .)) @ctor
