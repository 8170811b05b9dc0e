"""Every conversion from the engine's records to LSP types.

The store keeps (row, byte column) points; the client counts columns in the negotiated position
encoding, so a range is converted through the file's lines (``LineCache``). One ``ToProto`` serves
one request in one workspace folder.

The hot requests (call hierarchy, references, blast radius: see ``lean.py``) get their answers as
plain JSON (``*_json``), built directly rather than as lsprotocol objects unstructured by cattrs;
the wire format is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.uris import from_fs_path  # (pygls.uris alone: no lsprotocol)

from .positions import UTF8, LineCache

if TYPE_CHECKING:
    from lsprotocol import types as T

    from ..graph import BlastResult, Site, Sym
    from ..model import Via

Range = tuple[int, int, int, int]

# LSP's SymbolKind numbers (lsprotocol's ``SymbolKind``: the typed answers convert with ``symbol_kind``)
MODULE, NAMESPACE, CLASS, METHOD, PROPERTY, FIELD, CONSTRUCTOR, ENUM, INTERFACE, FUNCTION, VARIABLE = (
    2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13)
OBJECT, STRUCT = 19, 23
SYMBOL_KINDS: dict[str, int] = {
    "module": MODULE, "class": CLASS, "function": FUNCTION, "method": METHOD, "interface": INTERFACE,
    "struct": STRUCT, "enum": ENUM, "trait": INTERFACE, "constructor": CONSTRUCTOR, "namespace": NAMESPACE,
    "type": CLASS, "impl": CLASS, "variable": VARIABLE, "object": OBJECT, "field": FIELD, "property": PROPERTY,
}

LENS_KINDS = frozenset({"function", "method", "class", "constructor"})  # symbols that get an "N callers" lens


def kind_number(kind: str) -> int:
    return SYMBOL_KINDS.get(kind, FUNCTION)


def symbol_kind(kind: str) -> T.SymbolKind:
    from lsprotocol import types as T

    return T.SymbolKind(kind_number(kind))


def display_name(s: Sym) -> str:
    """A module is shown by its qualified name, everything else by its own name."""
    return s.qname if s.kind == "module" else s.name


_VIA_LABELS = {"dispatch": "through", "construct": "constructs", "event": "event", "http": "route"}


def via_label(via: Via | None) -> str | None:
    """How an edge that is no call written to its callee reaches it, for a detail: "through
    pkg.Base.save" (dispatch), "constructs pkg.Form" (an initializer a constructor call runs),
    "event post_save" (a handler), "route GET /users" (a route)."""
    if via is None:
        return None
    return f"{_VIA_LABELS.get(via.kind, via.kind)} {via.key}"


def hierarchy_detail(
    s: Sym, container: str | None, main_block: bool = False, possible: bool = False, via: str | None = None
) -> str:
    """A call hierarchy item's detail: "<container> · <path>" ("Console · rich/console.py"); module
    code reads "module" or "__main__ block"; a caller over ambiguous edges only starts "possible · ";
    one reached through no call written to it starts with how (:func:`via_label`): "through
    pkg.Base.save · " (dispatch), "constructs pkg.Form · " (both listed with
    ``callHierarchy.includeDispatch``), "event post_save · "."""
    where = ("__main__ block" if main_block else "module") if s.kind == "module" else container
    detail = f"{where} · {s.path}" if where else s.path
    if via:
        detail = f"{via} · {detail}"
    return f"possible · {detail}" if possible else detail


class ToProto:
    def __init__(self, root: Path, lines: LineCache, encoding: str, uris: dict[str, str] | None = None) -> None:
        self.root = root
        self.lines = lines
        self.encoding = encoding
        self.uris = {} if uris is None else uris  # rel -> uri, kept by the server across requests
        self.root_str = str(root)

    def uri(self, rel: str) -> str:
        uri = self.uris.get(rel)
        if uri is None:
            uri = self.uris[rel] = from_fs_path(str(self.root / rel)) or ""
        return uri

    def position(self, path: str, row: int, byte_col: int) -> T.Position:
        from lsprotocol import types as T

        if self.encoding == UTF8:
            return T.Position(line=row, character=byte_col)
        return T.Position(line=row, character=self.lines.column(path, row, byte_col, self.encoding))

    def range(self, path: str, r: Range) -> T.Range:
        from lsprotocol import types as T

        return T.Range(start=self.position(path, r[0], r[1]), end=self.position(path, r[2], r[3]))

    # ------------------------------------------------------------------ plain JSON (the lean path)
    def position_json(self, path: str, row: int, byte_col: int) -> dict[str, int]:
        if self.encoding == UTF8:
            return {"line": row, "character": byte_col}
        return {"line": row, "character": self.lines.column(path, row, byte_col, self.encoding)}

    def range_json(self, path: str, r: Range) -> dict[str, dict[str, int]]:
        if self.encoding != UTF8:
            lines = self.lines.plain(path)
            if lines is not None:  # (LineCache.column's, for both ends at once: most files)
                n = len(lines)
                sl, el = r[0], r[2]
                return {"start": {"line": sl, "character": min(r[1], len(lines[sl]) if 0 <= sl < n else 0)},
                        "end": {"line": el, "character": min(r[3], len(lines[el]) if 0 <= el < n else 0)}}
        return {"start": self.position_json(path, r[0], r[1]), "end": self.position_json(path, r[2], r[3])}

    def item_json(self, s: Sym, detail: str | None = None, main_block: bool = False) -> dict[str, Any]:
        """A ``CallHierarchyItem``; ``main_block``: module-level code that is a script entry point
        (no callers)."""
        # ids are stable across edits (path, qualified name, ordinal): the item survives them
        data: dict[str, Any] = {"id": str(s.id), "qname": s.qname, "path": s.path, "root": self.root_str}
        if main_block:
            data["mainBlock"] = True
        return {
            "name": display_name(s),
            "kind": kind_number(s.kind),
            "uri": self.uri(s.path),
            "range": self.range_json(s.path, s.range),
            "selectionRange": self.range_json(s.path, s.selection),
            "detail": detail or s.signature or s.qname,
            "data": data,
        }

    def declaration_json(self, s: Sym) -> dict[str, Any]:
        return {"uri": self.uri(s.path), "range": self.range_json(s.path, s.selection)}

    def location_json(self, site: Site) -> dict[str, Any]:
        return {"uri": self.uri(site.path), "range": self.range_json(site.path, site.range)}

    def site_ranges_json(self, sites: list[Site]) -> list[dict[str, Any]]:
        return [self.range_json(s.path, s.range) for s in sites]

    # ------------------------------------------------------------------ symbols
    def declaration(self, s: Sym) -> T.Location:
        """Where a symbol is named (its selection range)."""
        from lsprotocol import types as T

        return T.Location(uri=self.uri(s.path), range=self.range(s.path, s.selection))

    def symbol_information(self, s: Sym) -> T.SymbolInformation:
        from lsprotocol import types as T

        return T.SymbolInformation(
            name=s.name, kind=symbol_kind(s.kind), location=self.declaration(s),
            container_name=s.qname.rpartition(".")[0] or None,
        )

    def document_symbols(self, syms: list[Sym]) -> list[T.DocumentSymbol]:
        """The outline of one file: symbols nested under their parents (modules left out)."""
        from lsprotocol import types as T

        nodes: dict[int, T.DocumentSymbol] = {}
        roots: list[T.DocumentSymbol] = []
        for s in syms:
            if s.kind == "module":
                continue
            node = T.DocumentSymbol(
                name=s.name, kind=symbol_kind(s.kind), detail=s.signature,
                range=self.range(s.path, s.range), selection_range=self.range(s.path, s.selection), children=[],
            )
            nodes[s.id] = node
            parent = nodes.get(s.parent_id) if s.parent_id is not None else None
            (parent.children if parent is not None and parent.children is not None else roots).append(node)
        return roots

    def callers_lens(self, s: Sym, title: str) -> T.CodeLens:
        """A lens above a symbol ("N callers"); the command asks for its blast radius."""
        from lsprotocol import types as T

        from .protocol import BLAST_RADIUS_COMMAND

        rng = self.range(s.path, s.selection)
        start = self.position_json(s.path, s.selection[0], s.selection[1])
        return T.CodeLens(
            range=rng,
            command=T.Command(title=title, command=BLAST_RADIUS_COMMAND, arguments=[self.uri(s.path), start]),
        )

    # ------------------------------------------------------------------ graphmind/blastRadius
    def symbol_json(self, s: Sym) -> dict[str, Any]:
        """A symbol in the blast radius's JSON (``BlastSymbol`` in client-vscode/src/protocol.ts)."""
        return {
            "name": display_name(s),
            "qualifiedName": s.qname,
            "kind": kind_number(s.kind),
            "uri": self.uri(s.path),
            "range": self.range_json(s.path, s.range),
            "selectionRange": self.range_json(s.path, s.selection),
            "signature": s.signature,
        }

    def blast_json(self, result: BlastResult) -> dict[str, Any]:
        from .. import answers

        return answers.blast_json(
            result, symbol=self.symbol_json, site=self.location_json, note_path=lambda p: {"uri": self.uri(p)}
        )
