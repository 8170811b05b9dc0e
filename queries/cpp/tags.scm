; C++ for server/graphmind/languages/cfamily/: each pattern captures one node the extractor reads whole
; (one capture name per pattern; the extractor nests them by byte range and reads their fields).

(namespace_definition) @namespace
(class_specifier name: (_) body: (_)) @class
(struct_specifier name: (_) body: (_)) @class
(union_specifier name: (_) body: (_)) @class
(function_definition) @function
(field_declaration) @field
(declaration) @declaration
(parameter_declaration) @param
(optional_parameter_declaration) @param
(call_expression) @call
(new_expression) @new
(preproc_include) @include
(type_definition) @typedef
(alias_declaration) @typedef
(preproc_function_def) @macro
(preproc_def) @macro
(using_declaration) @using
(assignment_expression) @assign
(initializer_pair) @assign
(pointer_expression) @address
(argument_list (identifier) @value)
(initializer_list (identifier) @value)
