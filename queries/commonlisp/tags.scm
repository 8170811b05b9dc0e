; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Common Lisp: defun/defmacro/defgeneric/defmethod; calls (f x), (pkg:f x).

(defun (defun_header function_name: (sym_lit) @name)) @definition.function

(list_lit . (sym_lit) @name) @reference.call
(list_lit . (package_lit package: (_) @receiver symbol: (_) @name)) @reference.call
(defun_header lambda_list: (list_lit) @ignore)
