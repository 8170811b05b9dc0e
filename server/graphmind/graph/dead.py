"""Dead code: definitions that no edge reaches, at any confidence, calls and references alike.

Left out, and counted by reason: what runs without a call in the workspace, as each language
knows it (tests, ``main``, dunder methods, decorated callbacks, a package's public API, console
scripts: :meth:`~graphmind.languages.Language.entry_point_reason`, ``test_kind``,
``declared_entry_points``). A definition a call the graph could not bind might reach (an
unresolved call of its name; a method whose name is called elsewhere, which dynamic dispatch
may route to it) is ``uncertain``, with the reason, never listed as dead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .. import languages
from .policy import Classifier, analysis_reads
from .queries import Graph
from .records import Sym

KINDS = ("function", "method", "class", "constructor")


@dataclass(slots=True)
class Uncertain:
    symbol: Sym
    reason: str


@dataclass(slots=True)
class DeadResult:
    prefix: str
    items: list[Sym]
    uncertain: list[Uncertain]
    excluded: dict[str, int]  # reason -> how many definitions were left out for it
    epoch: int


def dead_code(graph: Graph, prefix: str = "") -> DeadResult:
    with analysis_reads(graph) as r:
        epoch = r.epoch()
        rows = [Sym.of(row) for row in r.uncalled_symbols(prefix, KINDS)]
        classes = [s.id for s in rows if s.kind == "class"]
        live_classes = r.children_with_callers(classes)
    rows = [s for s in rows if s.id not in live_classes]
    dead_ids = {s.id for s in rows}
    # a member of a dead class is reported with its class, not again on its own
    rows = [s for s in rows if s.parent_id not in dead_ids or s.kind not in ("method", "constructor")]
    declared: dict[str, str] = {}
    for lang in {languages.for_path(s.path) for s in rows} - {None}:
        declared.update(lang.declared_entry_points(graph.engine.root))  # type: ignore[union-attr]
    cls = Classifier(graph)
    cls.prefetch_parents(rows)
    excluded: Counter[str] = Counter()
    candidates: list[Sym] = []
    for s in rows:
        reason = declared.get(s.qname)
        if reason is None and cls.test_kind(s) is not None:
            reason = "test"
        if reason is None:
            reason = cls.entry_point_reason(s)
        if reason is not None:
            excluded[reason] += 1
        else:
            candidates.append(s)
    with analysis_reads(graph) as r:
        unresolved = r.unresolved_call_counts([s.name for s in candidates])
        dispatched = r.called_names([s.name for s in candidates if s.kind == "method"], ("method",))
    items: list[Sym] = []
    uncertain: list[Uncertain] = []
    for s in candidates:
        n = unresolved.get(s.name, 0)
        if n:
            uncertain.append(Uncertain(s, f"{n} unresolved call site{'s' if n != 1 else ''} named {s.name}"))
        elif s.kind == "method" and s.name in dispatched:
            uncertain.append(Uncertain(s, f"another method named {s.name} is called: dynamic dispatch may reach this one"))
        else:
            items.append(s)
    return DeadResult(prefix, items, uncertain, dict(excluded.most_common()), epoch)
