; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Pascal/Delphi: classes, procedures and functions (TFoo.Bar: a method of TFoo); calls F(), X.F(), bare F.

(declType name: (identifier) @name type: (declClass)) @definition.class
(defProc header: (declProc name: (identifier) @name)) @definition.function
(defProc header: (declProc name: (genericDot) @name)) @definition.method

(exprCall entity: (identifier) @name) @reference.call
(exprCall entity: (exprDot lhs: (_) @receiver rhs: (identifier) @name)) @reference.call
(statement (identifier) @name) @reference.call
