; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; F#: let-bound functions, types, modules and members; applications f x, M.f x, obj.M().

(function_or_value_defn (function_declaration_left . (identifier) @name)) @definition.function
(type_definition (_ (type_name type_name: (identifier) @name))) @definition.class
(module_defn (identifier) @name) @definition.namespace
(member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.method
(member_defn (method_or_prop_defn name: (property_or_ident . (identifier) @name .))) @definition.method

(application_expression . (long_identifier_or_op (identifier) @name)) @reference.call
(application_expression . (long_identifier_or_op (long_identifier (identifier) @receiver . (identifier) @name .))) @reference.call
