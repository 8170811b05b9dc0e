; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; CUDA (C++ with kernels): functions, classes, structs, namespaces, methods; calls f(), x.f(), p->f(), kernel<<<...>>>().

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(namespace_definition name: (namespace_identifier) @name) @definition.namespace

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; `#include "x.h"`: a bare call prefers the definitions of the file it names; `#define F G`: F() is G()
(preproc_include path: (string_literal (string_content) @include))
(preproc_def name: (identifier) @alias.name value: (preproc_arg) @alias.target)
