"""Questions the engine answers, as SQL over the store: symbols, callers, callees, references,
definitions and the blast radius."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .engine import Engine
from .model import AMBIGUOUS, CONFIDENCE_LEVELS, CONFIDENCE_NAMES, EXTRACTED, INFERRED

Range = tuple[int, int, int, int]

_SYM_COLS = (
    "s.id, s.qname, s.name, s.kind, f.path, s.sl, s.sc, s.el, s.ec, s.nsl, s.nsc, s.nel, s.nec, "
    "s.signature, s.lang, s.parent_id"
)


@dataclass(frozen=True, slots=True)
class Sym:
    id: int
    qname: str
    name: str
    kind: str
    path: str
    range: Range
    selection: Range
    signature: str
    lang: str
    parent_id: int | None

    @staticmethod
    def of(row: tuple) -> Sym:
        return Sym(row[0], row[1], row[2], row[3], row[4], tuple(row[5:9]), tuple(row[9:13]), row[13] or "", row[14], row[15])  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Site:
    path: str
    range: Range
    caller_id: int
    name: str
    kind: str


@dataclass(slots=True)
class Call:
    """One neighbour in the call graph and the sites of the calls between the two."""

    symbol: Sym
    confidence: int
    sites: list[Site] = field(default_factory=list)


@dataclass(slots=True)
class BlastItem:
    symbol: Sym
    depth: int
    confidence: int
    chain: list[str]
    sites: list[Site]


@dataclass(slots=True)
class BlastResult:
    targets: list[Sym]
    items: list[BlastItem]
    total: int
    truncated: bool
    complete: bool
    unresolved_sites: int
    epoch: int

    def to_json(self) -> dict[str, Any]:
        def sym(s: Sym) -> dict[str, Any]:
            return {
                "qualifiedName": s.qname, "name": s.name, "kind": s.kind, "path": s.path,
                "startLine": s.range[0] + 1, "endLine": s.range[2] + 1, "signature": s.signature,
            }

        return {
            "targets": [sym(t) for t in self.targets],
            "items": [
                {
                    **sym(i.symbol), "depth": i.depth, "confidence": CONFIDENCE_NAMES[i.confidence], "chain": i.chain,
                    "callSites": [{"path": s.path, "line": s.range[0] + 1} for s in i.sites],
                }
                for i in self.items
            ],
            "total": self.total,
            "truncated": self.truncated,
            "complete": self.complete,
            "unresolvedSites": self.unresolved_sites,
            "epoch": self.epoch,
        }


def confidence_level(name: str | int) -> int:
    if isinstance(name, int):
        return name
    try:
        return CONFIDENCE_LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown confidence {name!r} (expected extracted, inferred or ambiguous)") from None


class Graph:
    """Read-only queries. Every method takes the engine lock, so answers never see half an update."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _q(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        with self.engine.lock:
            return self.engine.db.execute(sql, params).fetchall()

    def _syms(self, where: str, params: tuple | list = ()) -> list[Sym]:
        rows = self._q(f"SELECT {_SYM_COLS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where}", params)
        return [Sym.of(r) for r in rows]

    # ------------------------------------------------------------------ symbols
    def symbol(self, sid: int) -> Sym | None:
        got = self._syms("s.id = ?", (sid,))
        return got[0] if got else None

    def symbols_by_qname(self, qname: str) -> list[Sym]:
        return self._syms("s.qname = ? ORDER BY f.path, s.sl", (qname,))

    def find(self, spec: str) -> list[Sym]:
        """A symbol by qualified name, ``path:LINE``, short name, or a dotted suffix of a qualified name."""
        spec = spec.strip()
        m = re.fullmatch(r"(.+):(\d+)", spec)
        if m:
            try:
                rel = self.engine.relpath(m.group(1))
            except ValueError:
                return []
            s = self.enclosing(rel, int(m.group(2)) - 1)
            return [s] if s is not None else []
        got = self.symbols_by_qname(spec)
        if got:
            return got
        got = self._syms("s.name = ? AND s.kind != 'module' ORDER BY s.qname, f.path", (spec,))
        if got:
            return got
        if "." in spec:
            return self._syms("s.qname LIKE ? ESCAPE '\\' ORDER BY s.qname", ("%." + _like_escape(spec),))
        return []

    def close_matches(self, spec: str, n: int = 5) -> list[str]:
        name = spec.rsplit(".", 1)[-1].split(":")[0]
        names = [r[0] for r in self._q("SELECT DISTINCT name FROM symbols WHERE kind != 'module'")]
        close = difflib.get_close_matches(name, names, n=n, cutoff=0.6)
        out: list[str] = []
        for c in close:
            out.extend(r[0] for r in self._q("SELECT qname FROM symbols WHERE name = ? ORDER BY qname LIMIT 3", (c,)))
        return out[:n]

    def search(self, query: str, limit: int = 200) -> list[Sym]:
        """Workspace symbol search: prefix and substring matches on names, best first."""
        if not query:
            return self._syms("s.kind != 'module' ORDER BY s.name LIMIT ?", (limit,))
        esc = _like_escape(query)
        rows = self._syms(
            "s.kind != 'module' AND (s.name LIKE ? ESCAPE '\\' OR s.qname LIKE ? ESCAPE '\\') "
            "ORDER BY (s.name = ?) DESC, (s.name LIKE ? ESCAPE '\\') DESC, length(s.name), s.qname LIMIT ?",
            (f"%{esc}%", f"%{esc}%", query, f"{esc}%", limit),
        )
        return rows

    def file_symbols(self, rel: str) -> list[Sym]:
        return self._syms("f.path = ? ORDER BY s.sl, s.sc", (rel,))

    def enclosing(self, rel: str, line: int, col: int | None = None) -> Sym | None:
        """The innermost definition containing the position (the module when nothing else does)."""
        rows = self._syms("f.path = ? AND s.sl <= ? AND s.el >= ? ORDER BY s.sl DESC, s.sc DESC", (rel, line, line))
        for s in rows:
            if col is None or _contains(s.range, line, col):
                return s
        return None

    def symbol_at(self, rel: str, line: int, col: int) -> Sym | None:
        """A definition whose name is at the position."""
        for s in self._syms("f.path = ? AND s.nsl = ?", (rel, line)):
            if _contains(s.selection, line, col, inclusive_end=True):
                return s
        return None

    def site_at(self, rel: str, line: int, col: int) -> tuple[Site, list[tuple[Sym, int]]] | None:
        """The call site or reference at the position and the symbols it resolves to."""
        rows = self._q(
            "SELECT st.file_id, st.sid, st.caller_id, st.name, st.kind, st.sl, st.sc, st.el, st.ec FROM sites st "
            "JOIN files f ON f.id = st.file_id WHERE f.path = ? AND st.sl <= ? AND st.el >= ?",
            (rel, line, line),
        )
        for fid, idx, caller, name, kind, *rng in rows:
            if _contains(tuple(rng), line, col, inclusive_end=True):  # type: ignore[arg-type]
                targets = self._q("SELECT callee_id, confidence FROM edges WHERE file_id = ? AND sid = ?", (fid, idx))
                out = [(s, c) for t, c in targets if (s := self.symbol(t)) is not None]
                return Site(rel, tuple(rng), caller, name, kind), out  # type: ignore[arg-type]
        return None

    def resolve_position(self, rel: str, line: int, col: int) -> list[Sym]:
        """What a cursor names: a definition's name, a call site's targets, else the enclosing function."""
        s = self.symbol_at(rel, line, col)
        if s is not None:
            return [s]
        hit = self.site_at(rel, line, col)
        if hit is not None and hit[1]:
            best = max(c for _, c in hit[1])
            return [s for s, c in hit[1] if c == best]
        e = self.enclosing(rel, line, col)
        return [e] if e is not None and e.kind != "module" else []

    # ------------------------------------------------------------------ neighbours
    def _neighbours(self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int) -> list[Call]:
        mine, other = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        rows = self._q(
            f"SELECT e.{other}, e.confidence, f.path, st.sl, st.sc, st.el, st.ec, st.caller_id, st.name, st.kind "
            f"FROM edges e JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid "
            f"JOIN files f ON f.id = e.file_id "
            f"WHERE e.{mine} = ? AND e.kind IN ({','.join('?' * len(kinds))}) AND e.confidence >= ? "
            f"ORDER BY f.path, st.sl, st.sc",
            (sid, *kinds, min_conf),
        )
        calls: dict[int, Call] = {}
        syms = {x.id: x for x in self._syms_by_ids(sorted({r[0] for r in rows}))}
        for other_id, conf, path, sl, sc, el, ec, caller, name, kind in rows:
            c = calls.get(other_id)
            if c is None:
                sym = syms.get(other_id)
                if sym is None:
                    continue
                c = calls[other_id] = Call(sym, conf)
            c.confidence = max(c.confidence, conf)
            c.sites.append(Site(path, (sl, sc, el, ec), caller, name, kind))
        return sorted(calls.values(), key=lambda c: (c.symbol.path, c.symbol.range[0], c.symbol.qname))

    def callers(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        return self._neighbours(sid, True, ("call",), min_conf)

    def callees(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        return self._neighbours(sid, False, ("call",), min_conf)

    def caller_counts(self, ids: list[int], min_conf: int = INFERRED) -> dict[int, int]:
        """Number of distinct callers of each symbol (for code lenses)."""
        if not ids:
            return {}
        return dict(
            self._q(
                "SELECT callee_id, count(DISTINCT caller_id) FROM edges WHERE kind = 'call' AND confidence >= ? "
                "AND callee_id IN (SELECT value FROM json_each(?)) GROUP BY callee_id",
                (min_conf, json.dumps(ids)),
            )
        )

    def references(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        """Calls plus non-call uses (callbacks, decorators, imports) of a symbol."""
        return self._neighbours(sid, True, ("call", "ref"), min_conf)

    # ------------------------------------------------------------------ blast radius
    def blast_radius(
        self,
        targets: list[Sym],
        depth: int = 3,
        direction: str = "incoming",
        min_confidence: str | int = "inferred",
        limit: int = 500,
    ) -> BlastResult:
        """Every caller (or callee) within ``depth`` hops: a cycle-safe recursive CTE over the edges,
        then each node's best path (its weakest edge is its confidence) and call sites."""
        if direction not in ("incoming", "outgoing"):
            raise ValueError(f"direction must be 'incoming' or 'outgoing', not {direction!r}")
        min_conf = confidence_level(min_confidence)
        depth = max(0, int(depth))
        incoming = direction == "incoming"
        near, far = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        target_ids = [t.id for t in targets]
        with self.engine.lock:
            db = self.engine.db
            reach = db.execute(
                f"""
                WITH RECURSIVE reach(node, depth) AS (
                    SELECT value, 0 FROM json_each(?)
                    UNION
                    SELECT e.{far}, r.depth + 1 FROM reach r JOIN edges e ON e.{near} = r.node
                    WHERE r.depth < ? AND e.kind = 'call' AND e.confidence >= ?
                )
                SELECT node, MIN(depth) FROM reach GROUP BY node
                """,
                (json.dumps(target_ids), depth, min_conf),
            ).fetchall()
            level: dict[int, int] = {n: d for n, d in reach}
            for t in target_ids:
                level[t] = 0
            nodes = list(level)
            # the edges between consecutive levels decide each node's best path
            edges = db.execute(
                f"""
                SELECT e.{far}, e.{near}, e.confidence, e.file_id, e.sid FROM edges e
                WHERE e.{far} IN (SELECT value FROM json_each(?)) AND e.kind = 'call' AND e.confidence >= ?
                """,
                (json.dumps(nodes), min_conf),
            ).fetchall()
            epoch = self.engine.store.epoch()
        best: dict[int, tuple[int, int]] = {t: (EXTRACTED + 1, 0) for t in target_ids}  # node -> (conf, parent)
        by_node: dict[int, list[tuple[int, int, int, int]]] = {}
        for node, parent, conf, fid, idx in edges:
            if level.get(parent) is not None and level.get(node, -1) == level[parent] + 1:
                by_node.setdefault(node, []).append((parent, conf, fid, idx))
        order = sorted((d, n) for n, d in level.items() if d > 0)
        syms = {s.id: s for s in self._syms_by_ids(nodes)}
        chains: dict[int, list[str]] = {t: [syms[t].qname] if t in syms else [] for t in target_ids}
        items: list[BlastItem] = []
        site_keys: dict[int, list[tuple[int, int]]] = {}
        for d, n in order:
            cands = by_node.get(n, [])
            if not cands or n not in syms:
                continue
            # the strongest path; ties go to the parent that sorts first by qualified name
            ranked = sorted(
                ((p, min(best[p][0], c)) for p, c, _, _ in cands if p in best),
                key=lambda pc: (-pc[1], syms[pc[0]].qname if pc[0] in syms else ""),
            )
            parent, conf = ranked[0] if ranked else (None, 0)
            if parent is None:
                continue
            best[n] = (min(conf, EXTRACTED), parent)
            chains[n] = [*chains.get(parent, []), syms[n].qname]
            site_keys[n] = [(fid, idx) for p, _, fid, idx in cands if p == parent]
            items.append(BlastItem(syms[n], d, best[n][0], chains[n], []))
        items.sort(key=lambda i: (i.depth, i.symbol.path, i.symbol.range[0], i.symbol.qname))
        total = len(items)
        shown = items[: max(0, limit)]
        self._fill_sites(shown, site_keys)
        complete, unresolved = self._completeness(level, incoming, min_conf, syms)
        return BlastResult(targets, shown, total, total > len(shown), complete, unresolved, epoch)

    def _syms_by_ids(self, ids: list[int]) -> list[Sym]:
        if not ids:
            return []
        return self._syms("s.id IN (SELECT value FROM json_each(?))", (json.dumps(ids),))

    def _fill_sites(self, items: list[BlastItem], keys: dict[int, list[tuple[int, int]]]) -> None:
        wanted = sorted({k for item in items for k in keys.get(item.symbol.id, [])})
        if not wanted:
            return
        found: dict[tuple[int, int], Site] = {}
        for fid, sid, path, sl, sc, el, ec, caller, name, kind in self._q(
            "SELECT st.file_id, st.sid, f.path, st.sl, st.sc, st.el, st.ec, st.caller_id, st.name, st.kind "
            "FROM json_each(?) w JOIN sites st ON st.file_id = json_extract(w.value, '$[0]') "
            "AND st.sid = json_extract(w.value, '$[1]') JOIN files f ON f.id = st.file_id",
            (json.dumps(wanted),),
        ):
            found[(fid, sid)] = Site(path, (sl, sc, el, ec), caller, name, kind)
        for item in items:
            item.sites = sorted(
                (found[k] for k in set(keys.get(item.symbol.id, [])) if k in found), key=lambda x: (x.path, x.range)
            )

    def _completeness(self, level: dict[int, int], incoming: bool, min_conf: int, syms: dict[int, Sym]) -> tuple[bool, int]:
        """Could a call the graph does not hold reach these nodes? Unresolved sites that name one
        of them (incoming) or sit inside one of them (outgoing), or edges below ``min_conf``."""
        ids = json.dumps(list(level))
        if incoming:
            names = json.dumps(sorted({s.name for s in syms.values() if s.kind != "module"}))
            unresolved = self._q(
                "SELECT count(*) FROM sites WHERE status = 'unresolved' AND kind = 'call' "
                "AND name IN (SELECT value FROM json_each(?))",
                (names,),
            )[0][0]
            weak = self._q(
                "SELECT count(*) FROM edges WHERE callee_id IN (SELECT value FROM json_each(?)) AND kind = 'call' AND confidence < ?",
                (ids, min_conf),
            )[0][0]
        else:
            unresolved = self._q(
                "SELECT count(*) FROM sites WHERE status = 'unresolved' AND kind = 'call' "
                "AND caller_id IN (SELECT value FROM json_each(?))",
                (ids,),
            )[0][0]
            weak = self._q(
                "SELECT count(*) FROM edges WHERE caller_id IN (SELECT value FROM json_each(?)) AND kind = 'call' AND confidence < ?",
                (ids, min_conf),
            )[0][0]
        return unresolved == 0 and weak == 0, unresolved

    # ------------------------------------------------------------------ stats
    def stats(self) -> dict[str, Any]:
        q = self._q
        by_lang: dict[str, dict[str, int]] = {}
        for lang, n in q("SELECT lang, count(*) FROM files WHERE status = 'indexed' GROUP BY lang"):
            by_lang.setdefault(lang, {})["files"] = n
        for lang, n in q("SELECT lang, count(*) FROM symbols WHERE kind != 'module' GROUP BY lang"):
            by_lang.setdefault(lang, {})["symbols"] = n
        for lang, n in q(
            "SELECT f.lang, count(*) FROM edges e JOIN files f ON f.id = e.file_id WHERE e.kind = 'call' GROUP BY f.lang"
        ):
            by_lang.setdefault(lang, {})["callEdges"] = n
        for lang, n in q(
            "SELECT f.lang, count(*) FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE st.kind = 'call' AND st.status = 'unresolved' GROUP BY f.lang"
        ):
            by_lang.setdefault(lang, {})["unresolvedSites"] = n
        edges = {CONFIDENCE_NAMES[c]: n for c, n in q("SELECT confidence, count(*) FROM edges WHERE kind = 'call' GROUP BY confidence")}
        sites = dict(q("SELECT status, count(*) FROM sites WHERE kind = 'call' GROUP BY status"))
        return {
            "files": q("SELECT count(*) FROM files WHERE status = 'indexed'")[0][0],
            "skipped": q("SELECT count(*) FROM files WHERE status = 'skipped'")[0][0],
            "symbols": q("SELECT count(*) FROM symbols WHERE kind != 'module'")[0][0],
            "callSites": sum(sites.values()),
            "edges": {k: edges.get(k, 0) for k in ("extracted", "inferred", "ambiguous")},
            "referenceEdges": q("SELECT count(*) FROM edges WHERE kind = 'ref'")[0][0],
            "unresolvedSites": sites.get("unresolved", 0),
            "externalSites": sites.get("external", 0),
            "languages": dict(sorted(by_lang.items())),
            "epoch": self.engine.store.epoch(),
        }


def _like_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _contains(r: Range, line: int, col: int, inclusive_end: bool = False) -> bool:
    sl, sc, el, ec = r
    if line < sl or line > el:
        return False
    if line == sl and col < sc:
        return False
    if line == el and (col > ec if inclusive_end else col >= ec):
        return False
    return True


__all__ = ["AMBIGUOUS", "BlastResult", "Call", "Graph", "Site", "Sym", "confidence_level"]
