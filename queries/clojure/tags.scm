; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Clojure: (defn f ...), (defmacro m ...), (defprotocol P ...), (defrecord R ...); calls (f x), (ns/f x).

((list_lit . (sym_lit name: (sym_name) @_k) . (sym_lit name: (sym_name) @name))
 (#any-of? @_k "defn" "defn-" "defmacro" "defmulti")) @definition.function
((list_lit . (sym_lit name: (sym_name) @_k) . (sym_lit name: (sym_name) @name))
 (#any-of? @_k "defprotocol" "definterface")) @definition.interface
((list_lit . (sym_lit name: (sym_name) @_k) . (sym_lit name: (sym_name) @name))
 (#any-of? @_k "defrecord" "deftype")) @definition.struct

(list_lit . (sym_lit !namespace name: (sym_name) @name)) @reference.call
(list_lit . (sym_lit namespace: (sym_ns) @receiver name: (sym_name) @name)) @reference.call
