; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Janet: (defn f [x] ...), (defmacro m [x] ...); calls (f x).

(extra_defs name: (symbol) @name) @definition.function

(tuple . item: (symbol) @name) @reference.call
