; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Fennel: (fn f [x] ...), (lambda f [x] ...); calls (f x), (mod.f x), (obj:m x).

(fn name: (symbol) @name) @definition.function
(fn name: (multi_symbol) @name) @definition.function
(lambda name: (symbol) @name) @definition.function

(list . (symbol) @name) @reference.call
(list . (multi_symbol (symbol) @receiver . (symbol) @name .)) @reference.call
(list . (multi_symbol_method (symbol) @receiver . (symbol) @name .)) @reference.call
