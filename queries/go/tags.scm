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

; block scopes: blocks, statements that declare in their header, cases (a type switch's case of
; one type gives the alias that type)
(block) @scope.block
[(if_statement) (for_statement) (expression_switch_statement) (type_switch_statement) (select_statement)] @scope.block
[(expression_case) (default_case) (communication_case)] @scope.block
(type_case) @scope.case
