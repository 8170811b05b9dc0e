; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Squirrel: classes, functions, methods and constructors; calls f(), x.f().

(class_declaration . (identifier) @name) @definition.class
(function_declaration . (identifier) @name) @definition.function
(member_declaration "constructor" @name) @definition.constructor

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (deref_expression (_) @receiver . (identifier) @name .)) @reference.call

; names a parameter or a local variable binds: a bare call of one calls that value
(parameter . (identifier) @bound)
(local_declaration . (identifier) @bound)
(member_declaration . (identifier) @bound)
(foreach_statement index: (identifier) @bound)
(foreach_statement value: (identifier) @bound)

; a name created from a call of a class (`audio <- VS10XX(...)`, `local f = SpiFlash(spi)`): its type
(update_expression left: (identifier) @typed.name right: (call_expression function: (identifier) @typed.type))
(local_declaration . (identifier) @typed.name . (call_expression function: (identifier) @typed.type))
