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
    declared: dict[str, str] = {}
    for lang in {languages.for_path(s.path) for s in rows} - {None}:
        declared.update(lang.declared_entry_points(graph.engine.root))  # type: ignore[union-attr]
    cls = Classifier(graph)
    cls.prefetch_parents(rows)
    reasons: dict[int, str | None] = {}
    for s in rows:
        reason = declared.get(s.qname)
        if reason is None and cls.test_kind(s) is not None:
            reason = "test"
        reasons[s.id] = reason if reason is not None else cls.entry_point_reason(s)
    # a class nothing instantiates runs all the same when a member does (a test class, a class
    # with a dunder method or a decorated callback): it is left out with them
    for s in rows:
        if reasons[s.id] is None and s.kind == "class":
            held = sorted({r for m in rows if m.parent_id == s.id and (r := reasons[m.id]) is not None})
            if held:
                reasons[s.id] = "class of " + ("tests" if held == ["test"] else "entry points")
    excluded: Counter[str] = Counter(r for r in reasons.values() if r is not None)
    dead_ids = {s.id for s in rows if reasons[s.id] is None}
    # a member of a dead class is reported with its class, not again on its own
    candidates = [
        s for s in rows
        if reasons[s.id] is None and not (s.parent_id in dead_ids and s.kind in ("method", "constructor"))
    ]
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
