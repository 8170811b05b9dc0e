"""Counts that never read as safe: besides the callers the graph knows (edges at ``inferred`` or
above), the callers it may have missed: callers over ``ambiguous`` edges only ("possible") and
unresolved call sites with the symbol's name, and the callers that reach it only through a call
written to another definition (:data:`graphmind.model.INDIRECT_VIAS`: a method it overrides or
implements, "via dispatch"; its class, for an initializer, "via construction"). A lens reads
"0 callers" only when nothing in the graph could call the symbol."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from .. import languages
from ..model import INFERRED, Via
from ..store import Reads
from ..store.reads import first_unresolved
from .records import BlastResult, Call, Site, Sym, UnresolvedCall
from .source import Source


class CallerCounts(NamedTuple):
    known: int  # distinct callers over edges at ``inferred`` or above
    possible: int  # distinct callers over ``ambiguous`` edges only
    unresolved: int  # unresolved call sites named like the symbol
    # distinct callers through an indirect edge only, by its ``via`` kind (dispatch, construct)
    indirect: tuple[tuple[str, int], ...] = ()

    @property
    def maybe(self) -> int:
        """What may call the symbol besides the known callers (possible callers + unresolved sites)."""
        return self.possible + self.unresolved


def indirect_counts(every: list[Call], listed: list[Call]) -> dict[str, int]:
    """Of the neighbours an answer with the indirect edges has (``every``), how many the answer
    without them (``listed``) leaves out, by the ``via`` kind that reaches them."""
    shown = {c.symbol.id for c in listed}
    return dict(Counter(c.via.kind for c in every if c.symbol.id not in shown and c.via is not None and c.via.indirect))


def _indirect_callers(reads: Reads, ids: list[int]) -> dict[int, tuple[tuple[str, int], ...]]:
    """The callers of each symbol over indirect edges only, counted by ``via`` kind (one read of
    the call edges into them)."""
    if not ids:
        return {}
    direct: dict[int, set[int]] = {}
    by_kind: dict[int, dict[str, set[int]]] = {}
    # (callee, caller, confidence, file id, site, via): the edges into ``ids``, whoever calls
    for callee, caller, _conf, _fid, _sid, via in reads.call_edges_from(ids, INFERRED, incoming=False):
        v = Via.decode(via)
        if v is not None and v.indirect:
            by_kind.setdefault(callee, {}).setdefault(v.kind, set()).add(caller)
        else:
            direct.setdefault(callee, set()).add(caller)
    return {
        sid: tuple((k, n) for k, callers in sorted(kinds.items()) if (n := len(callers - direct.get(sid, set()))))
        for sid, kinds in by_kind.items()
    }


def caller_counts(reads: Reads, syms: list[Sym]) -> dict[int, CallerCounts]:
    """Direct caller counts of each symbol, for code lenses."""
    if not syms:
        return {}
    ids = [s.id for s in syms]
    known = reads.caller_counts(ids, INFERRED, dispatch=False)
    every = reads.caller_counts(ids, INFERRED)  # the direct callers and the indirect ones
    possible = reads.possible_caller_counts(ids, INFERRED)
    # the few symbols with indirect callers are read again, for the kinds
    indirect = _indirect_callers(reads, [i for i in ids if every.get(i, 0) > known.get(i, 0)])
    out: dict[int, CallerCounts] = {}
    for langs in {languages.family_of(s.lang) for s in syms}:  # calls from files of the symbol's family only
        mine = [s for s in syms if languages.family_of(s.lang) == langs]
        by_name = reads.unresolved_call_counts(sorted({s.name for s in mine if s.kind != "module"}), list(langs))
        for s in mine:
            unresolved = 0 if s.kind == "module" else by_name.get(s.name, 0)
            out[s.id] = CallerCounts(known.get(s.id, 0), possible.get(s.id, 0), unresolved, indirect.get(s.id, ()))
    return out


def unresolved_calls(reads: Reads, source: Source, result: BlastResult, incoming: bool, limit: int) -> list[UnresolvedCall]:
    """The unresolved call sites the answer's ``unresolved_sites`` counts: named like a symbol it
    reaches (incoming), or inside one (outgoing); the first ``limit``, those named like a target
    (or inside one) first, then by path and position."""
    if limit <= 0 or result.unresolved_sites == 0:  # (counted over the same scope: none to list)
        return []
    if result.unresolved_found is not None:  # read with the count
        first = sorted({t.name for t in result.targets}) if incoming else None
        rows = first_unresolved(result.unresolved_found, limit, first)
    elif incoming:
        names = sorted({s.name for s in result.scope if s.kind != "module"})
        langs = sorted({lang for s in result.scope for lang in languages.family_of(s.lang)})
        rows = reads.unresolved_call_sites(names, None, limit, langs, first=sorted({t.name for t in result.targets}))
    else:
        rows = reads.unresolved_call_sites(None, [s.id for s in result.scope], limit)
    out: list[UnresolvedCall] = []
    for *site_row, caller in rows:
        site = Site.of(tuple(site_row))
        out.append(UnresolvedCall(site, caller, source.line(site.path, site.range[0])))
    return out
