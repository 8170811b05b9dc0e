"""The tag-level languages: one :class:`Spec` each (grammar, LSP ids, and the
few words the generic rules need: receivers that mean "this object", constructor names, keywords
that parse as calls, builtin method names)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Spec:
    name: str
    grammar: str
    lsp_ids: tuple[str, ...]
    self_names: frozenset[str] = frozenset()  # receivers meaning "this object/class"
    ctor_names: tuple[str, ...] = ()  # constructor method names; "<class>": named like the class
    ignore: frozenset[str] = frozenset()  # callee names that are keywords/special forms, not calls
    # method names of the language's standard library beyond the shared list
    # (``_toolkit.COMMON_METHOD_NAMES``): ``x.f()`` with one workspace ``f`` of such a name is
    # ambiguous, not inferred (the receiver is as likely a string or a list)
    builtin_methods: frozenset[str] = frozenset()


_ELIXIR_FORMS = frozenset(
    {"def", "defp", "defmodule", "defmacro", "defmacrop", "defstruct", "defprotocol", "defimpl", "defguard",
     "defguardp", "defdelegate", "defexception", "defoverridable", "if", "unless", "case", "cond", "with", "for",
     "fn", "quote", "unquote", "import", "alias", "require", "use", "receive", "try", "raise", "super"}
)

TABLE: tuple[Spec, ...] = (
    Spec("swift", "swift", ("swift",), frozenset({"self", "super", "Self"}), ("init",)),
    Spec("scala", "scala", ("scala",), frozenset({"this", "super"})),
    Spec("lua", "lua", ("lua",), frozenset({"self"})),
    Spec("bash", "bash", ("shellscript", "bash", "sh")),
    Spec("elixir", "elixir", ("elixir",), frozenset({"__MODULE__"}), (), _ELIXIR_FORMS),
    Spec("perl", "perl", ("perl",), frozenset({"$self", "$class", "__PACKAGE__"}), ("new",)),
    Spec("r", "r", ("r",)),
    Spec("julia", "julia", ("julia",)),
    Spec("zig", "zig", ("zig",), frozenset({"self", "@This()"})),
)
