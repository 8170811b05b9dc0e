"""The tag-level languages: one :class:`Spec` each (grammar, LSP ids, and the
few words the generic rules need: receivers that mean "this object", constructor names, keywords
that parse as calls, builtin method names)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


class Foreign(NamedTuple):
    """Another format that shares the language's extension: a file whose first
    :data:`FOREIGN_PROBE` bytes match ``pattern`` is that format (``what``), not code."""

    pattern: re.Pattern[bytes]
    what: str


FOREIGN_PROBE = 4096


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
    # a call's receiver always names a module (OCaml ``M.f``, Erlang ``m:f``): when no workspace
    # module of that name defines the callee, the call leaves the workspace (unresolved)
    module_receivers: bool = False
    queries: str = ""  # the folder under queries/ when another language's query fits the grammar
    foreign: tuple[Foreign, ...] = ()  # formats that share the extension (skipped, with a reason)


_ELIXIR_FORMS = frozenset(
    {"def", "defp", "defmodule", "defmacro", "defmacrop", "defstruct", "defprotocol", "defimpl", "defguard",
     "defguardp", "defdelegate", "defexception", "defoverridable", "if", "unless", "case", "cond", "with", "for",
     "fn", "quote", "unquote", "import", "alias", "require", "use", "receive", "try", "raise", "super"}
)

_LISP_FORMS = frozenset(
    {"def", "defn", "defn-", "defmacro", "defmulti", "defmethod", "defprotocol", "defrecord", "deftype", "definterface",
     "defun", "defvar", "defparameter", "defconst", "defcustom", "defgeneric", "defclass", "defstruct", "ns", "in-ns",
     "let", "let*", "letfn", "if", "when", "unless", "cond", "case", "do", "progn", "fn", "lambda", "loop", "recur",
     "quote", "setq", "setf", "and", "or", "not", "require", "provide", "declare", "interactive", "try", "catch",
     "define", "define-syntax", "define-syntax-rule", "define/contract", "local", "var", "set", "each", "macro",
     "global", "λ"}
)
_TCL_COMMANDS = frozenset(
    {"set", "return", "expr", "if", "for", "foreach", "while", "switch", "puts", "incr", "list", "lappend", "lindex",
     "llength", "string", "dict", "array", "global", "variable", "upvar", "namespace", "package", "source", "error",
     "catch", "format", "proc", "eval", "uplevel", "break", "continue"}
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
    Spec("haskell", "haskell", ("haskell",)),
    Spec("ocaml", "ocaml", ("ocaml",), frozenset({"self"}), module_receivers=True),
    Spec("clojure", "clojure", ("clojure",), ignore=_LISP_FORMS),
    Spec("erlang", "erlang", ("erlang",), module_receivers=True),
    Spec("fsharp", "fsharp", ("fsharp",), frozenset({"this"})),
    Spec("objc", "objc", ("objective-c", "objc"), frozenset({"self", "super"}), ("init",)),
    Spec("elisp", "elisp", ("elisp", "emacs-lisp"), ignore=_LISP_FORMS),
    Spec("commonlisp", "commonlisp", ("commonlisp", "lisp"), ignore=_LISP_FORMS),
    Spec("d", "d", ("d",), frozenset({"this", "super"}), ("this",), foreign=(
        # what ``cc -MD`` writes beside objects: ``out/x.o: src/x.c include/y.h \\`` (a D attribute
        # label, ``@safe:``, has no '.' or '/' in it; a comment starts ``//``, ``/*`` or ``/+``)
        Foreign(re.compile(rb"\A\s*(?!/[/*+])[^\s:#@]*[./][^\s:#]*(?:[ \t]+[^\s:#]+)*[ \t]*:(?:\s|$)"), "a make dependency file"),
    )),
    Spec("nim", "nim", ("nim",)),
    Spec("odin", "odin", ("odin",)),
    Spec("gleam", "gleam", ("gleam",)),
    Spec("hack", "hack", ("hack",), frozenset({"$this", "self", "static", "parent"}), ("__construct",)),
    Spec("fortran", "fortran", ("fortran", "FortranFreeForm")),
    Spec("pascal", "pascal", ("pascal", "objectpascal"), frozenset({"Self", "inherited"}), ("Create",)),
    Spec("powershell", "powershell", ("powershell", "ps1"), frozenset({"$this"}), ("<class>",)),
    Spec("cuda", "cuda", ("cuda", "cuda-cpp"), frozenset({"this"}), ("<class>",)),
    Spec("solidity", "solidity", ("solidity",), frozenset({"this", "super"})),
    Spec("tcl", "tcl", ("tcl",), ignore=_TCL_COMMANDS),
    Spec("starlark", "starlark", ("starlark", "bzl")),
    Spec("luau", "luau", ("luau",), frozenset({"self"})),
    Spec("gdscript", "gdscript", ("gdscript",), frozenset({"self"}), ("_init",)),
    Spec("elm", "elm", ("elm",)),
    Spec("purescript", "purescript", ("purescript",)),
    Spec("ada", "ada", ("ada",)),
    Spec("racket", "racket", ("racket",), ignore=_LISP_FORMS),
    Spec("scheme", "scheme", ("scheme",), ignore=_LISP_FORMS, foreign=(
        # ``(call_expression function: (identifier) @name)``, ``(#match? @name "^x")``: Scheme has
        # no '@' after a form (its only '@' is unquote-splicing, ``,@``)
        Foreign(re.compile(rb"[)\]][ \t]*@[A-Za-z_][\w.-]*|\(#(?:not-)?(?:eq|match|any-of|lua-match)\?"), "a tree-sitter query"),
    )),
    Spec("fennel", "fennel", ("fennel",), ignore=_LISP_FORMS),
    Spec("janet", "janet", ("janet",), ignore=_LISP_FORMS),
    Spec("apex", "apex", ("apex",), frozenset({"this", "super"}), ("<class>",), foreign=(
        Foreign(re.compile(rb"\\(?:NeedsTeXFormat|ProvidesClass|LoadClass|DeclareOption)\b"), "a LaTeX class"),
        Foreign(re.compile(rb"(?m)^(?:VERSION \d+\.\d+ CLASS|Attribute VB_)"), "a Visual Basic class module"),
    )),
    Spec("vim", "vim", ("vim", "viml")),
    Spec("squirrel", "squirrel", ("squirrel",), frozenset({"this"}), ("constructor",)),
    Spec("glsl", "glsl", ("glsl",)),
    Spec("hlsl", "hlsl", ("hlsl",), frozenset({"this"}), ("<class>",), queries="cuda"),  # both C++-derived
    Spec("pony", "pony", ("pony",), frozenset({"this"}), ("create",)),
)
