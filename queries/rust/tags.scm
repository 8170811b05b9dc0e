; Rust: what the extractor needs from the syntax tree (server/graphmind/languages/rust/extract.py).
; Capture names follow tree-sitter's tags vocabulary where one exists; the symbol's kind comes from
; the node's type (struct_item -> struct, ...), so a struct, an enum and a union are all classes.

; items (definitions); methods are function items inside an impl or trait body
(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(impl_item type: (_) @name) @reference.implementation
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant

; call sites: the callee expression of every call; a macro's token trees are scanned for calls
(call_expression function: (_) @name) @reference.call
(macro_invocation macro: (_) @name) @reference.call

; non-call references: struct literals, and paths passed as arguments (a function as a value)
(struct_expression name: (_) @name) @reference.class
(arguments (identifier) @reference.value)
(arguments (scoped_identifier) @reference.value)

; imports
(use_declaration) @import

; local bindings and type evidence (project captures: no tags equivalent)
(let_declaration pattern: (_) @let.pattern) @let
(parameter pattern: (_) @param.pattern) @param
(closure_parameters) @bind.closure
(for_expression pattern: (_) @bind.pattern)
(match_pattern) @bind.pattern
(let_condition pattern: (_) @bind.pattern)
