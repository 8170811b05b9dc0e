; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; C++: classes, structs, namespaces, functions and methods (in-class or `Foo::go` out of class).

(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(namespace_definition name: (namespace_identifier) @name) @definition.namespace

(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name)) @definition.function
(function_definition declarator: (_ (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name))) @definition.function
(function_definition declarator: (_ (_ (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name)))) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: (qualified_identifier scope: (_) @receiver name: (identifier) @name))) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (template_method name: (field_identifier) @name))) @reference.call
(new_expression type: (type_identifier) @name) @reference.class
(new_expression type: (qualified_identifier name: (type_identifier) @name)) @reference.class
