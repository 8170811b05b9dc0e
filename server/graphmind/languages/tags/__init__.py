"""Tag-level languages: one generic plugin driven by :data:`.specs.TABLE` and ``queries/<lang>/tags.scm``.

A query speaks tree-sitter's tags vocabulary: definitions (``@definition.function``,
``@definition.method``, ``@definition.class``, ``@definition.struct``, ``@definition.interface``,
``@definition.trait``, ``@definition.enum``, ``@definition.namespace``, ``@definition.constructor``,
each with ``@name``) and calls (``@reference.call`` with the called ``@name`` and, for ``x.f()``,
the receiver as ``@receiver``; ``@reference.class`` instead when ``@name`` names a class being
instantiated: ``new Foo()``, ``Foo.new``). Extraction is :mod:`.extract`, resolution :mod:`.resolve`.

Names: the module is the file's path without its extension, '/' -> '.'; a definition's qualified
name is its enclosing definition's plus its own name; a qualified definition name (C++
``Foo::go``, Lua ``M:run``, Elixir ``Demo.Greeter``) contributes all its parts, and its owner
(``Foo``) counts as an enclosing class.

Resolution knows no types or imports beyond what a query declares (a C ``#include``, a declared
receiver type: :mod:`.extract`), so every rule is stated with its label:
  * ``extracted`` -- a definition in the caller's own file: for a bare or self/this call the one in
    the innermost enclosing class that has it, else (bare calls) the file's top-level one; for
    ``Foo.f()`` / ``Foo::f()`` / ``new Foo`` the one in the file's class ``Foo``;
  * ``inferred`` -- otherwise, the workspace (same language) has exactly one definition of the name
    (for ``Mod.f()``, ``mod:f()``: one in a module or class named ``Mod``, if any is),
    unless the call has a receiver and the name is a builtin method name (``Spec.builtin_methods``:
    ``x.get()`` is as likely a map's): then ``ambiguous``;
  * ``ambiguous`` -- it has 2..MAX_AMBIGUOUS (an edge to each); none or more -> unresolved.
A bare call's candidates narrow to those of the files the caller ``#include``s, if any; a call on a
receiver declared with a type (``h: TestHelper``) narrows to that type's own definitions of the name
and, found there, is no standard-library-name guess.
The labels come from the shared policy (:mod:`.._toolkit.labels`).
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import Facts, Resolution, WorkspaceView
from .. import Language, _query, extensions_of, register
from .extract import extract
from .resolve import resolve
from .specs import FOREIGN_PROBE, TABLE, Spec


class TagLanguage(Language):
    """A language resolved by name only (see the module docstring for the rules)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = spec.name
        self.grammar = spec.grammar
        self.extensions = extensions_of(spec.name)
        self.lsp_ids = spec.lsp_ids

    def query(self) -> ts.Query:
        return _query(self.spec.queries or self.name, self.grammar)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract(self.spec, self.query(), tree, src, module, relpath)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve(self.spec, facts, ws)

    def skip_reason(self, text: bytes) -> str | None:
        """A file of another format under this language's extension (``Spec.foreign``) is skipped."""
        head = text[:FOREIGN_PROBE]
        for f in self.spec.foreign:
            if f.pattern.search(head):
                return f"{f.what}, not {self.name} code"
        return super().skip_reason(text)


for _spec in TABLE:
    register(TagLanguage(_spec))
