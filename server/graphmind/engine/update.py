"""One file's change, read top to bottom: extract → diff → store write → re-resolve.

:meth:`Updater.update_document` is a keystroke's whole path: it parses the buffer incrementally
and extracts the chunks whose text changed (**extract**), compares them with the previous
extraction (**diff**), replaces their rows (**write**) and resolves their sites (**re-resolve**).
When the edit changed what other files can see of this one (its interface), it takes the full
path, :meth:`Updater.apply`, which does the same for whole files and re-resolves every file whose
recorded lookups the change touched. Indexing a workspace and refreshing files from disk write
through :meth:`Updater.apply` too.

Invariant (tested by property tests): any sequence of edits leaves exactly the graph that a fresh
index of the final texts gives. It holds because resolving a file reads nothing but its own facts
and lookups through :class:`~graphmind.store.StoreView`, every lookup is recorded as a dependency,
and a change to a file's interface re-resolves every file that looked up what changed.

Every method here runs inside the caller's store transaction and under the engine's lock.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol

import tree_sitter as ts

from .. import languages
from ..eol import as_parsed
from ..languages._toolkit import site_memo
from ..model import Edge, Facts, FileResolution, Override, binding_names, supertype_names
from ..store import NO_INTERFACE, Interface, RowsTouched, Store, StoredFile, StoreView, star_key, symbol_ids
from ..workspace import check_text
from . import chunks
from .layers import FileLayers
from .parse import MemberParse, Parsers

WARM_ENTRIES = 5_000  # a warm keystroke view's cache generation (see Updater._keystroke_view)


class WaitingPart(NamedTuple):
    """A file waiting on a buffer's ``base`` that a settle resolves in parts: its facts, and the
    sites it has yet to resolve (then its overrides)."""

    fid: int
    path: str
    lang: languages.Language
    facts: Facts
    sids: list[int]
    ids: list[int]
    left: list[int]


@dataclass(slots=True)
class Document:
    """An open document: the editor's text (which wins over the disk) and its syntax tree."""

    path: str
    text: bytes
    tree: ts.Tree | None
    lang: languages.Language
    extraction: chunks.Extraction | None = None  # the facts last stored for this buffer
    unsettled: bool = False  # updated from an incremental parse of broken text: settle() it
    # while typing, other files are not re-resolved on every keystroke: ``base`` is the interface
    # they were last resolved against, until the text settles (typing pauses), is closed, or is
    # whole again with that interface
    base: Interface | None = None
    base_ext: chunks.Extraction | None = None  # the extraction whose interface ``base`` is (None: unknown)
    stale_own: bool = False  # keystrokes skipped re-resolving the file's other sites
    # the sites resolved against the broken interface while ``stale_own`` (None: all of them)
    stale_sids: set[int] | None = field(default_factory=set)
    deferred: set[str] = field(default_factory=set)  # lookup keys that changed while broken
    at_base: bool = False  # the last patch found the interface ``base`` again (propagate reads none)
    # the interface the store holds of the file, known since a keystroke found it ``base`` again
    # (the next keystroke that changes it takes it as ``base``; a write that changes it drops it)
    known_base: Interface | None = None
    # chunks of recent extractions by key, for a changed chunk to reuse (see chunks.extract)
    spare: dict[bytes, chunks.Chunk] = field(default_factory=dict, repr=False)
    # the pending edits' (text length before, common prefix, common suffix), set by
    # documents.edit for the next update (see chunks.extract's ``hint``)
    edited: tuple[int, int, int] | None = None
    # (the byte offset where a line of ``text`` starts, its row): the line of the last edit, from
    # which documents.edit counts the next edit's rows (typing stays near it)
    line_anchor: tuple[int, int] = (0, 0)
    # ``text`` is UTF-8 without a NUL byte (workspace.check_text), kept by documents.edit through
    # edits that keep it so (False: not known, checked at the next update)
    checked: bool = False

    # the extraction's chunks are a parse of the whole text's but those of members parsed alone
    # (see Updater._extract_member); ``tree`` is the last whole one, edited, not parsed since
    partial: bool = False
    # a settle in steps (documents.settle_steps): the file's sites it has yet to resolve against
    # the interface now, then its overrides and the files waiting on ``base`` (Updater.settle_sites);
    # None: none under way (any update of the buffer ends one: its state is a keystroke's)
    left: list[int] | None = None
    # then the files waiting on ``base`` it has yet to resolve (None: not known yet), the first of
    # them in parts when it has more sites than a step resolves (Updater._resolve_some)
    waiting: list[int] | None = None
    waiting_part: WaitingPart | None = field(default=None, repr=False)
    # after an open, the sites whose resolution the site memo (languages/_toolkit/site_memo.py) has
    # yet to hold, filled in idle steps (documents.settle_steps) while the store is as the open
    # left it (``cold_epoch``); None: none to fill (any update of the buffer ends the filling)
    cold: list[int] | None = None
    cold_epoch: int = -1

    @property
    def pending(self) -> bool:
        """settle() has work: the tree is from an incremental parse of broken text or not parsed
        since members were parsed alone, or other files or the file's own other sites wait for
        typing to pause."""
        return self.unsettled or self.partial or self.stale_own or self.base is not None


@dataclass(slots=True)
class Change:
    """A file to write: new text (``prepared``: already extracted), skipped, or deleted."""

    path: str
    lang: languages.Language | None = None
    text: bytes | None = None
    tree: ts.Tree | None = None
    sha256: str | None = None
    size: int = 0
    mtime_ns: int = 0
    skip_reason: str | None = None
    delete: bool = False
    prepared: chunks.Extraction | None = None


@dataclass(slots=True)
class Options:
    """The workspace's settings, shared by the engine's parts (the language server changes
    ``exclude`` and ``max_file_size`` on a live engine)."""

    root: Path
    db_path: Path
    max_file_size: int
    exclude: list[str]
    jobs: int  # worker processes for a large (re)index; 1 = everything in this process


class ChunkDiff(NamedTuple):
    """What an edit changed: the previous extraction's chunks ``old_chunks`` became the new one's
    ``new_chunks`` (the chunks before and after are the same text); likewise their symbols and
    sites (slices into ``ids`` and ``sids``)."""

    old_chunks: slice
    new_chunks: slice
    old_syms: slice
    new_syms: slice
    old_sites: slice
    new_sites: slice
    interface_changed: bool  # the changed chunks' symbols (ids, kinds, ``extra``) or bindings differ


@dataclass(slots=True)
class UpdateStats:
    """How a buffer's updates went (debug counters, read by tests and benchmarks)."""

    patched: int = 0  # the keystroke path: the changed chunks' rows replaced
    noop: int = 0  # the keystroke path found no row to change (see _unchanged)
    replaced: int = 0  # the full path: the file's rows and the files its interface change touches


class Resolving(Protocol):
    """Where an updater's store is one layer over another (``Updater.resolving``): resolution
    looks names up in both, and a changed key's dependents may be the other layer's files (taken
    into this one before they are resolved)."""

    def view(self, keystroke: bool) -> StoreView:
        """The view to resolve through, the layers' rows written so far visible to it
        (``keystroke``: a patch that kept its file's interface: nothing to make visible)."""
        ...

    def dependents(self, keys: set[str]) -> set[int]:
        """The files (ids in this store) whose lookups ``keys`` touch, in either layer."""
        ...


class Updater:
    def __init__(self, store: Store, options: Options) -> None:
        self.store = store
        self.options = options
        self.stats = UpdateStats()
        self.layers = FileLayers(options.root)  # links, imports, search rows of a written file
        self.parsers = Parsers()
        self.docs: dict[str, Document] = {}
        self.resolved_meanwhile: set[int] = set()  # files resolved while a buffer was broken
        # the keystrokes' view, kept warm while no lookup could answer differently: the epoch it
        # was last used at (see _keystroke_view)
        self._warm: tuple[StoreView, int] | None = None
        # where resolution looks names up and finds the files that looked up a changed key (None:
        # this store; a buffers' layer on a snapshot: snapshot ∪ layer, buffer_layer.py)
        self.resolving: Resolving | None = None

    def view(self) -> StoreView:
        """A view to resolve through after a write that may change what lookups answer."""
        return StoreView(self.store.db) if self.resolving is None else self.resolving.view(keystroke=False)

    def dependents(self, keys: set[str]) -> set[int]:
        """The ids of the files whose recorded lookups ``keys`` touch (:meth:`Store.dependents`,
        or the resolving layer's)."""
        return self.store.dependents(keys) if self.resolving is None else self.resolving.dependents(keys)

    @property
    def probe(self) -> languages.FileProbe:
        return languages.FileProbe(self.options.root, self.docs)

    # ------------------------------------------------------------------ a buffer's change
    def update_document(
        self, doc: Document, fresh: bool = False, stepped: bool = False, parsed: ts.Tree | None = None
    ) -> None:
        """Bring the graph up to date with a buffer's text (``fresh``: parse it from scratch;
        ``stepped``: a settle that resolves the file's every site leaves them to
        :meth:`settle_sites`, ``Document.left``; ``parsed``: the tree that parse gives, made
        already: :meth:`settle_parse`).

        A keystroke (an edit, ``documents.edit``) costs what it changed in this file: when it
        changes what other files can see of it (its interface: a new ``def``, a decorator, a
        function's return value), other files and the file's other sites are re-resolved once
        typing pauses (``settle``), the buffer closes, or the interface is back to ``base``."""
        hint, doc.edited = doc.edited, None
        doc.at_base = False
        doc.left = doc.waiting = doc.waiting_part = doc.cold = None
        typing = hint is not None and not fresh
        reason = self._text_reason(doc) or doc.lang.skip_reason(doc.text)
        prev = doc.extraction
        was_broken = doc.unsettled
        if reason is None:
            try:
                ext = self._extract(doc, fresh, hint, parsed)
            except chunks.Unextractable as e:  # nested deeper than code: skipped, the tick bounded
                reason = e.reason
        if reason is not None:
            doc.tree = None
            doc.partial = False
            doc.extraction = None
            with self.store.tx():
                self.apply([Change(doc.path, doc.lang, size=len(doc.text), skip_reason=reason)])
            return
        # the row's sha256 is the text's, a keystroke's too: a buffer whose text needs no settle keeps
        # its last keystroke's row, and that row must equal a fresh index's (~0.14 ms of a keystroke
        # in Django's 98 KB fields/__init__.py)
        sha = hashlib.sha256(doc.text).hexdigest()
        try:
            with self.store.tx():
                # the text is whole again after broken-text patches: still a patch when the file's
                # interface is back to ``base`` (see _patch), else every site of the file is resolved
                settling = doc.stale_own and not doc.unsettled
                patchable = prev is not None and ext.reused and (not settling or typing or doc.stale_sids is not None)
                # a settle's fresh parse of the text the last extraction is of (broken text, members
                # parsed alone; a chunked language: its resolver takes only=): a patch of the rows that differ, the file's sites in steps
                refresh = fresh and stepped and doc.lang.chunked and prev is not None and prev.src == ext.src and not ext.drow
                if refresh:
                    patched = self._patch(doc, prev, ext, sha, stepped=True, refresh=True)  # type: ignore[arg-type]
                else:
                    patched = patchable and self._patch(doc, prev, ext, sha, settling, typing, was_broken, stepped)  # type: ignore[arg-type]
                if not patched:
                    self._replace(doc, ext, sha, typing)
                if not doc.unsettled and not (typing and doc.stale_own) and doc.left is None:
                    doc.stale_own = False  # either path re-resolved every stale site of the file by now
                    doc.stale_sids = set()
                    self.propagate(doc)
        except BaseException:
            # the extraction moved the last one's chunks and records to its own places (chunks._keep,
            # _shift_records) and the write was rolled back: the next update writes the file whole
            doc.extraction = None
            raise
        doc.extraction = ext
        chunks.remember(doc.spare, ext, 4 * len(ext.chunks) + 256)

    def _text_reason(self, doc: Document) -> str | None:
        """Why a buffer's text is not indexable text (``workspace.check_text``); a text checked
        before and edited since by edits that kept it text is not decoded again."""
        if doc.checked and len(doc.text) <= self.options.max_file_size:
            return None
        reason = check_text(doc.text, self.options.max_file_size)
        doc.checked = reason is None
        return reason

    def settle_parse(self, doc: Document, fresh: bool) -> ts.Tree:
        """The tree a settle's update parses (``fresh``, or incremental from the edited tree), a
        step of its own (``documents.settle_steps``): given to it as ``parsed``."""
        return self.parsers.parse(doc.lang, as_parsed(doc.text), None if fresh else doc.tree)

    def _extract(
        self, doc: Document, fresh: bool, hint: tuple[int, int, int] | None = None, parsed: ts.Tree | None = None
    ) -> chunks.Extraction:
        """Extract: parse (incrementally from the edited tree, unless ``fresh``) and re-extract
        the chunks whose text changed."""
        text = as_parsed(doc.text)
        parsed_afresh = fresh or doc.tree is None  # settling, or a whole-text replacement
        prev = doc.extraction
        module = doc.lang.module_name(doc.path, self.probe)
        if not parsed_afresh and prev is not None and hint is not None:
            # an edit inside one class member (top-level statement): that member alone is parsed
            # and extracted; the whole text's tree stays the last one, edited, for the next parse
            # broken, and not a member of its class in the member's tree: with the member after it
            for wider in (False, True):
                part = self.parsers.parse_member(doc.lang, text, prev, hint, wider)
                if part is None:
                    break
                ext = self._extract_member(doc, text, module, prev, hint, part)
                if ext is not None:
                    return ext
                # (whole text refused: ends open, its split the whole text's with the next member
                # or statement: ``export function f(a)`` above ``export function f(a, b) {``)
        tree = parsed if parsed is not None else self.parsers.parse(doc.lang, text, None if parsed_afresh else doc.tree)
        doc.partial = False
        broken = tree.root_node.has_error
        # Error recovery may differ between an incremental and a fresh parse. Text with syntax
        # errors is updated from the incremental tree now (the same tick) and parsed afresh by
        # settle() once typing pauses, so the graph ends up the one a fresh index gives.
        doc.unsettled = broken and not parsed_afresh
        doc.tree = tree
        # A fresh parse (settling, a whole-text replacement) is chunked as a fresh index chunks it;
        # a chunk of the same key is reused where it came from whole text and its node parsed
        # without an error now (around syntax errors the same text can parse differently): only
        # the chunks the keystrokes changed are extracted again (see chunks.extract).
        spare = doc.spare if prev is not None else None
        ext = chunks.extract(doc.lang, tree, text, doc.path, module, prev, spare, hint, fresh=parsed_afresh)
        if fresh or (parsed_afresh and broken):
            # written whole (update_document: not a patch of ``prev``): after keystrokes in broken
            # text the store's rows of kept chunks may not be ``prev``'s (a Go method whose type's
            # declaration broke keeps its row, its parent the type)
            ext.reused = False
        return ext

    def _extract_member(
        self, doc: Document, text: bytes, module: str, prev: chunks.Extraction, hint: tuple[int, int, int],
        part: MemberParse,
    ) -> chunks.Extraction | None:
        """The extraction after an edit inside one member, from the member's tree ``part``. Broken,
        the member is one provisional chunk (settle parses the whole text afresh). Whole, its
        chunks are the whole text's (``chunks.extract_region``): exact when every other chunk
        came from whole text, or from member parses of this member only (``Document.partial``:
        settle parses the whole text once, to check and to bring the tree up to date)."""
        r = part.region
        hint = (hint[0], *r.edit)  # the edit where member_region placed it
        exact_before = not doc.unsettled or doc.partial  # every chunk but broken members' is whole text's
        if part.broken:
            ext = chunks.extract_member(
                doc.lang, part.tree, text, doc.path, module, prev, doc.spare, hint, r.header, r.member, r.whole,
                part.front,
            )
            if ext is None:
                return None
            doc.partial = exact_before
            doc.unsettled = True
            return ext
        if not exact_before:
            return None
        ext = chunks.extract_region(
            doc.lang, part.tree, text, doc.path, module, prev, doc.spare, hint, r.header, r.member, r.whole, r.replaced
        )
        if ext is None:
            return None
        first, stop = r.replaced
        # chunks of broken text elsewhere (another member typed in): still provisional
        doc.unsettled = any(c.broken for c in prev.chunks[:first]) or any(c.broken for c in prev.chunks[stop:])
        doc.partial = True
        return ext

    def _patch(
        self, doc: Document, prev: chunks.Extraction, ext: chunks.Extraction, sha: str | None, settling: bool = False,
        typing: bool = False, was_broken: bool = False, stepped: bool = False, refresh: bool = False,
    ) -> bool:
        """The keystroke path: when an edit leaves the file's interface (its symbols' ids, kinds and
        ``extra``, its module bindings) as it was, no other file can resolve differently. Then only
        the changed chunks' rows are replaced and re-resolved, and the rows below them move.
        ``settling``: the text is whole after broken-text patches; its interface must be the one
        the file's other sites were resolved against (``base``), and the sites resolved meanwhile
        are resolved again. ``typing``: a keystroke, which patches an interface change too (other
        files wait on ``base``; ``was_broken``: the text it edited was). Returns False when that
        does not hold (the caller takes the full path). ``refresh``: a settle's fresh parse of the
        text ``prev`` is of (``stepped``): the keystrokes in broken text may have left rows of kept
        chunks that are not this extraction's (a Go method whose type's declaration broke keeps its
        parent): the rows that differ from it are written (``Store.stale_rows``); the file's every
        site is resolved again unless its stored interface is this extraction's and none waits."""
        store, lang, path = self.store, doc.lang, doc.path
        fid = store.file_id(path)
        if fid is None:
            return False
        # diff
        d = _chunk_diff(prev, ext)
        if d is None:
            return False
        if settling and typing and not was_broken and not d.interface_changed:
            # the interface is the last keystroke's, which was whole text and not back to ``base``
            settling = False
        whole = False  # every site of the file is resolved again (typing paused, not back to ``base``)
        # a keystroke that made broken text whole: the keystrokes in broken text kept the rows of
        # the chunks after their edits, which may be an earlier extraction's, not ``prev``'s (a Go
        # method whose type's declaration broke keeps its parent, the type): the changed chunks'
        # rows are written, not compared with ``prev``'s (settle's refresh does not follow)
        mended = typing and was_broken and not doc.unsettled
        rows = store.stale_rows(fid, lang.name, ext.facts, ext.ids, ext.sids) if refresh else None
        if rows:
            whole = doc.stale_own or rows.interface
            if rows.interface:
                was = store.interface(fid)
                doc.deferred |= _diff(was, store.interface_of(lang.name, ext.facts, ext.ids))  # (see propagate)
                if doc.base is None:  # other files are resolved by propagate(), after the file's sites
                    doc.base, doc.base_ext = was, None
            doc.stale_own = doc.stale_own or whole  # (the file's sites wait until the last step)
            settling = typing = False
        elif settling and (doc.stale_sids is None or not self._back_to_base(doc, ext)):
            if not typing:
                if doc.stale_sids is None:
                    return False
                # the rows stand (each keystroke patched them): the changed chunks' rows are
                # patched, the file's sites resolved against its interface now, other files by
                # propagate() (the full path would write every row again)
                whole = True
            settling = False  # not back to ``base``: a keystroke like any other, other files still wait
        if settling:
            doc.at_base = True
        elif whole:
            doc.known_base = None
            if d.interface_changed:
                doc.deferred |= _part_keys(lang.name, ext.facts.module, prev.chunks[d.old_chunks])
                doc.deferred |= _part_keys(lang.name, ext.facts.module, ext.chunks[d.new_chunks])
        elif refresh:
            pass  # the stored interface is this extraction's: only rows that differ, their sites resolved
        elif not mended and not d.interface_changed and _unchanged(prev, ext, d):
            # the edit changed no row: the changed chunks' symbols and sites (ids, positions,
            # callees) and what resolving them reads are as they were (a keystroke in a body that
            # changes no call). Only the buffer's version is recorded.
            self.stats.noop += 1
            store.buffer_version(fid, sha, len(doc.text))
            return True
        elif d.interface_changed:
            if not typing:
                return False
            # Mid-typing, broken text or whole: patch anyway. The file's other sites and other
            # files are re-resolved once typing pauses (settle), the buffer closes, or the
            # interface is back to ``base`` (stale_own, base).
            if doc.base is None:
                doc.base, doc.base_ext = doc.known_base or store.interface(fid), prev
            doc.known_base = None
            doc.stale_own = True
            doc.deferred |= _part_keys(lang.name, ext.facts.module, prev.chunks[d.old_chunks])
            doc.deferred |= _part_keys(lang.name, ext.facts.module, ext.chunks[d.new_chunks])
        self.stats.patched += 1
        # write: drop the rows of the changed chunks' symbols and sites that are gone, move the
        # rows below, write the symbols whose rows changed (the sites: with their resolution)
        shift_from = prev.chunks[d.old_chunks.stop].start_row if ext.suffix else 1 << 40
        gone_ids = rows.gone_ids if rows else _gone(prev.ids[d.old_syms], ext.ids[d.new_syms])
        store.patch_file(
            fid, gone_ids, rows.gone_sids if rows else _gone(prev.sids[d.old_sites], ext.sids[d.new_sites]),
            shift_from, ext.drow, ext.ids[0],
        )
        # symbols that contain the edit (the module, a class) keep their rows but change extent
        for i in range(max(1, d.new_syms.start)):
            if prev.facts.symbols[i].range != ext.facts.symbols[i].range:
                store.update_symbol_range(ext.ids[i], ext.facts.symbols[i].range)
        supers = rows.interface if rows else chunks.supers_part(prev.chunks[d.old_chunks]) != chunks.supers_part(ext.chunks[d.new_chunks])
        if rows:
            written = rows.symbols
        elif mended:  # the store may not hold ``prev``'s rows (see ``mended``): every one is written
            written = list(range(d.new_syms.start, d.new_syms.stop))
        else:
            written = _changed_symbols(prev, ext, d, shift_from)
        store.insert_symbols(fid, lang.name, ext.facts, ext.ids, written, supers)
        mid_sites = list(range(d.new_sites.start, d.new_sites.stop))
        later: list[int] = []  # (refresh: the changed chunks' sites whose rows stand, resolved in steps)
        if rows:  # the sites whose rows differ now, with their resolution (no edge missing between steps)
            changed = {*mid_sites, *_container_sites(prev, ext, d, set(mid_sites))}
            mid_sites, now = list(rows.sites), set(rows.sites)
            later = sorted(i for i in changed if i not in now)
        elif whole:  # (every site's resolution is written again: their rows first)
            store.insert_sites(fid, ext.facts, ext.ids, ext.sids, mid_sites)
        if not rows:
            mid_sites.extend(_container_sites(prev, ext, d, set(mid_sites)))
        if settling:  # and the sites resolved against another interface while typing
            stale, mid = doc.stale_sids or set(), set(mid_sites)
            mid_sites.extend(i for i, s in enumerate(ext.sids) if s in stale and i not in mid)
            mid_sites.sort()
            doc.stale_own = False  # the file's sites are resolved against ``base`` again
        elif doc.stale_own and doc.stale_sids is not None:
            doc.stale_sids.update(ext.sids[i] for i in mid_sites)
        # the kept chunks' layer rows stand; the changed chunks' search rows are replaced, and
        # their link and import rows when what makes them changed
        was = self.layers.part(lang, prev.chunks[d.old_chunks], prev, d.old_sites)
        now = self.layers.part(lang, ext.chunks[d.new_chunks], ext, d.new_sites)
        links = not lang.chunked or was.links is None or was.links != now.links
        self.layers.patch(
            store, fid, lang, ext.facts, ext.ids, ext.sids, prev.ids[d.old_syms] + (rows.gone_ids if rows else []),
            range(d.new_syms.start, d.new_syms.stop), links=links or refresh,
            imports=refresh or not lang.chunked or was.imports != now.imports,
        )
        # the packed facts are written when the buffer closes; until then re-resolution reads the buffer's
        store.buffer_version(fid, sha, len(doc.text))
        if whole or refresh:  # what the keystrokes left as other files saw it: the bindings, the classes' ``extra``
            store.replace_bindings(fid, lang.name, ext.facts)
        if whole and not refresh:  # (refresh: stale_rows wrote them)
            heads = sorted({ext.sym_at[c.parent] for c in ext.chunks if c.parent is not None})
            store.insert_symbols(fid, lang.name, ext.facts, ext.ids, heads, supers=False)
        # re-resolve the changed chunks' sites (or all of them)
        same = not (refresh or d.interface_changed or whole or supers)
        view = self._keystroke_view() if same else self.view()
        if whole and stepped:
            # what the file's sites resolved meanwhile kept (languages/_toolkit/site_memo.py) may be of
            # bindings the store held until now: its sites are resolved afresh, as a whole file's are
            site_memo.forget(view, ext.facts.module)
        res = self._resolve(
            fid, path, lang, ext.facts, ext.sids, view, only=None if whole and not stepped else mid_sites, ids=ext.ids
        )
        if whole and stepped:  # the file's other sites are resolved by settle_sites, a step at a time
            done = set(mid_sites)
            doc.left = [i for i in range(len(ext.sids)) if i not in done]
        elif refresh and (later or doc.base is not None):  # (and the files waiting on ``base``)
            doc.left = later
            if later:  # (a keystroke that ends the settle before them leaves every site waiting)
                doc.stale_own, doc.stale_sids = True, None
        elif whole:
            doc.stale_own = False
        kept_links = not links and not store.layers.dirty()
        touched = _touched(prev, ext, d, mid_sites, res) if same and not settling and not ext.drow and kept_links else None
        epoch = store.bump_epoch(touched)
        self._warm = (view, epoch) if same else None
        return True

    def settle_sites(self, doc: Document, most: int, budget: float | None = None) -> None:
        """A step of a settle in steps (``documents.settle_steps``, after an update that left
        ``Document.left``): the next ``most`` of the file's sites resolved against its interface
        now (as a keystroke resolves its chunk's: ``stale_sids``); once none is left, a step of its
        own: the file's overrides and which files wait on ``base`` (``Document.waiting``); then
        those files, whole, about ``most`` sites a step. Between steps the state is a keystroke's:
        the file's rows are its text's, some of its sites (and of the files waiting, some) resolved
        against its interface now, the buffer still ``pending`` (``base`` is kept until the last
        file: a keystroke that ends the settle leaves them all waiting, see propagate). ``budget``:
        the step stops early, after the site during which it spent this much CPU time (sites cost
        unevenly: one that reaches many overrides costs a hundred others)."""
        deadline = None if budget is None else time.thread_time() + budget
        ext, left = doc.extraction, doc.left
        assert ext is not None and left is not None
        store, lang = self.store, doc.lang
        fid = store.file_id(doc.path)
        assert fid is not None
        with store.tx():
            warm = self._warm  # (the view of the last step while nothing was written but its resolutions)
            view = warm[0] if warm is not None and warm[1] == store.epoch() and self.resolving is None else self.view()
            if left:
                batch = left[:most]
                self._resolve(fid, doc.path, lang, ext.facts, ext.sids, view, only=batch, ids=ext.ids, until=deadline)
                doc.left = left[len(batch) :]
                if doc.stale_sids is not None:  # (None: every site waits still, whatever this step resolved)
                    doc.stale_sids.update(ext.sids[i] for i in batch)
            elif doc.waiting is None:
                self._write_overrides(fid, lang, ext.facts, ext.ids, view)
                doc.waiting = self.waiting(doc)
            else:
                self._resolve_some(doc, view, most, deadline)
            if doc.waiting is not None and not doc.waiting and doc.waiting_part is None:  # the last step
                doc.left = doc.waiting = doc.waiting_part = None
                doc.stale_own, doc.stale_sids = False, set()
                self.base_reached(doc)
            epoch = store.bump_epoch()
        self._warm = (view, epoch) if doc.left is not None else None

    def _resolve_some(self, doc: Document, view: StoreView, most: int, deadline: float | None) -> None:
        """About ``most`` sites of the files waiting on ``doc``'s ``base`` resolved: the first files
        of ``Document.waiting`` whole (and taken off it), at least one; a file of more sites than
        that in parts (``Document.waiting_part``: its sites ``most`` a step, then its overrides, as
        the buffer's own are resolved in steps); ``deadline``: no part or file begun past it (CPU time)."""
        waiting, done = doc.waiting, 0
        assert waiting is not None
        while (waiting or doc.waiting_part) and done < most and (not done or deadline is None or time.thread_time() < deadline):
            part = doc.waiting_part
            if part is None:
                fid = waiting.pop(0)
                for _, path, lang_name in self.store.indexed_files([fid]):
                    got = self._facts_of(path) or self.store.facts(fid)
                    lang = languages.get(lang_name)
                    if got is None or lang is None:
                        continue
                    facts, sids = got
                    if done and len(facts.sites) > most - done:  # (the next step's)
                        waiting.insert(0, fid)
                        return
                    if len(facts.sites) <= most:
                        self._resolve(fid, path, lang, facts, sids, view)
                        done += len(facts.sites) + 1
                        continue
                    # resolved afresh (a site's kept resolution is of the interface it waited on)
                    site_memo.forget(view, facts.module)
                    doc.waiting_part = WaitingPart(
                        fid, path, lang, facts, sids, symbol_ids(path, facts), list(range(len(facts.sites)))
                    )
                    return  # (its facts read: its sites from the next step on, each step a resolver made again)
                continue
            if part.left:
                batch = part.left[: most - done]
                self._resolve(part.fid, part.path, part.lang, part.facts, part.sids, view, only=batch, ids=part.ids,
                              until=deadline)
                del part.left[: len(batch)]
                done += len(batch)
            else:
                self._write_overrides(part.fid, part.lang, part.facts, part.ids, view)
                doc.waiting_part = None
                done += 1

    def _write_overrides(self, fid: int, lang: languages.Language, facts: Facts, ids: list[int], view: StoreView) -> None:
        """What overrides the methods a file declares, written as a whole file's resolution writes
        them: after its sites were resolved a part at a time (a settle's steps)."""
        view.deps = set()
        view.lang = lang.name
        self.store.replace_overrides(fid, list(lang.overrides(facts, view, ids)), view.deps)

    def open_cold(self, doc: Document) -> None:
        """After an open: the buffer's sites, for idle steps to fill the site memo with
        (:meth:`warm_sites`), in a language whose keystrokes reuse it."""
        ext = doc.extraction
        if ext is not None and doc.lang.memoized_sites and self.resolving is None:
            doc.cold, doc.cold_epoch = list(range(len(ext.facts.sites))), self.store.epoch()

    def warm_sites(self, doc: Document, most: int) -> None:
        """An idle step after an open (``documents.settle_steps``): the next ``most`` of the
        buffer's sites resolved as a keystroke resolves its chunk's, through the keystrokes' view
        (kept warm for the next step and the first keystroke), so that the site memo holds them
        and the first keystroke in any member re-resolves only what it changed (a method of zod's
        ``types.ts``: ~50 sites otherwise). Nothing is written: while the store is as the open
        left it (its epoch), each resolution is the one the open stored, its lookups recorded
        there; once anything was written, the filling ends."""
        ext, cold = doc.extraction, doc.cold
        assert ext is not None and cold is not None
        if self.store.epoch() != doc.cold_epoch:
            doc.cold = None
            return
        batch, rest = cold[:most], cold[most:]
        doc.cold = rest or None
        view = self._keystroke_view()
        resolve_facts(doc.lang, doc.path, ext.facts, ext.sids, view, only=batch, ids=ext.ids)
        self._warm = (view, doc.cold_epoch)

    def _keystroke_view(self) -> StoreView:
        """The view a keystroke that keeps its file's interface resolves through: the last such
        keystroke's, caches and all, when nothing was written since but keystrokes like it (the
        epoch it left is the store's). Such a keystroke rewrites its chunks' symbols as they were
        (ids, kinds, ``extra``; bindings and supertypes untouched), so every lookup answers as
        before: a cold view asked the store again for each (~2 ms of a TypeScript keystroke)."""
        if self.resolving is not None:
            return self.resolving.view(keystroke=True)
        warm = self._warm
        if warm is not None and warm[0].db is self.store.db and warm[1] == self.store.epoch():
            return warm[0]
        return StoreView(self.store.db, WARM_ENTRIES)

    def _back_to_base(self, doc: Document, ext: chunks.Extraction) -> bool:
        """Whether the file's interface is ``base`` again: compared symbol by symbol with the
        extraction ``base`` was taken from (:func:`chunks.same_interface`); else (that is not
        known) with the whole interface."""
        was = doc.base_ext
        if was is not None:
            return was.ids == ext.ids and chunks.same_interface(was.facts, ext.facts)
        return self.store.interface_of(doc.lang.name, ext.facts, ext.ids) == doc.base

    def _replace(self, doc: Document, ext: chunks.Extraction, sha: str | None, typing: bool = False) -> None:
        """The full path for a buffer: all of its rows, and the files its interface change touches
        (while the text is broken, those wait on ``base``). A keystroke in whole text takes it only
        where it cannot patch (a language extracted whole, symbol ordinals renumbered): other files
        are resolved at once (propagate() after it), nothing is saved by waiting."""
        fid = self.store.file_id(doc.path)
        doc.known_base = None
        if doc.unsettled and doc.base is None:  # the interface other files were last resolved against
            doc.base, doc.base_ext = self.store.interface(fid), None
        self.stats.replaced += 1
        change = Change(doc.path, doc.lang, doc.text, doc.tree, sha, len(doc.text), 0, prepared=ext)
        # while other files wait on ``base``, propagate() decides which to re-resolve
        self.apply([change], deferred=doc.deferred if doc.base is not None else None)
        if doc.base is not None and (doc.unsettled or typing):
            # every site of the file is resolved against the interface it has now: while broken,
            # stale unless that is ``base``; whole, other files are resolved by propagate() now
            fid = fid if fid is not None else self.store.file_id(doc.path)
            if doc.unsettled and self.store.interface(fid) != doc.base:
                doc.stale_own, doc.stale_sids = True, None
            else:
                doc.stale_own, doc.stale_sids = False, set()

    # ------------------------------------------------------------------ whole files
    def change_of_stored(self, path: str, row: StoredFile | None) -> Change | None:
        """The change that makes ``path`` the version another store holds (``row``; None: that
        store does not have it). None when there is nothing to write."""
        if row is None:
            return Change(path, delete=True)
        lang = languages.get(row.lang or "") or languages.for_path(path)
        common = {"sha256": row.sha256, "size": row.size or 0, "mtime_ns": row.mtime_ns or 0}
        if row.status == "skipped" or lang is None:
            return Change(path, lang, skip_reason=row.reason or "unsupported", **common)
        if row.status != "indexed" or row.facts is None or row.sids is None:
            return None  # not written yet
        return Change(path, lang, b"", None, prepared=chunks.Extraction(row.facts, [], row.sids, []), **common)

    def apply(self, changes: Iterable[Change], resolve: bool = True, deferred: set[str] | None = None) -> set[int]:
        """Write the facts of changed files; resolve them and every file whose lookups the change
        touched. Returns the ids of files left to resolve (``resolve=False``: all of them).
        With ``deferred``, the touched lookups are added to it instead of re-resolving the files
        that made them (a buffer mid-typing; see ``Document.deferred``)."""
        store = self.store
        changed_keys: set[str] = set()
        touched: dict[int, tuple[Facts, list[int]]] = {}
        changes_seen = list(changes)
        for ch in changes_seen:
            if (doc := self.docs.get(ch.path)) is not None:
                doc.known_base = None
            fid = store.file_id(ch.path)
            old = store.interface(fid)
            if ch.delete:
                if fid is not None:
                    store.delete_file(fid)
                    touched.pop(fid, None)
                changed_keys |= _diff(old, NO_INTERFACE)
                continue
            if ch.skip_reason is not None or ch.lang is None:
                store.write_skipped(
                    ch.path, ch.lang.name if ch.lang else None, ch.skip_reason or "unsupported",
                    sha256=ch.sha256, size=ch.size, mtime_ns=ch.mtime_ns,
                )
                changed_keys |= _diff(old, NO_INTERFACE)
                continue
            assert ch.text is not None
            lang = ch.lang
            ext = ch.prepared
            if ext is None:  # extract
                text = as_parsed(ch.text)
                tree = ch.tree if ch.tree is not None else self.parsers.parse(lang, text)
                ext = chunks.extract(lang, tree, text, ch.path, lang.module_name(ch.path, self.probe))
            facts = ext.facts
            # write, then diff what other files can see of it
            fid = store.write_indexed(
                ch.path, lang.name, facts, ext.sids, sha256=ch.sha256, size=ch.size, mtime_ns=ch.mtime_ns
            )
            ids = symbol_ids(ch.path, facts)
            self.layers.write(store, fid, lang, facts, ids, ext.sids)
            now = store.interface_of(lang.name, facts, ids)
            changed_keys |= _diff(old, now)
            touched[fid] = (facts, ext.sids)
            if doc is not None and resolve and deferred is None:
                # what the store holds of the buffer, which the files it touched are resolved against
                # below: the first keystroke that changes it takes it as ``base`` without reading it
                # back from the rows (~1 ms for Django's fields/__init__.py)
                doc.known_base = now
        store.bump_epoch()  # what the files hold changed, resolved or not (readers wait on this)
        # re-resolve the changed files and the files that looked up what changed
        pending = set(touched)
        if deferred is not None:
            deferred |= changed_keys
        elif changed_keys:
            pending |= self.dependents(changed_keys)
        if not resolve:
            return pending
        view = self.view()
        self.resolve_files(sorted(pending), view, touched)
        # its caches answer every lookup as the store does now (a resolution writes no symbol,
        # binding or supertype): after a buffer's write (an open), the first keystroke's view while
        # the epoch is this one (_keystroke_view), its member's names not asked of the store again
        if self.resolving is None and any(ch.path in self.docs for ch in changes_seen):
            self._warm = (view, store.epoch())
        return set()

    def propagate(self, doc: Document) -> None:
        """Re-resolve the files whose lookups the buffer's net change (since it broke) touched:
        typing through a broken state and back costs nothing elsewhere."""
        others = self.waiting(doc)
        self.base_reached(doc)
        if others:
            self.resolve_files(others, self.view())
            self.store.bump_epoch()

    def waiting(self, doc: Document) -> list[int]:
        """The files (ids) :meth:`propagate` re-resolves: those whose lookups the buffer's net
        change since ``base`` touched."""
        if doc.base is None:
            return []
        fid = self.store.file_id(doc.path)
        # (a keystroke that found the interface ``base`` again changed nothing other files read)
        others = set() if doc.at_base else self.dependents(_diff(doc.base, self.store.interface(fid)))
        # files resolved meanwhile (their own edits) saw the broken interface: those that looked
        # up any of what changed while it was broken are resolved again too
        if self.resolved_meanwhile and doc.deferred:
            others |= self.dependents(doc.deferred) & self.resolved_meanwhile
        others.discard(fid)  # type: ignore[arg-type]
        return sorted(others)

    def base_reached(self, doc: Document) -> None:
        """The files :meth:`waiting` named are resolved against the buffer's interface now (or are
        about to be, in this transaction): no file waits on its ``base`` any longer."""
        at_base, doc.at_base = doc.at_base, False
        if doc.base is None:
            return
        if at_base:
            doc.known_base = doc.base
        doc.base, doc.base_ext, doc.deferred = None, None, set()
        if not any(d.base is not None for d in self.docs.values()):
            self.resolved_meanwhile = set()

    # ------------------------------------------------------------------ re-resolve
    def resolve_files(
        self,
        file_ids: list[int],
        view: StoreView,
        known: dict[int, tuple[Facts, list[int]]] | None = None,
        by_path: dict[str, tuple[Facts, list[int]]] | None = None,
    ) -> None:
        """Resolve whole files. Their facts come from ``known`` (by id) or ``by_path`` when given,
        else from an open buffer, else from the store."""
        for fid, path, lang_name in sorted(self.store.indexed_files(file_ids)):
            got = (known or {}).get(fid) or (by_path or {}).get(path) or self._facts_of(path) or self.store.facts(fid)
            lang = languages.get(lang_name)
            if got is None or lang is None:
                continue
            facts, sids = got
            self._resolve(fid, path, lang, facts, sids, view)

    def _facts_of(self, path: str) -> tuple[Facts, list[int]] | None:
        """An open buffer's facts and site ids (None: not open, or not extracted)."""
        doc = self.docs.get(path)
        return None if doc is None or doc.extraction is None else (doc.extraction.facts, doc.extraction.sids)

    def _resolve(
        self,
        fid: int,
        path: str,
        lang: languages.Language,
        facts: Facts,
        sids: list[int],
        view: StoreView,
        only: list[int] | None = None,
        ids: list[int] | None = None,
        until: float | None = None,
    ) -> FileResolution:
        """Resolve a file's sites (or the ``only`` ones: their rows too) and store edges, statuses and
        deps (``until``: see :func:`resolve_facts`, which cuts ``only`` to the sites resolved)."""
        if any(d.base is not None for d in self.docs.values()):
            self.resolved_meanwhile.add(fid)
        res = resolve_facts(lang, path, facts, sids, view, only, ids, until)
        if only is None:
            self.store.write_resolution(fid, res)
        else:  # a keystroke's sites: their rows written with their resolution, where they changed
            self.store.patch_sites(fid, facts, ids if ids is not None else symbol_ids(path, facts), res, only)
        return res


def resolve_facts(
    lang: languages.Language,
    path: str,
    facts: Facts,
    sids: list[int],
    view: StoreView,
    only: list[int] | None = None,
    ids: list[int] | None = None,
    until: float | None = None,
) -> FileResolution:
    """Resolve a file's sites (or the ``only`` ones): statuses, edges and the lookups it
    depended on. The worker processes resolve through this too. ``until`` (with ``only``): no
    site begun once this thread's CPU time passed it (a resolver resolves ``only`` lazily, in its
    order): ``only`` is cut, in place, to the sites resolved."""
    ids = ids if ids is not None else symbol_ids(path, facts)
    statuses = ["unresolved"] * len(facts.sites)
    edges: list[Edge] = []
    view.deps = set()
    view.lang = lang.name
    overrides: list[Override] | None = None
    if only is None:
        # a whole file's: its sites, and what overrides the methods it declares (same view)
        results, overrides = lang.resolve_file(facts, view, ids)
    elif until is None:
        results = list(lang.resolve(facts, view, only=only))  # type: ignore[call-arg]
    else:
        results = []
        for r in lang.resolve(facts, view, only=only):  # type: ignore[call-arg]
            results.append(r)
            if time.thread_time() >= until:
                del only[only.index(r.site) + 1 :]  # type: ignore[union-attr]
                break
    for res in results:
        statuses[res.site] = res.status
        site = facts.sites[res.site]
        caller = ids[site.caller]
        for t in res.targets:
            via = t[2] if len(t) > 2 else None  # type: ignore[misc]
            edges.append(Edge(sids[res.site], caller, t[0], t[1], site.kind, via.encode() if via else None))
    return FileResolution(sids, statuses, edges, view.deps, overrides)



# ---------------------------------------------------------------------- diffs
def _chunk_diff(prev: chunks.Extraction, ext: chunks.Extraction) -> ChunkDiff | None:
    """The chunks an edit changed, or None when the rows kept would not keep their ids (an added
    same-name definition renumbers ordinals) or a kept chunk shares a line with a moved one."""
    p, sfx = ext.prefix, ext.suffix
    oc, nc = slice(p, len(prev.chunks) - sfx), slice(p, len(ext.chunks) - sfx)
    osym, nsym = slice(prev.sym_at[oc.start], prev.sym_at[oc.stop]), slice(ext.sym_at[nc.start], ext.sym_at[nc.stop])
    osite, nsite = slice(prev.site_at[oc.start], prev.site_at[oc.stop]), slice(ext.site_at[nc.start], ext.site_at[nc.stop])
    if prev.ids[: osym.start] != ext.ids[: nsym.start] or prev.ids[osym.stop :] != ext.ids[nsym.stop :]:
        return None
    if prev.sids[: osite.start] != ext.sids[: nsite.start] or prev.sids[osite.stop :] != ext.sids[nsite.stop :]:
        return None
    if sfx and p and prev.chunks[p - 1].end_row >= prev.chunks[oc.stop].start_row:
        return None
    # kept chunks are the same text, so the interface changed iff the changed chunks' part did
    changed = prev.ids[osym] != ext.ids[nsym] or chunks.interface_part(prev.chunks[oc]) != chunks.interface_part(
        ext.chunks[nc]
    )
    return ChunkDiff(oc, nc, osym, nsym, osite, nsite, changed)


def _container_sites(prev: chunks.Extraction, ext: chunks.Extraction, d: ChunkDiff, done: set[int]) -> list[int]:
    """The kept sites whose caller is a container (a class) whose scope the changed member chunks
    changed: they read what every member adds to it (a Python class body's names), not only their
    own chunk's share."""
    # (an unchanged header precedes the changed chunks: same chunk and symbol index before and after)
    heads = {c.parent for c in ext.chunks[d.new_chunks] if c.parent is not None}
    heads.update(c.parent for c in prev.chunks[d.old_chunks] if c.parent is not None and c.parent < d.old_chunks.start)
    out: list[int] = []
    for h in heads:
        k = ext.sym_at[h]  # a header chunk's first symbol is its container
        if k < d.new_syms.start and prev.facts.local.get(k) == ext.facts.local.get(k):
            continue
        out.extend(i for i, s in enumerate(ext.facts.sites) if s.caller == k and i not in done)
    return sorted(out)


def _touched(prev: chunks.Extraction, ext: chunks.Extraction, d: ChunkDiff, resolved: list[int], res: FileResolution) -> RowsTouched:
    """The rows a keystroke patch that moved no line changed (see ``Store.bump_epoch``): the
    symbols of the changed chunks whose rows it did not write back as they were (the function
    typed in keeps its row: the item of a call hierarchy typed into), those whose extent changed
    (the module, a class), the callers of the sites it removed or resolved again; and the callees
    of the edges it wrote."""
    ps, ns = prev.facts.symbols, ext.facts.symbols
    was = {prev.ids[i]: _symbol_row(prev, i) for i in range(d.old_syms.start, d.old_syms.stop)}
    now = {ext.ids[i]: _symbol_row(ext, i) for i in range(d.new_syms.start, d.new_syms.stop)}
    syms = {i for i in was.keys() | now.keys() if was.get(i) != now.get(i)}
    syms.update(ext.ids[i] for i in range(max(1, d.new_syms.start)) if ps[i].range != ns[i].range)
    callers = {prev.ids[s.caller] for s in prev.facts.sites[d.old_sites]}
    sites = ext.facts.sites
    callers.update(ext.ids[sites[i].caller] for i in resolved)
    return RowsTouched(frozenset(syms), frozenset(callers), frozenset(e.callee for e in res.edges))


def _gone(old: list[int], new: list[int]) -> list[int]:
    """The ids of ``old`` not in ``new`` (the changed chunks' symbols or sites whose rows go)."""
    kept = set(new)
    return [i for i in old if i not in kept]


def _changed_symbols(prev: chunks.Extraction, ext: chunks.Extraction, d: ChunkDiff, shift_from: int) -> list[int]:
    """The changed chunks' symbols whose rows are not stored as they are now: new ids, rows that
    differ from the last extraction's (which the store holds), and rows the patch's shift moved
    (at or below ``shift_from``, a line the changed chunks share with the chunk after them)."""
    was = {prev.ids[j]: j for j in range(d.old_syms.start, d.old_syms.stop)}
    ps = prev.facts.symbols
    out = []
    for i in range(d.new_syms.start, d.new_syms.stop):
        j = was.get(ext.ids[i])
        if j is None or (ext.drow and ps[j].range[0] >= shift_from) or _symbol_row(prev, j) != _symbol_row(ext, i):
            out.append(i)
    return out


def _symbol_row(ext: chunks.Extraction, i: int) -> tuple:
    """What symbol ``i``'s row holds (``Store.insert_symbols``), its parent by id."""
    s = ext.facts.symbols[i]
    return (s.qname, s.name, s.kind, ext.ids[s.parent] if s.parent is not None else None, s.range, s.selection,
            s.signature, s.extra)


def _unchanged(prev: chunks.Extraction, ext: chunks.Extraction, d: ChunkDiff) -> bool:
    """Whether an edit leaves every row as it was: no line moved, the containers' extents and the
    changed chunks' symbols and sites (ids, positions, names, callee expressions) are the same, and
    so is what their sites' resolution and the layers read (scopes, bindings, docs; no call shape)."""
    if ext.drow or prev.ids[d.old_syms] != ext.ids[d.new_syms] or prev.sids[d.old_sites] != ext.sids[d.new_sites]:
        return False
    ps, ns, pi, ni = prev.facts.symbols, ext.facts.symbols, prev.ids, ext.ids
    if any(ps[i].range != ns[i].range for i in range(max(1, d.new_syms.start))):
        return False
    for a, b in zip(ps[d.old_syms], ns[d.new_syms], strict=True):
        if (a.qname, a.name, a.kind, a.range, a.selection, a.signature, a.extra) != (
            b.qname, b.name, b.kind, b.range, b.selection, b.signature, b.extra
        ) or (a.parent is None) != (b.parent is None) or (a.parent is not None and pi[a.parent] != ni[b.parent]):  # type: ignore[index]
            return False
    pa, na = prev.facts.sites, ext.facts.sites
    for a, b in zip(pa[d.old_sites], na[d.new_sites], strict=True):
        if (pi[a.caller], a.name, a.kind, a.range, a.expr) != (ni[b.caller], b.name, b.kind, b.range, b.expr):
            return False
    old, new = prev.chunks[d.old_chunks], ext.chunks[d.new_chunks]
    return len(old) == len(new) and all(
        not o.facts.links and not n.facts.links and o.facts.local == n.facts.local and o.facts.bindings == n.facts.bindings
        and o.facts.docs == n.facts.docs and o.parent == n.parent
        for o, n in zip(old, new, strict=True)
    )


def _part_keys(lang: str, module: str, part: list[chunks.Chunk]) -> set[str]:
    """The lookup keys a set of chunks' symbols and bindings answer."""
    keys: set[str] = set()
    for c in part:
        for sym in c.facts.symbols[1:]:
            keys.add(f"{lang}:{sym.qname}")
            keys.add(f"{lang}:#{sym.name}")
            keys.add(f"{lang}:{sym.qname.rpartition('.')[0]}.*")
            keys.update(f"{lang}:>{n}" for n in supertype_names(sym.extra))
        keys.update(f"{lang}:{module}.{b.name}" for b in c.facts.bindings)
        keys.update(star_key(lang, module) for b in c.facts.bindings if b.name == "*")
        # a binding may be the alias a type's base is written with (model.supertype_names)
        keys.update(f"{lang}:>{n}" for names in binding_names(c.facts.bindings).values() for n in names)
    return keys


def _diff(old: Interface, new: Interface) -> set[str]:
    """Keys ('lang:qualified.name', 'lang:#short_name', 'lang:parent.qualified.name.*',
    'lang:>supertype_name', 'lang:module.binding') whose lookups now answer differently."""
    keys: set[str] = set()
    supers_of: dict[int, set[str]] = {}  # type id -> its 'lang:>name' keys, old and new
    for sups in (old.supers, new.supers):
        for k, ids in sups.items():
            for i in ids:
                supers_of.setdefault(i, set()).add(k)
    for kind, o, n in (("symbols", old.symbols, new.symbols), ("bindings", old.bindings, new.bindings),
                       ("supers", old.supers, new.supers)):
        for k in o.keys() | n.keys():
            ov, nv = o.get(k), n.get(k)
            if ov != nv:
                keys.add(k)
                if kind == "bindings" and k.endswith(".*"):  # a module's star imports
                    lang, _, name = k.partition(":")
                    keys.add(star_key(lang, name[:-2]))
                if kind == "symbols":  # by_name() lookups of the short name see the change too,
                    lang, _, qname = k.partition(":")  # members() of its parent, and subtypes()
                    keys.add(f"{lang}:{qname.rpartition('.')[0]}.*")  # lookups that return its row
                    for rec in (ov or set()) | (nv or set()):
                        keys.add(f"{lang}:#{rec[1]}")
                        keys |= supers_of.get(rec[0], set())
    return keys


interface_diff = _diff  # the keys two interfaces of a file answer differently (a snapshot's local layer)
