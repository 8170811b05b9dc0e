; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Pony: actors, classes, primitives, structs, traits, interfaces; methods (fun), behaviours (be),
; constructors (new); calls f(), x.f(), f[A](), x.f[A](), and the calls of a `.>` chain.
; A definition's name is its first identifier child: a capability (`class val String`, `fun ref f`)
; or an annotation (`class \nodoc\ _Test`) may come before it.

(actor_definition (identifier) @name) @definition.class
(class_definition (identifier) @name) @definition.class
(primitive_definition (identifier) @name) @definition.class
(struct_definition (identifier) @name) @definition.struct
(trait_definition (identifier) @name) @definition.trait
(interface_definition (identifier) @name) @definition.interface
(method (identifier) @name) @definition.method
(behavior (identifier) @name) @definition.method
(constructor (identifier) @name) @definition.constructor
; a constructor without parameters: `Foo(x)` then means `Foo.create().apply(x)`
(constructor (identifier) @name (parameters) @nullary (#match? @nullary "^[(][ \t]*[)]$")) @definition.constructor

; `Foo(x).f()`: a type's name (capitalised) called is an instance of it
(call_expression callee: (member_expression . (call_expression callee: (identifier) @receiver) . (identifier) @name .)
  (#match? @receiver "^_?[A-Z]")) @reference.call
(call_expression callee: (identifier) @name) @reference.call
(call_expression callee: (member_expression . (_) @receiver . (identifier) @name .)) @reference.call
(call_expression callee: (generic_expression . (identifier) @name)) @reference.call
(call_expression callee: (member_expression . (_) @receiver . (generic_expression . (identifier) @name) .)) @reference.call
; `x .> f() .> g()` calls f and g on x (the grammar nests the chain to the right: the calls after the
; first have the call before them as receiver here, a receiver all the same, never `this`)
(chain_expression . (_) @receiver . (call_expression callee: (identifier) @name) @reference.call)
(chain_expression . (_) @receiver . (chain_expression . (call_expression callee: (identifier) @name) @reference.call))

; a name's declared type: a parameter's, a field's, a local's (`h: TestHelper`, `let _got: Array[String]`,
; `var y: String val`), or the type a local is created from (`let mt = MT`, `let r = Reader(x)`)
(parameter name: (identifier) @typed.name [(base_type name: (identifier) @typed.type)
  (_ . (base_type name: (identifier) @typed.type) .) (_ . (_ . (base_type name: (identifier) @typed.type) .) .)])
(field name: (identifier) @typed.name [(base_type name: (identifier) @typed.type)
  (_ . (base_type name: (identifier) @typed.type) .) (_ . (_ . (base_type name: (identifier) @typed.type) .) .)])
(variable_declaration . (identifier) @typed.name [(base_type name: (identifier) @typed.type)
  (_ . (base_type name: (identifier) @typed.type) .) (_ . (_ . (base_type name: (identifier) @typed.type) .) .)])
(assignment_expression (variable_declaration . (identifier) @typed.name .)
  (block . [(identifier) @typed.type (call_expression callee: (identifier) @typed.type)] .)
  (#match? @typed.type "^_?[A-Z]"))
; a type parameter stands for its constraint (`[A: Flag[B] val]`), or for no known type
(generic_parameter . (identifier) @generic.name)
(generic_parameter . (identifier) @generic.name [(base_type name: (identifier) @generic.bound)
  (_ . (base_type name: (identifier) @generic.bound) .)])
