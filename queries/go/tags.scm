; Go: what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/go.py.

(package_clause (package_identifier) @package)
(import_spec) @import

; definitions: functions, methods (named by their receiver type), types, interface methods
(function_declaration name: (identifier) @name) @def.function
(method_declaration name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(method_elem name: (field_identifier) @name) @def.signature
; function literals: a package-level `var f = func() {}` is a function; others are scopes
(func_literal) @scope.lambda

; call sites
(call_expression function: (_) @callee) @call

; non-call references: functions and method values passed as arguments
(argument_list [(identifier) (selector_expression)] @ref.arg)

; bindings and type evidence
(short_var_declaration) @assign.short
(var_spec) @assign.var
(const_spec) @assign.const
(assignment_statement) @assign.plain
(range_clause left: (_) @bind.pattern)
(type_switch_statement alias: (_) @bind.pattern)
