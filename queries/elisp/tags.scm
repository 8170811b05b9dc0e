; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Emacs Lisp: defun/defmacro/defsubst; calls (f x).

(function_definition name: (symbol) @name) @definition.function
(macro_definition name: (symbol) @name) @definition.function

(list . (symbol) @name) @reference.call
(function_definition parameters: (list) @ignore)
(macro_definition parameters: (list) @ignore)
