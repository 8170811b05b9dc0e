; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Elixir: defmodule/defprotocol, def/defp/defmacro (heads with or without guards); local and remote calls.

(call target: (identifier) @_kw (#any-of? @_kw "defmodule" "defprotocol") (arguments . (alias) @name)) @definition.namespace
; `defimpl Inspect, for: T`: its functions implement the protocol for T, reached through the protocol
(call target: (identifier) @_kw (#eq? @_kw "defimpl") (arguments . (alias) @name)) @definition.class
(call target: (identifier) @_kw (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate")
  (arguments . [(call target: (identifier) @name) (identifier) @name (binary_operator left: (call target: (identifier) @name))])) @definition.function

(call target: (identifier) @name) @reference.call
; Mod.f and Mod.f(): a remote call; var.f() with parentheses (var.f without them reads a map's field)
(call target: (dot left: (alias) @receiver right: (identifier) @name)) @reference.call
(call target: (dot left: (_) @receiver right: (identifier) @name) (arguments)) @reference.call
; typespecs name functions without calling them
(unary_operator operator: "@" operand: (call target: (identifier) @_attr
  (#any-of? @_attr "spec" "type" "typep" "opaque" "callback" "macrocallback"))) @ignore
