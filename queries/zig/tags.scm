; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Zig: functions, struct/enum/union containers bound to names; calls f(), x.f(), Type.f().

(Decl (FnProto function: (IDENTIFIER) @name)) @def.function
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name (ErrorUnionExpr (SuffixExpr (ContainerDecl))))) @def.struct

(SuffixExpr . variable_type_function: (IDENTIFIER) @callee . (FnCallArguments)) @call
(SuffixExpr (_) @receiver . (FieldOrFnCall function_call: (IDENTIFIER) @callee) @call)
