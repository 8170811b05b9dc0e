; Go: what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/go/extract.py. Names follow
; tree-sitter's tags vocabulary (@definition.*, @reference.*, @name) where one exists.

(package_clause (package_identifier) @package)
(import_spec) @import

; definitions: functions, methods (named by their receiver type), types, interface methods
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name) @definition.method
; function literals: a package-level `var f = func() {}` is a function; others are scopes
(func_literal) @scope.function

; call sites: @callee is the callee expression
(call_expression function: (_) @callee) @reference.call

; non-call references (a project name): functions and method values passed as arguments
(argument_list [(identifier) (selector_expression)] @reference.value)

; bindings and type evidence
(short_var_declaration) @assign.short
(var_spec) @assign.var
(const_spec) @assign.const
(assignment_statement) @assign.plain
(range_clause left: (_)) @bind.range
(type_switch_statement alias: (_) @bind.pattern)

; block scopes where Go code most often declares one name twice: statements that declare in their
; header (`if v, ok := x.(T); ok {`, `for _, c := range xs {`, `switch x := f(); x {`), and the
; clauses of switch and select statements (a type switch's case of one type gives the alias that
; type). Other blocks share their function's scope: cheaper, and a name declared twice there is rare
(if_statement initializer: (_)) @scope.block
(for_statement (range_clause)) @scope.block
(for_statement (for_clause initializer: (_))) @scope.block
(expression_switch_statement initializer: (_)) @scope.block
(type_switch_statement) @scope.block
[(expression_case) (default_case) (communication_case)] @scope.block
(type_case) @scope.case
