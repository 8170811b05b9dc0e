; TypeScript and TSX only: the node types JavaScript's grammar lacks.
(abstract_class_declaration) @definition.class
(interface_declaration) @definition.interface
(internal_module) @definition.module
; bodiless members (no scope): interface methods, abstract methods
(interface_body (method_signature) @definition.method)
(class_body (abstract_method_signature) @definition.method)
; class fields with their type evidence
(public_field_definition) @field
; interface members that are not methods: typed fields, and function-typed properties (methods)
(interface_body (property_signature) @field)
; an object literal returned with a type assertion (`return {...} as Api`)
(return_statement [(as_expression (object) @scope.object) (satisfies_expression (object) @scope.object)])
