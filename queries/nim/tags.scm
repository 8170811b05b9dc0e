; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Nim: procs, funcs, methods, iterators, templates, macros and object types; calls f(), x.f().

(proc_declaration name: (identifier) @name) @definition.function
(func_declaration name: (identifier) @name) @definition.function
(method_declaration name: (identifier) @name) @definition.function
(iterator_declaration name: (identifier) @name) @definition.function
(template_declaration name: (identifier) @name) @definition.function
(macro_declaration name: (identifier) @name) @definition.function
(proc_declaration name: (exported_symbol (identifier) @name)) @definition.function
(func_declaration name: (exported_symbol (identifier) @name)) @definition.function
(type_declaration (type_symbol_declaration name: (identifier) @name) (object_declaration)) @definition.struct

(call function: (identifier) @name) @reference.call
(call function: (dot_expression left: (_) @receiver right: (identifier) @name)) @reference.call
