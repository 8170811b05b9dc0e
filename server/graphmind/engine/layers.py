"""What a written file adds to the layers beyond direct calls: its link rows (events, HTTP),
matched with its language's default patterns plus the workspace's configuration. Called by
:class:`~graphmind.engine.update.Updater` wherever a file's rows are written, in the same
transaction; the store remakes the edges the rows make when the transaction commits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .. import languages
from ..links import NONE, Patterns, config, from_config, link_rows
from ..links.match import LinkRow
from ..model import Facts, Import
from ..store import Store, symbol_ids
from ..store.layers import ImportRow, SearchRow
from ..text import indexed_words

if TYPE_CHECKING:
    from .chunks import Chunk, Extraction


def import_rows(imports: list[Import]) -> list[ImportRow]:
    return sorted(
        (imp.spec, rank, module, stem, ",".join(imp.names))
        for imp in imports
        for rank, (module, stem) in enumerate(imp.candidates)
    )


def search_rows(facts: Facts, ids: list[int], which: Iterable[int] | None = None) -> list[SearchRow]:
    """One full-text row per definition (not the module): name, words, signature, doc."""
    syms = facts.symbols
    return [
        (ids[i], syms[i].name, indexed_words(syms[i].qname), syms[i].signature, facts.docs.get(i, ""))
        for i in (range(1, len(syms)) if which is None else which)
        if i > 0
    ]


class LayerPart(NamedTuple):
    """What some chunks contribute to their file's link and import rows (:meth:`FileLayers.part`)."""

    imports: list[ImportRow]
    links: list[LinkRow] | None  # the link rows of their call shapes; None: not told apart by chunk


class FileLayers:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.config = config.load(root)
        self.fingerprint = config.fingerprint(self.config)
        self._extra = from_config(self.config)
        self._patterns: dict[str, Patterns] = {}

    def patterns(self, lang: languages.Language) -> Patterns:
        p = self._patterns.get(lang.name)
        if p is None:
            base = lang.link_patterns if isinstance(lang.link_patterns, Patterns) else NONE
            p = self._patterns[lang.name] = base.merged(self._extra) if base is not NONE else NONE
        return p

    def write(
        self, store: Store, file_id: int, lang: languages.Language, facts: Facts, ids: list[int], sids: list[int]
    ) -> None:
        """Replace a file's layer rows (inside the caller's transaction)."""
        rows = link_rows(facts, ids, sids, self.patterns(lang)) if facts.links else []
        store.layers.replace_links(file_id, rows)
        store.layers.replace_imports(file_id, import_rows(lang.imports_in(facts, self.root)))
        store.layers.replace_search(file_id, search_rows(facts, ids))
        note = lang.notes(facts)
        store.layers.replace_note(file_id, note[0] if note else None, [tuple(m) for m in note[1]] if note else [])

    def part(self, lang: languages.Language, chunks: list[Chunk], ext: Extraction, sites: slice) -> LayerPart:
        """What some chunks of an extraction contribute to their file's link and import rows:
        their imports, and the link rows of their call shapes (``sites``: the chunks' sites in
        ``ext``; a shape's rows name only its own site and symbols, by id; None: a shape of no
        site, not told apart by chunk, so the file's link rows are remade). A local variable
        typed changes a chunk's scopes, not its imports; a decorator typed adds a shape that
        matches no pattern."""
        links: list[LinkRow] | None = []
        if any(c.facts.links for c in chunks):
            if any(t[0] < 0 for c in chunks for t in c.facts.links):
                links = None
            else:
                shapes = [t for t in ext.facts.links if sites.start <= t[0] < sites.stop]
                if shapes:
                    links = link_rows(replace(ext.facts, links=shapes), ext.ids, ext.sids, self.patterns(lang))
        return LayerPart(sorted(row for c in chunks for row in import_rows(lang.imports_in(c.facts, self.root))), links)

    def patch(
        self,
        store: Store,
        file_id: int,
        lang: languages.Language,
        facts: Facts,
        ids: list[int],
        sids: list[int],
        removed: list[int],
        added: range,
        links: bool,
        imports: bool,
    ) -> None:
        """A keystroke's layer rows: the search rows of the symbols an edit removed (ids) and
        added (indices); the link rows (``links``) and import rows (``imports``) are replaced too
        when the caller says the changed chunks could have changed them."""
        if links:
            rows = link_rows(facts, ids, sids, self.patterns(lang)) if facts.links else []
            store.layers.replace_links(file_id, rows)
        if imports:
            store.layers.replace_imports(file_id, import_rows(lang.imports_in(facts, self.root)))
        store.layers.patch_search(file_id, removed, search_rows(facts, ids, added))

    def check_config(self, store: Store) -> None:
        """When the configuration changed since the index was written, match every stored file's
        call shapes again (no re-parse: the shapes are kept in the facts)."""
        layers = store.layers
        if layers.meta("config") == self.fingerprint:
            return
        with store.tx():
            for fid, path, lang_name in layers.indexed_files():
                lang = languages.get(lang_name)
                got = store.facts(fid)
                if lang is None or got is None:
                    continue
                facts, sids = got
                self.write(store, fid, lang, facts, symbol_ids(path, facts), sids)
            layers.set_meta("config", self.fingerprint)
