; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; racket: (define (f x) ...), (define f (lambda ...)); calls (f x).

((list . (symbol) @_k . (list . (symbol) @name)) (#any-of? @_k "define" "define/contract" "define-syntax-rule")) @definition.function
((list . (symbol) @_k . (symbol) @name . (list . (symbol) @_l)) (#eq? @_k "define") (#any-of? @_l "lambda" "λ" "case-lambda")) @definition.function

(list . (symbol) @name) @reference.call
((list . (symbol) @_l . (list) @ignore) (#any-of? @_l "lambda" "λ"))
