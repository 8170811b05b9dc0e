; Tag-level queries for server/graphmind/languages/tags.py: @def.<kind> with @name, @call/@ctor with @callee (+ @receiver).
; Elixir: defmodule/defprotocol, def/defp/defmacro (heads with or without guards); local and remote calls.

(call target: (identifier) @_kw (#any-of? @_kw "defmodule" "defprotocol") (arguments . (alias) @name)) @def.namespace
(call target: (identifier) @_kw (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate")
  (arguments . [(call target: (identifier) @name) (identifier) @name (binary_operator left: (call target: (identifier) @name))])) @def.function

(call target: (identifier) @callee) @call
(call target: (dot left: (_) @receiver right: (identifier) @callee)) @call
