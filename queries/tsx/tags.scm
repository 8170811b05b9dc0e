; TSX (a copy of queries/typescript/tags.scm: TSX is TypeScript plus JSX): what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/typescript.py; what a node
; means (its name, its kind, where it binds) is decided there from its parent.

; scopes and definitions: functions of every form, classes, interfaces, namespaces
[(function_declaration) (generator_function_declaration) (function_expression)
 (generator_function) (arrow_function) (method_definition)] @scope.function
[(class_declaration) (abstract_class_declaration) (class)] @scope.class
(interface_declaration) @scope.interface
(internal_module) @scope.namespace
; object literals that may name their methods (`const api = {...}`, `module.exports = {...}`)
(variable_declarator value: (object) @scope.object)
(assignment_expression right: (object) @scope.object)
(export_statement value: (object) @scope.object)
; bodiless members: interface methods, abstract methods
(interface_body (method_signature) @def.signature)
(class_body (abstract_method_signature) @def.signature)

; call sites
(call_expression function: (_) @callee) @call
(new_expression constructor: (_) @callee) @new
(jsx_opening_element name: (_) @callee) @jsx
(jsx_self_closing_element name: (_) @callee) @jsx

; non-call references: callbacks passed as arguments or JSX props, decorators
(arguments [(identifier) (member_expression)] @ref.arg)
(jsx_expression [(identifier) (member_expression)] @ref.arg)
(decorator [(identifier) (member_expression)] @ref.arg)

; imports, exports, CommonJS
(import_statement) @import
(export_statement) @export
(assignment_expression left: (member_expression) right: (_)) @assign

; bindings and type evidence
(variable_declarator) @declarator
(public_field_definition) @field
(for_in_statement left: (_) @bind.pattern)
(catch_clause parameter: (_) @bind.pattern)
; what a function returns when nothing declares it: `return new Foo()`, `() => new Foo()`
(return_statement (new_expression) @ret.new)
(arrow_function body: (new_expression) @ret.new)
