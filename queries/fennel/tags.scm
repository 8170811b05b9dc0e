; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Fennel: (fn f [x] ...), (lambda f [x] ...), (macro m [x] ...); calls (f x), (mod.f x), (obj:m x).

(fn name: (symbol) @name) @definition.function
(fn name: (multi_symbol) @name) @definition.function
(lambda name: (symbol) @name) @definition.function
; (macro m [x] ...): a macro of the file
((list . (symbol) @_k . (symbol) @name) (#eq? @_k "macro")) @definition.function

(list . (symbol) @name) @reference.call
(list . (multi_symbol (symbol) @receiver . (symbol) @name .)) @reference.call
(list . (multi_symbol_method (symbol) @receiver . (symbol) @name .)) @reference.call
; (local {: f : g} (require :m)), (import-macros {: m} :mod): a bare (f x) is module m's f
((local (table_binding (binding (symbol) @import.name)) . (list . (symbol) @_r . (string) @import.module)) (#eq? @_r "require"))
((list . (symbol) @_k . (table (table_pair (binding (symbol) @import.name))) . (string) @import.module) (#eq? @_k "import-macros"))
