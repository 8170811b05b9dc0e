; PHP: what the extractor needs from the syntax tree (server/graphmind/languages/php/extract.py).
; Capture names follow tree-sitter's tags vocabulary where one exists; the symbol's kind comes from
; the node's type (trait_declaration -> trait, a method named __construct -> constructor, ...).

(namespace_definition) @namespace
(namespace_use_declaration) @import

; type and member declarations
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method
(function_definition name: (name) @name) @definition.function
(property_declaration) @field
(use_declaration) @trait.use

; call sites: functions, methods ($x->m(), $x?->m()), static and scoped calls (Foo::m(),
; self::m(), parent::m()), instantiations (new Foo)
(function_call_expression function: (_) @name) @reference.call
(member_call_expression name: (name) @name) @reference.call
(nullsafe_member_call_expression name: (name) @name) @reference.call
(scoped_call_expression name: (name) @name) @reference.call
(object_creation_expression) @reference.class

; local names and their types: parameters, assignments, catch clauses, @var comments, and where an
; instanceof check narrows one
(simple_parameter) @param
(property_promotion_parameter) @param
(variadic_parameter) @param
(assignment_expression left: (variable_name) right: (_)) @local
(assignment_expression left: [(member_access_expression) (scoped_property_access_expression)] right: (_)) @assign.prop
(catch_clause) @catch
(foreach_statement) @foreach
(binary_expression operator: "instanceof" right: [(name) (qualified_name)]) @instanceof
(comment) @doc

; what a function without a declared return type returns (new Foo, $this, a local assigned new Foo)
(return_statement) @return
