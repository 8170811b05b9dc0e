; Tag-level queries for server/graphmind/languages/tags/ in tree-sitter's tags vocabulary: @definition.<kind> with @name;
; @reference.call (a call) or @reference.class (an instantiation: new Foo, Foo.new) with the called @name (+ @receiver).
; Elixir: defmodule/defprotocol, def/defp/defmacro (heads with or without guards); local and remote calls.

(call target: (identifier) @_kw (#any-of? @_kw "defmodule" "defprotocol") (arguments . (alias) @name)) @definition.namespace
(call target: (identifier) @_kw (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate")
  (arguments . [(call target: (identifier) @name) (identifier) @name (binary_operator left: (call target: (identifier) @name))])) @definition.function

(call target: (identifier) @name) @reference.call
(call target: (dot left: (_) @receiver right: (identifier) @name)) @reference.call
