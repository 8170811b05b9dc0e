; Rust: what the extractor needs from the syntax tree.
; Captures are dispatched by name in server/graphmind/languages/rust.py.

; items (definitions); methods are function items inside an impl or trait body
(mod_item name: (identifier) @name) @def.module
(struct_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(union_item name: (type_identifier) @name) @def.union
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type
(impl_item type: (_) @name) @def.impl
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(macro_definition name: (identifier) @name) @def.macro
(const_item name: (identifier) @name) @def.const
(static_item name: (identifier) @name) @def.const

; call sites: the callee expression of every call; macro bodies are scanned for calls too
(call_expression function: (_) @callee) @call
(macro_invocation macro: (_) @callee) @macro

; non-call references: struct literals, functions passed as values
(struct_expression name: (_) @ref.struct)
(arguments (identifier) @ref.arg)
(arguments (scoped_identifier) @ref.arg)

; imports
(use_declaration) @use

; local bindings and type evidence
(let_declaration pattern: (_) @let.pattern) @let
(parameter pattern: (_) @param.pattern) @param
(closure_parameters) @bind.closure
(for_expression pattern: (_) @bind.pattern)
(match_pattern) @bind.pattern
(let_condition pattern: (_) @bind.pattern)
