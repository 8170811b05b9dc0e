; C for server/graphmind/languages/cfamily/: each pattern captures one node the extractor reads whole
; (one capture name per pattern; the extractor nests them by byte range and reads their fields).
; The same capture names as queries/cpp (C's grammar has no namespaces, classes, new or using).

(struct_specifier name: (_) body: (_)) @class
(union_specifier name: (_) body: (_)) @class
(function_definition) @function
(field_declaration) @field
(declaration) @declaration
(parameter_declaration) @param
(call_expression) @call
(preproc_include) @include
(type_definition) @typedef
(preproc_function_def) @macro
(preproc_def) @macro
(assignment_expression) @assign
(initializer_pair) @assign
(pointer_expression) @address
(argument_list (identifier) @value)
(initializer_list (identifier) @value)
