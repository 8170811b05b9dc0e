; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Tcl: procs (namespace-qualified names split on ::); every command is a call: `f x`, [f x], ::ns::f.

(procedure name: (simple_word) @name) @definition.function
(namespace (word_list (simple_word) @_ev (simple_word) @name) (#eq? @_ev "eval")) @definition.namespace

(command name: (simple_word) @name) @reference.call
