; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Ruby: classes, modules, methods (def, def self.x); calls with arguments or a receiver.
; A bare identifier may be a local variable or a call without arguments: not captured.

(class name: [(constant) (scope_resolution)] @name) @def.class
(module name: [(constant) (scope_resolution)] @name) @def.namespace
(method name: (_) @name) @def.method
(singleton_method name: (_) @name) @def.method

(call receiver: (constant) @callee method: (identifier) @_new (#eq? @_new "new")) @ctor
(call receiver: (scope_resolution name: (constant) @callee) method: (identifier) @_new (#eq? @_new "new")) @ctor
(call receiver: _ @receiver method: (identifier) @callee) @call
(call !receiver method: (identifier) @callee) @call
