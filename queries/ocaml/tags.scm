; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; OCaml: let-bound functions, modules, classes and their methods; applications f x, M.f x, obj#m.

(let_binding pattern: (value_name) @name (parameter)) @definition.function
(let_binding pattern: (value_name) @name body: (fun_expression)) @definition.function
(module_binding (module_name) @name) @definition.namespace
(class_binding name: (class_name) @name) @definition.class
(method_definition name: (method_name) @name) @definition.method

(application_expression function: (value_path . (value_name) @name)) @reference.call
(application_expression function: (value_path (module_path) @receiver (value_name) @name)) @reference.call
; obj#m: the spec says a receiver names a module (module_receivers), so an object method call stays unresolved
(method_invocation . (_) @receiver (method_name) @name) @reference.call
