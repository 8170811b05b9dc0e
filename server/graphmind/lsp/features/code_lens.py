"""textDocument/codeLens: "N callers" above each function, method, class and constructor, with
what may also call it ("3 callers · 65 possible") and what calls it through another definition
("2 callers · 5 via dispatch": a method it overrides; "1 caller · 12 via construction": its
class, for an initializer), and "indexing…" until the first index is done
(the server then asks the client to refresh every lens)."""

from __future__ import annotations

from lsprotocol import types as T

from ...graph import CallerCounts, Graph
from ...render import indirect_summary
from ..lean import BlastQuery, Lean
from ..protocol import BLAST_RADIUS_COMMAND
from ..server import GraphMindServer
from ..to_proto import LENS_KINDS
from .blast_radius import blast_radius

INDEXING = "indexing…"


def lens_title(c: CallerCounts) -> str:
    """Direct callers; "0 callers" only when nothing in the graph could call the symbol; the
    indirect callers last ("2 callers · 5 via dispatch", "1 caller · 12 via construction")."""
    if c.maybe == 0:
        title = f"{c.known} caller{'s' if c.known != 1 else ''}"
    elif c.known == 0:
        title = f"0 known callers · {c.maybe} possible"
    else:
        title = f"{c.known} caller{'s' if c.known != 1 else ''} · {c.maybe} possible"
    indirect = indirect_summary(c.indirect)
    return f"{title} · {indirect}" if indirect else title


async def code_lens(ls: GraphMindServer, params: T.CodeLensParams) -> list[T.CodeLens] | None:
    """Over a folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and
    answers (whose counts need no local index: no "indexing…"), else the local index."""
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None

    def ask(graph: Graph) -> list[T.CodeLens]:
        syms = [s for s in graph.file_symbols(ctx.rel) if s.kind in LENS_KINDS]
        if graph is ctx.graph and not ls.ready.is_set():
            return [ctx.proto.callers_lens(s, INDEXING) for s in syms]
        counts = graph.lens_counts(syms)
        return [ctx.proto.callers_lens(s, lens_title(counts.get(s.id, CallerCounts(0, 0, 0)))) for s in syms]

    return await ls.answered(ctx.graph, ask)


async def blast_radius_command(ls: GraphMindServer, uri: str, position: T.Position) -> Lean:
    """The lens's command, for clients that run commands on the server (e.g. Neovim)."""
    return await blast_radius(ls, BlastQuery(uri, (position.line, position.character), None, None))


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_CODE_LENS)(code_lens)
    server.command(BLAST_RADIUS_COMMAND)(blast_radius_command)
