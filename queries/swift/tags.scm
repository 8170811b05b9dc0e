; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Swift: classes, structs, enums, extensions (all class_declaration), protocols, functions, inits.

(class_declaration name: (type_identifier) @name) @def.class
(class_declaration name: (user_type (type_identifier) @name)) @def.class
(protocol_declaration name: (type_identifier) @name) @def.interface
(function_declaration name: (simple_identifier) @name) @def.function
(protocol_function_declaration name: (simple_identifier) @name) @def.function
(init_declaration "init" @name) @def.constructor

(call_expression . (simple_identifier) @callee) @call
(call_expression . (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @callee))) @call
; `a + f()` parses as (a + f)(): the call suffix binds to the binary expression's right operand
(call_expression . (_ rhs: (simple_identifier) @callee) . (call_suffix)) @call
(call_expression . (_ rhs: (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @callee))) . (call_suffix)) @call
