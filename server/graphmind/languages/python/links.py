"""Python's part of the link layer: the shapes of calls that may be links (see
:mod:`graphmind.links`), and the default patterns — a generic event bus, Django signals, Celery
tasks; requests / httpx clients; FastAPI, Flask and Django routes."""

from __future__ import annotations

import re

import tree_sitter as ts

from ...links import Patterns, verbs
from ...links.shapes import FN, LIST, NAME, OTHER, STR, TPL, Arg, CallShape, after_at, plain, quoted, wanted
from ...model import REF, SiteFact, SymbolFact

PATTERNS = Patterns(
    emit=frozenset({"emit", "publish", "send", "dispatch", "trigger", "fire", "broadcast"}),
    subscribe=frozenset({"on", "once", "subscribe", "add_listener", "add_handler", "listen"}),
    decorators=frozenset({"on", "once", "subscribe", "listener", "handler", "event_handler", "listen"}),
    signal_emit=frozenset({"send", "send_robust", "delay", "apply_async"}),
    signal_connect=frozenset({"connect"}),
    signal_decorators=frozenset({"receiver"}),
    task_decorators=frozenset({"task", "shared_task", "actor"}),
    clients=frozenset({"requests", "httpx", "session", "client", "async_client", "http"}),
    client_functions=frozenset(),
    route_decorators=frozenset({"route", "api_route"}),
    route_functions=frozenset({"path", "re_path", "url"}),
)
VERBS = verbs(PATTERNS)

_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx]")


def _text(node: ts.Node) -> str:
    text = node.text  # each read copies the bytes from the source
    return text.decode("utf-8", "replace") if text is not None else ""


def _dotted(node: ts.Node) -> str | None:
    if node.type == "identifier":
        return _text(node)
    if node.type == "attribute":
        obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
        base = _dotted(obj) if obj is not None else None
        return f"{base}.{_text(attr)}" if base is not None and attr is not None else None
    return None


def _string(node: ts.Node, keyword: str = "") -> Arg:
    """A string literal: STR, or TPL for an f-string (bytes are not text: OTHER)."""
    kids = node.children
    start = next((c for c in kids if c.type == "string_start"), None)
    prefix = _text(start).lower() if start is not None else ""
    if "b" in prefix:
        return Arg(OTHER, "", -1, keyword)
    parts: list[str] = []
    computed = False
    for c in kids:
        if c.type == "string_content":
            parts.append(_text(c))
        elif c.type == "interpolation":
            parts.append("{}")
            computed = True
        elif c.type == "escape_sequence":
            parts.append(_text(c))
    text = "".join(parts)
    return Arg(TPL if computed else STR, text, -1, keyword)


def _value(node: ts.Node, refs: dict[tuple[int, int], int], keyword: str = "") -> Arg:
    t = node.type
    if t == "string":
        return _string(node, keyword)
    if t == "concatenated_string":
        parts = [_string(c) for c in node.named_children if c.type == "string"]
        if any(p.kind == OTHER for p in parts):
            return Arg(OTHER, "", -1, keyword)
        kind = TPL if any(p.kind == TPL for p in parts) else STR
        return Arg(kind, "".join(p.value for p in parts), -1, keyword)
    if t == "binary_operator":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is None or left is None or right is None:
            return Arg(OTHER, "", -1, keyword)
        la = _value(left, refs)
        if _text(op) == "%" and la.kind in (STR, TPL):  # "/orders/%s" % oid
            return Arg(TPL, _PERCENT.sub("{}", la.value), -1, keyword)
        if _text(op) == "+":
            ra = _value(right, refs)
            if la.kind in (STR, TPL) or ra.kind in (STR, TPL):
                parts = [a.value if a.kind in (STR, TPL) else "{}" for a in (la, ra)]
                kind = STR if la.kind == ra.kind == STR else TPL
                return Arg(kind, "".join(parts), -1, keyword)
        return Arg(OTHER, "", -1, keyword)
    if t in ("identifier", "attribute"):
        dotted = _dotted(node)
        if dotted is None:
            return Arg(OTHER, "", -1, keyword)
        name_node = node.child_by_field_name("attribute") if t == "attribute" else node
        site = refs.get((name_node.start_byte, name_node.end_byte), -1) if name_node is not None else -1
        return Arg(NAME, dotted, site, keyword)
    if t == "lambda":
        return Arg(FN, "", -1, keyword)
    if t in ("list", "tuple"):
        return Arg(LIST, tuple(_value(c, refs) for c in node.named_children), -1, keyword)
    return Arg(OTHER, "", -1, keyword)


def _args(call: ts.Node, refs: dict[tuple[int, int], int]) -> tuple[Arg, ...]:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return ()
    out: list[Arg] = []
    for a in args.named_children:
        if a.type == "keyword_argument":
            name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
            if name is not None and value is not None:
                out.append(_value(value, refs, _text(name)))
        elif a.type in ("list_splat", "dictionary_splat", "comment"):
            continue
        else:
            out.append(_value(a, refs))
    return tuple(out)


_STRINGY = frozenset({"string", "concatenated_string", "binary_operator", "list", "tuple", "keyword_argument"})


def _quoted(call: ts.Node, src: bytes) -> bool:
    """Whether a call may have a string argument: a quote in its text, then a cheap test on the
    arguments' node types."""
    if not quoted(src, call.start_byte, call.end_byte, b"\"'"):
        return False
    args = call.child_by_field_name("arguments")
    return args is not None and any(a.type in _STRINGY for a in args.named_children)


_BLANK = frozenset(b" \t\r\n\f\\")  # blanks, and the backslash of a line continuation


class _Defs:
    """A chunk's definitions by start byte, made when a decorator asks (most chunks have none)."""

    def __init__(self, symbols: list[SymbolFact]) -> None:
        self.symbols = symbols
        self.by_start: dict[int, int] | None = None

    def get(self, start: int, default: int) -> int:
        if self.by_start is None:
            self.by_start = {s.start_byte: i for i, s in enumerate(self.symbols) if i > 0}
        return self.by_start.get(start, default)


def _decorated(node: ts.Node, defs: _Defs, src: bytes) -> int:
    """The symbol a decorator (or the call in it) decorates; -1 when ``node`` is not one."""
    # a decorator's expression follows its '@' after blanks or line continuations only
    if not after_at(src, node.start_byte, _BLANK):
        return -1
    deco = node.parent
    if deco is None or deco.type != "decorator":
        return -1
    holder = deco.parent
    target = holder.child_by_field_name("definition") if holder is not None and holder.type == "decorated_definition" else None
    return defs.get(target.start_byte, -1) if target is not None else -1


def shapes(
    calls: list[tuple[int, ts.Node]], bare: list[tuple[int, ts.Node]], sites: list[SiteFact], symbols: list[SymbolFact],
    src: bytes,
) -> list[tuple]:
    """The shapes worth keeping of a file's (or chunk's) calls — ``calls``: (CALL site index, call
    node) — and bare decorators — ``bare``: (REF site index, decorator expression); ``src``: the
    text they were parsed from."""
    if not calls and not bare:
        return []
    refs: dict[tuple[int, int], int] | None = None
    defs = _Defs(symbols)
    out: list[tuple] = []
    for site, node in calls:
        decorates = _decorated(node, defs, src)
        if decorates < 0 and sites[site].name not in VERBS and not _quoted(node, src):
            continue  # most calls: no link (checked before reading the arguments)
        fn = node.child_by_field_name("function")
        dotted = _dotted(fn) if fn is not None else None
        if dotted is None:
            continue
        if refs is None:
            refs = {(s.start_byte, s.end_byte): i for i, s in enumerate(sites) if s.kind == REF}
        shape = CallShape(site, tuple(dotted.split(".")), _args(node, refs), decorates, sites[site].caller)
        if wanted(shape, VERBS):
            out.append(plain(shape))
    for site, node in bare:
        target = _decorated(node, defs, src)
        dotted = _dotted(node)
        if target >= 0 and dotted is not None:
            out.append(plain(CallShape(site, tuple(dotted.split(".")), None, target, sites[site].caller)))
    return out
