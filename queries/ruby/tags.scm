; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Ruby: classes, modules, methods (def, def self.x); calls with arguments or a receiver.
; A bare identifier may be a local variable or a call without arguments: not captured.

(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.namespace
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

(call receiver: (constant) @name method: (identifier) @_new (#eq? @_new "new")) @reference.class
(call receiver: (scope_resolution name: (constant) @name) method: (identifier) @_new (#eq? @_new "new")) @reference.class
(call receiver: _ @receiver method: (identifier) @name) @reference.call
(call !receiver method: (identifier) @name) @reference.call
