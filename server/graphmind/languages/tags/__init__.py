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

Beyond the call graph: a C preprocessor's ``#include "x"`` (GLSL, HLSL, CUDA) is an import-graph
edge; dead code leaves out what a language's runtime calls (``Spec.entry_points``, ``Spec.entry_mark``) and
its test frameworks' tests (``Spec.tests``), which ``changes`` lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter as ts

from ...model import Facts, Import, Resolution, WorkspaceView
from .. import Language, SymbolInfo, _query, extensions_of, register
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

    def imports(self, facts: Facts) -> list[Import]:
        """The files a C preprocessor ``#include "x.h"`` names (GLSL, HLSL, CUDA: the ``@include``
        of their queries), for the import graph; no other tag-level import names a file."""
        return [Import(m, ((m, None),)) for m in (facts.local or {}).get("includes", [])]

    def test_kind(self, sym: SymbolInfo) -> str | None:
        """The framework of the first of the language's test rules (``Spec.tests``) ``sym`` matches."""
        if sym.kind not in ("function", "method") or not self.spec.tests:
            return None
        for rule in self.spec.tests:
            if ((rule.name is None or rule.name.search(sym.name))
                    and (rule.path is None or rule.path.search(sym.path))
                    and (rule.header is None or rule.header.search("\n".join(_header(sym))))
                    and (rule.file is None or any(rule.file.search(line) for line in sym.lines))):  # last: the costliest
                return rule.kind
        return None

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        """A definition the runtime calls (``Spec.entry_points``: by name, or ``Owner.name``), or
        one whose header carries the language's mark (``Spec.entry_mark``): the name or the mark."""
        spec = self.spec
        if sym.kind != "class" and (sym.name in spec.entry_points or f"{sym.parent_name}.{sym.name}" in spec.entry_points):
            return sym.name if sym.name in spec.entry_points else f"{sym.parent_name}.{sym.name}"
        if spec.entry_mark is not None:
            m = spec.entry_mark.search("\n".join(_header(sym)))
            if m is not None:
                return m.group(0).strip(" \t()[]<>:")
        return None

    def skip_reason(self, text: bytes) -> str | None:
        """A file of another format under this language's extension (``Spec.foreign``) is skipped."""
        head = text[:FOREIGN_PROBE]
        for f in self.spec.foreign:
            if f.pattern.search(head):
                return f"{f.what}, not {self.name} code"
        return super().skip_reason(text)


# a definition's header: the attribute lines right above it, its lines to its name, then on to the
# line that opens its body (a modifier after the parameters: Solidity's `external`, HLSL's semantic)
_ATTRIBUTE_LINE = re.compile(r"^\s*(?:@|\[<|\[|<<|#\[)")
_HEADER_LINES = 6


def _header(sym: SymbolInfo) -> list[str]:
    above: list[str] = []
    n = sym.start_line - 1
    while n >= 0 and len(above) < _HEADER_LINES and _ATTRIBUTE_LINE.match(sym.line(n)):
        above.insert(0, sym.line(n))
        n -= 1
    lines = above + sym.head()
    n = max(sym.start_line, sym.name_line)
    while "{" not in lines[-1] and n < min(sym.end_line, sym.name_line + _HEADER_LINES):
        n += 1
        lines.append(sym.line(n))
    return lines


for _spec in TABLE:
    register(TagLanguage(_spec))
