; Python: what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/python.py.

; definitions
(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class
(assignment left: (identifier) @name right: (lambda)) @def.lambda

; call sites: the callee expression of every call
(call function: (_) @callee) @call
; `raise Error` instantiates the class: a call of it
(raise_statement . (identifier) @callee) @call
(raise_statement . (attribute) @callee) @call

; non-call references: decorators, callbacks passed as arguments, returned/stored functions
(decorator (identifier) @ref.decorator)
(decorator (attribute) @ref.decorator)
(argument_list (identifier) @ref.arg)
(argument_list (attribute) @ref.arg)
(keyword_argument value: (identifier) @ref.arg)
(keyword_argument value: (attribute) @ref.arg)

; imports in every form
(import_statement) @import
(import_from_statement) @import

; bindings and type evidence
(assignment left: (_) @assign.left) @assign
(augmented_assignment left: (identifier) @bind)
(for_statement left: (_) @bind.pattern)
(for_in_clause left: (_) @bind.pattern)
(as_pattern alias: (as_pattern_target (identifier) @bind))
(named_expression name: (identifier) @bind)
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @global)
