"""The reads of the agent-facing questions (dead code, changes, call paths): SELECTs by name, like
:mod:`.reads`, kept apart so that the two grow without stepping on each other."""

from __future__ import annotations

from .reads import SYMBOL_COLUMNS, Reads, like_escape


class AnalysisReads(Reads):
    def uncalled_symbols(self, prefix: str, kinds: tuple[str, ...]) -> list[tuple]:
        """Symbols of these kinds, in files under ``prefix`` ('' = all), that no edge of any kind
        or confidence reaches (calls and references alike)."""
        where = f"s.kind IN ({','.join('?' * len(kinds))}) AND f.status = 'indexed'"
        params: list = list(kinds)
        if prefix:
            where += " AND (f.path = ? OR f.path LIKE ? ESCAPE '\\')"
            params += [prefix, like_escape(prefix.rstrip("/")) + "/%"]
        where += " AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.callee_id = s.id)"
        return self._symbols(where, params, "f.path, s.sl, s.sc")

    def children_with_callers(self, parents: list[int]) -> set[int]:
        """Those of ``parents`` that have a member (at any depth below) some edge reaches."""
        if not parents:
            return set()
        rows = self._q(
            f"""
            WITH RECURSIVE below(top, id) AS (
                SELECT value, value FROM {self.d.ints}
                UNION SELECT b.top, s.id FROM below b JOIN symbols s ON s.parent_id = b.id
            )
            SELECT DISTINCT b.top FROM below b WHERE b.id != b.top
            AND EXISTS (SELECT 1 FROM edges e WHERE e.callee_id = b.id)
            """,
            (self.d.array(parents),),
        )
        return {r[0] for r in rows}

    def unresolved_call_counts(self, names: list[str]) -> dict[str, int]:
        """Unresolved call sites per callee name (calls the graph could not bind)."""
        if not names:
            return {}
        return dict(self._q(
            "SELECT name, count(*) FROM sites WHERE status = 'unresolved' AND kind = 'call' "
            f"AND name {self.d.in_texts} GROUP BY name",
            (self.d.array(sorted(set(names))),),
        ))

    def called_names(self, names: list[str], kinds: tuple[str, ...]) -> set[str]:
        """Those of ``names`` that name some symbol of these kinds that an edge reaches."""
        if not names:
            return set()
        rows = self._q(
            f"SELECT DISTINCT s.name FROM symbols s WHERE s.name {self.d.in_texts} "
            f"AND s.kind IN ({','.join('?' * len(kinds))}) "
            "AND EXISTS (SELECT 1 FROM edges e WHERE e.callee_id = s.id)",
            (self.d.array(sorted(set(names))), *kinds),
        )
        return {r[0] for r in rows}

    def unresolved_sites_in_files(self, paths: list[str]) -> dict[str, int]:
        if not paths:
            return {}
        return dict(self._q(
            "SELECT f.path, count(*) FROM sites st JOIN files f ON f.id = st.file_id WHERE st.status = 'unresolved' "
            f"AND st.kind = 'call' AND f.path {self.d.in_texts} GROUP BY f.path",
            (self.d.array(sorted(set(paths))),),
        ))

    def unresolved_callers_named(self, names: list[str]) -> list[tuple]:
        """(name, *symbol row of the enclosing definition, site line, site column) of unresolved
        call sites with these callee names: who called a symbol that is gone."""
        if not names:
            return []
        return self._q(
            f"SELECT st.name, {SYMBOL_COLUMNS}, st.sl, st.sc FROM sites st JOIN symbols s ON s.id = st.caller_id "
            "JOIN files f ON f.id = s.file_id WHERE st.status = 'unresolved' AND st.kind = 'call' "
            f"AND st.name {self.d.in_texts} ORDER BY f.path, st.sl",
            (self.d.array(sorted(set(names))),),
        )

    def symbols_in_files(self, paths: list[str]) -> list[tuple]:
        if not paths:
            return []
        return self._symbols(f"f.path {self.d.in_texts}", (self.d.array(sorted(set(paths))),),
                             "f.path, s.sl, s.sc")

    def most_called(self, limit: int, min_conf: int, kinds: tuple[str, ...] = ("function", "method")) -> list[tuple]:
        """(*symbol row, distinct callers) of the definitions with the most callers through call
        edges at least ``min_conf`` sure."""
        return self._q(
            f"SELECT {SYMBOL_COLUMNS}, c.n FROM (SELECT callee_id, count(DISTINCT caller_id) AS n FROM edges "
            "WHERE kind = 'call' AND confidence >= ? GROUP BY callee_id) c JOIN symbols s ON s.id = c.callee_id "
            f"JOIN files f ON f.id = s.file_id WHERE s.kind IN ({','.join('?' * len(kinds))}) "
            "ORDER BY c.n DESC, s.qname LIMIT ?",
            (min_conf, *kinds, limit),
        )
