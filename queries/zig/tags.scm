; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Zig: functions, struct/enum/union containers bound to names; calls f(), x.f(), Type.f().

(Decl (FnProto function: (IDENTIFIER) @name)) @definition.function
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name (ErrorUnionExpr (SuffixExpr (ContainerDecl))))) @definition.struct

(SuffixExpr . variable_type_function: (IDENTIFIER) @name . (FnCallArguments)) @reference.call
(SuffixExpr (_) @receiver . (FieldOrFnCall function_call: (IDENTIFIER) @name) @reference.call)
