; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Erlang: functions (one per clause); calls f(X) and mod:f(X).

(fun_decl clause: (function_clause name: (atom) @name)) @definition.function

(call expr: (atom) @name) @reference.call
; -import(m, [f/1]): a bare f(X) is m:f(X)
(import_attribute module: (atom) @import.module funs: (fa fun: (atom) @import.name))
(call expr: (remote module: (remote_module module: (atom) @receiver) fun: (atom) @name)) @reference.call
; type specs and type definitions name types, not functions
(spec) @ignore
(type_alias) @ignore
(record_decl) @ignore
(opaque) @ignore
(callback) @ignore
