; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; GLSL (C-like shaders): functions and structs; calls f(x) (a constructor such as vec3(...) is one too).

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; `#include "x.h"`: a bare call prefers the definitions of the file it names; `#define F G`: F() is G()
(preproc_include path: (string_literal (string_content) @include))
(preproc_def name: (identifier) @alias.name value: (preproc_arg) @alias.target)
