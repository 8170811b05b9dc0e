; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Haskell: top-level and local functions (one per clause), data types and classes; applications f x, M.f x.

(function name: (variable) @name) @definition.function
(bind name: (variable) @name) @definition.function
(data_type name: (name) @name) @definition.struct
(class name: (name) @name) @definition.interface
; `instance Show T where show = ...`: its functions are the class's methods for T, reached through the class
(instance name: (name) @name) @definition.class

(apply function: (variable) @name) @reference.call
(apply function: (qualified module: (module) @receiver id: (variable) @name)) @reference.call
