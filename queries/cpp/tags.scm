; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; C++: classes, structs, namespaces, functions and methods (in-class or `Foo::go` out of class).

(class_specifier name: (type_identifier) @name body: (_)) @def.class
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(namespace_definition name: (namespace_identifier) @name) @def.namespace

(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name)) @def.function
(function_definition declarator: (_ (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name))) @def.function
(function_definition declarator: (_ (_ (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name)))) @def.function

(call_expression function: (identifier) @callee) @call
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @callee)) @call
(call_expression function: (qualified_identifier name: (qualified_identifier scope: (_) @receiver name: (identifier) @callee))) @call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @callee)) @call
(call_expression function: (template_function name: (identifier) @callee)) @call
(call_expression function: (field_expression argument: (_) @receiver field: (template_method name: (field_identifier) @callee))) @call
(new_expression type: (type_identifier) @callee) @ctor
(new_expression type: (qualified_identifier name: (type_identifier) @callee)) @ctor
