; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; scheme: (define (f x) ...), (define f (lambda ...)), (define-syntax m ...), a record type's
; constructor, predicate and accessors; calls (f x).

((list . (symbol) @_k . (list . (symbol) @name)) (#any-of? @_k "define" "define/contract" "define-syntax-rule")) @definition.function
((list . (symbol) @_k . (symbol) @name . (list . (symbol) @_l)) (#eq? @_k "define") (#any-of? @_l "lambda" "λ" "case-lambda")) @definition.function
((list . (symbol) @_k . (symbol) @name . (list)) (#any-of? @_k "define-syntax" "define-syntax-rule")) @definition.function
; (define-record-type point (make-point x y) point? (x point-x set-point-x!) ...)
((list . (symbol) @_k . (_) . (list . (symbol) @name) @definition.function) (#eq? @_k "define-record-type"))
((list . (symbol) @_k . (_) . (_) . (symbol) @name @definition.function) (#eq? @_k "define-record-type"))
((list . (symbol) @_k . (_) . (_) . (_) (list "(" @ignore . (symbol) . (symbol) @name @definition.function)) (#eq? @_k "define-record-type"))
((list . (symbol) @_k . (_) . (_) . (_) (list . (symbol) . (symbol) . (symbol) @name @definition.function)) (#eq? @_k "define-record-type"))

(list . (symbol) @name) @reference.call
((list . (symbol) @_l . (list) @ignore) (#any-of? @_l "lambda" "λ"))
; a binding of let and its kin, `(let ((count (read))) ...)`, names a variable: no call (its init is one)
((list . (symbol) @_k . (list (list "(" @ignore))) (#any-of? @_k "let" "let*" "letrec" "letrec*" "parameterize" "fluid-let" "do"))
((list . (symbol) @_k . (symbol) . (list (list "(" @ignore))) (#eq? @_k "let"))
; a library's import and export sets, `(rename a b)`, `(only (srfi 1) x)`, are no calls
((list . (symbol) @_k) @ignore (#any-of? @_k "import" "export"))
((list . (symbol) @_k . (list) @ignore) (#eq? @_k "define-library"))
