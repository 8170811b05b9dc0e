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
; type aliases of object types (and intersections with them) are interfaces by another name: their
; members are symbols, their named parts bases (`type I = Required<Options> & {retry: R}`)
(type_alias_declaration value: [(object_type) (intersection_type)]) @definition.interface
; type aliases of unions: a value of one is of either named part (Extractor.open_scope)
(type_alias_declaration value: (union_type)) @definition.interface
; a type alias of a function type: a type with that call signature (`type $Parse = <T>(schema: T) => R`)
(type_alias_declaration value: (function_type)) @definition.interface
(type_alias_declaration value: (object_type (method_signature) @definition.method))
(type_alias_declaration value: (object_type (property_signature) @field))
(type_alias_declaration value: (intersection_type (object_type (method_signature) @definition.method)))
(type_alias_declaration value: (intersection_type (object_type (property_signature) @field)))
; call signatures: what a call of a value of the type takes (`<T>(url: Input, options?: Options): R`)
(interface_body (call_signature) @call.signature)
(type_alias_declaration value: (object_type (call_signature) @call.signature))
