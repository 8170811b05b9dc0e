; Python: what the extractor needs from the syntax tree.
; Captures follow tree-sitter's tags vocabulary where it has a name (@definition.*, @reference.call,
; @name); the rest are this project's, dispatched by name in server/graphmind/languages/python/extract.py.

; definitions
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class
; a lambda bound to a name is a function too (its node is the assignment)
(assignment left: (identifier) @name right: (lambda)) @definition.function

; call sites: the callee expression of every call
(call function: (_) @callee) @reference.call
; `raise Error` instantiates the class: a call of it
(raise_statement . (identifier) @callee) @reference.call
(raise_statement . (attribute) @callee) @reference.call

; non-call references: decorators, callbacks passed as arguments, returned/stored functions
(decorator (identifier) @reference.decorator)
(decorator (attribute) @reference.decorator)
(argument_list (identifier) @reference.argument)
(argument_list (attribute) @reference.argument)
(keyword_argument value: (identifier) @reference.argument)
(keyword_argument value: (attribute) @reference.argument)

; imports in every form
(import_statement) @import
(import_from_statement) @import

; bindings and type evidence
; (a pattern with a child step costs the query's compilation an analysis of the grammar, from
; 2 to 23 M instructions each, paid again by every process: rare nodes are captured whole and
; their fields read by the extractor)
(assignment left: (_) @assign.left) @assign
(augmented_assignment) @augment
(for_statement left: (_) @bind.pattern right: (_) @iter)
(for_in_clause left: (_) @bind.pattern right: (_) @iter)
(named_expression) @walrus
; types the code states: `with X() as x`, `except E as e`, return values (`isinstance()` narrowing
; is found among the calls)
(as_pattern) @as
(return_statement (_)) @return
(yield) @yield
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @global)
