; JavaScript (.js .jsx .mjs .cjs): what the extractor needs from the syntax tree.
; The same captures as queries/typescript/tags.scm minus the TypeScript-only node types.

; scopes and definitions
[(function_declaration) (generator_function_declaration) (function_expression)
 (generator_function) (arrow_function) (method_definition)] @scope.function
[(class_declaration) (class)] @scope.class
(variable_declarator value: (object) @scope.object)
(assignment_expression right: (object) @scope.object)
(export_statement value: (object) @scope.object)

; call sites
(call_expression function: (_) @callee) @call
(new_expression constructor: (_) @callee) @new
(jsx_opening_element name: (_) @callee) @jsx
(jsx_self_closing_element name: (_) @callee) @jsx

; non-call references
(arguments [(identifier) (member_expression)] @ref.arg)
(jsx_expression [(identifier) (member_expression)] @ref.arg)
(decorator [(identifier) (member_expression)] @ref.arg)

; imports, exports, CommonJS
(import_statement) @import
(export_statement) @export
(assignment_expression left: (member_expression) right: (_)) @assign

; bindings
(variable_declarator) @declarator
(field_definition) @field
(for_in_statement left: (_) @bind.pattern)
(catch_clause parameter: (_) @bind.pattern)
; what a function returns when nothing declares it: `return new Foo()`, `() => new Foo()`
(return_statement (new_expression) @ret.new)
(arrow_function body: (new_expression) @ret.new)
