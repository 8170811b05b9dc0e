; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Swift: classes, structs, enums, extensions (all class_declaration; an extension is @augments), protocols,
; functions, inits.

(class_declaration name: (type_identifier) @name) @definition.class
; `extension Foo` (its name a user_type): it adds members to Foo and is no callee itself
(class_declaration name: (user_type (type_identifier) @name)) @definition.class @augments
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.constructor

(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call
; `a + f()` parses as (a + f)(): the call suffix binds to the binary expression's right operand
(call_expression . (_ rhs: (simple_identifier) @name) . (call_suffix)) @reference.call
(call_expression . (_ rhs: (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @name))) . (call_suffix)) @reference.call
