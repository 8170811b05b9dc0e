; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Objective-C: interfaces, implementations, protocols, methods and C functions; [recv msg] and f().

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface
(method_definition . (identifier) @name) @definition.method
(method_definition (method_type) . (identifier) @name) @definition.method
(method_declaration (method_type) . (identifier) @name) @definition.method
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function

(call_expression function: (identifier) @name) @reference.call
(message_expression receiver: (_) @receiver method: (identifier) @name) @reference.call
; [Foo alloc], [Foo new]: an instantiation of Foo
((message_expression receiver: (identifier) @name method: (identifier) @_m) (#any-of? @_m "alloc" "new")) @reference.class
