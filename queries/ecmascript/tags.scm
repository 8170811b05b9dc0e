; ECMAScript (TypeScript, TSX, JavaScript): what the extractor needs from the syntax tree, for all
; three grammars. What one grammar adds is in the folder named for it (typescript/, jsx/,
; javascript/); each plugin names the folders it loads (languages/ecmascript/__init__.py).
; Captures are dispatched by name in server/graphmind/languages/ecmascript/extract.py; what a node
; means (its name, its kind, where it binds) is decided there from its parent. Names follow
; tree-sitter's tags vocabulary (@definition.*, @reference.*) where one exists.

; definitions, each a scope: functions of every form, methods, classes
[(function_declaration) (generator_function_declaration)] @definition.function
(method_definition) @definition.method
[(class_declaration) (class)] @definition.class
; function values are scopes, named only by what they are bound to
[(function_expression) (generator_function) (arrow_function)] @scope.function
; object literals that may name their methods (`const api = {...}`, `module.exports = {...}`; an
; assignment's: see @assign)
(variable_declarator value: (object) @scope.object)
(export_statement value: (object) @scope.object)
; object literals a function returns (`return { check() {...} }`, `() => ({...})`) are named by the
; function; they, and what a function returns when nothing declares it (`return new Foo()`,
; `() => new Foo()`, `return subject` of a name with a declared type), are read by the extractor
; from the return statement and the arrow function's body: a pattern with a child step costs the
; query's compilation an analysis of the grammar (up to 36 M instructions each, in every process)
(return_statement) @return

; branches taken when a condition holds (`if (x instanceof C) ...`, `isC(x) ? x.m() : ...`, through
; `&&`): a scope where the names the condition tests have the types it proves (a scope only when it
; proves something, Extractor.open_narrow)
(if_statement
  condition: (parenthesized_expression [(binary_expression) (call_expression)])
  consequence: [(statement_block) (expression_statement) (return_statement)] @scope.narrow)
(ternary_expression
  condition: [(binary_expression) (call_expression) (parenthesized_expression)]
  consequence: [(call_expression) (member_expression) (parenthesized_expression)] @scope.narrow)
(switch_statement value: (parenthesized_expression (member_expression)) body: (switch_body (switch_case value: (string)) @scope.narrow))

; call sites: @callee is the callee expression
(call_expression function: (_) @callee) @reference.call
(new_expression constructor: (_) @callee) @reference.class

; non-call references (a project name): callbacks passed as arguments, decorators
(arguments [(identifier) (member_expression)] @reference.value)
(decorator [(identifier) (member_expression)] @reference.value)

; imports, exports, CommonJS
(import_statement) @import
(export_statement) @export
(assignment_expression) @assign

; bindings and type evidence
(variable_declarator) @declarator
(for_in_statement left: (_) @bind.pattern)
(catch_clause parameter: (_) @bind.pattern)
; object literals typed by their context: an argument (`ky.get(url, {fetch() {...}})`), nested in
; one (`{retry: {shouldRetry() {...}}}`): their methods are symbols implementing the type's members
; (only literals with a method or a function-valued key: the others define nothing)
(arguments (object [(method_definition) (pair value: [(arrow_function) (function_expression)])]) @scope.object)
(pair value: (object [(method_definition) (pair value: [(arrow_function) (function_expression)])]) @scope.object)
