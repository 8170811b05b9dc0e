"""ECMAScript's part of the link layer (TypeScript, TSX, JavaScript): the shapes of calls that may
be links (see :mod:`graphmind.links`), and the default patterns — Node's EventEmitter, DOM events,
NestJS's ``@OnEvent``; ``fetch``, axios, ky, got clients; Express-style routes."""

from __future__ import annotations

import tree_sitter as ts

from ...links import Patterns, verbs
from ...links.shapes import FN, LIST, NAME, OTHER, STR, TPL, Arg, CallShape, after_at, plain, quoted, wanted
from ...model import REF, SiteFact, SymbolFact

PATTERNS = Patterns(
    emit=frozenset({"emit", "dispatchEvent", "publish", "trigger", "dispatch", "fire", "broadcast"}),
    subscribe=frozenset({"on", "once", "addListener", "prependListener", "prependOnceListener", "addEventListener", "subscribe"}),
    decorators=frozenset({"OnEvent", "On", "Subscribe"}),
    clients=frozenset({"axios", "http", "api", "client", "ky", "got", "superagent", "request", "$http"}),
    client_functions=frozenset({"fetch", "axios", "ky", "got", "$fetch", "ofetch"}),
)
VERBS = verbs(PATTERNS)


def _text(node: ts.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _dotted(node: ts.Node) -> str | None:
    if node.type in ("identifier", "this", "property_identifier"):
        return _text(node)
    if node.type == "member_expression":
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        base = _dotted(obj) if obj is not None else None
        return f"{base}.{_text(prop)}" if base is not None and prop is not None else None
    return None


def _string(node: ts.Node, keyword: str = "") -> Arg:
    parts: list[str] = []
    computed = False
    for c in node.named_children:
        if c.type in ("string_fragment", "escape_sequence"):
            parts.append(_text(c))
        elif c.type == "template_substitution":
            parts.append("{}")
            computed = True
    return Arg(TPL if computed else STR, "".join(parts), -1, keyword)


def _value(node: ts.Node, at: int, keyword: str = "") -> Arg:
    t = node.type
    if t in ("string", "template_string"):
        return _string(node, keyword)
    if t == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and _text(op) == "+" and left is not None and right is not None:
            la, ra = _value(left, at), _value(right, at)
            if la.kind in (STR, TPL) or ra.kind in (STR, TPL):
                kind = STR if la.kind == ra.kind == STR else TPL
                return Arg(kind, "".join(a.value if a.kind in (STR, TPL) else "{}" for a in (la, ra)), -1, keyword)
        return Arg(OTHER, "", -1, keyword)
    if t in ("identifier", "member_expression"):
        dotted = _dotted(node)
        if dotted is None:
            return Arg(OTHER, "", -1, keyword)
        name_node = node.child_by_field_name("property") if t == "member_expression" else node
        # (its REF site by position, from the call's start: see _read)
        site = (name_node.start_byte - at, name_node.end_byte - at) if name_node is not None else -1
        return Arg(NAME, dotted, site, keyword)
    if t in ("arrow_function", "function_expression", "function"):
        return Arg(FN, "", -1, keyword)
    if t == "array":
        return Arg(LIST, tuple(_value(c, at) for c in node.named_children), -1, keyword)
    if t == "new_expression":  # dispatchEvent(new Event("click")): the event's name
        args = node.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        if first is not None and first.type == "string":
            return _string(first, keyword)
    return Arg(OTHER, "", -1, keyword)


def _args(call: ts.Node) -> tuple[Arg, ...]:
    """A call's arguments, a NAME's site the offsets of its name from the call's start."""
    at = call.start_byte
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "arguments":
        return ()
    out: list[Arg] = []
    for a in args.named_children:
        if a.type == "object":  # an options object: its string-keyed values as keyword arguments
            out.append(Arg(OTHER, ""))
            for pair in a.named_children:
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if pair.type == "pair" and key is not None and value is not None:
                    out.append(_value(value, at, _text(key).strip("'\"")))
        elif a.type != "comment":
            out.append(_value(a, at))
    return tuple(out)


def _decorated(call: ts.Node, defs: dict[int, int]) -> int:
    deco = call.parent
    if deco is None or deco.type != "decorator":
        return -1
    holder = deco.parent
    if holder is not None and holder.type == "class_body":  # a member's decorators precede it
        holder = deco.next_named_sibling
        while holder is not None and (holder.type == "decorator" or "comment" in holder.type):
            holder = holder.next_named_sibling
    return defs.get(holder.start_byte, -1) if holder is not None else -1


_BLANK = frozenset(b" \t\r\n\f")


def _maybe_link(call: ts.Node, method: str, src: bytes) -> bool:
    """Whether a call may be kept (``links.shapes.wanted``), from its text alone: a link verb, a
    decorator's call (its '@' before it), or a quote (string and template literals)."""
    start, end = call.start_byte, call.end_byte
    return method in VERBS or after_at(src, start, _BLANK) or quoted(src, start, end, b"\"'`")


# What a call says (its callee, dotted; its arguments, a NAME's site as offsets from the call's
# start), by grammar, text and node count: a keystroke re-extracts its whole member, whose calls
# are, all but one, the text they were at the last key. A call with a syntax error in it is read
# afresh (error recovery may read the same text otherwise elsewhere).
_READ: dict[tuple[str, bytes, int], tuple[str | None, tuple[Arg, ...]]] = {}
MAX_READ = 4096


def _read(call: ts.Node, grammar: str, src: bytes) -> tuple[str | None, tuple[Arg, ...]]:
    """(the callee dotted or None, the arguments) of a call, from its text's memo or its nodes."""
    key = (grammar, src[call.start_byte : call.end_byte], call.descendant_count)
    got = _READ.get(key)
    if got is None:
        fn = call.child_by_field_name("function")
        dotted = _dotted(fn) if fn is not None else None
        got = (dotted, _args(call) if dotted is not None else ())
        if not call.has_error:
            if len(_READ) >= MAX_READ:
                _READ.clear()
            _READ[key] = got
    return got


def _placed(a: Arg, at: int, refs: dict[tuple[int, int], int]) -> Arg:
    """An argument read by :func:`_read` of a call at byte ``at``: a NAME's site its REF site's index."""
    if a.kind == NAME and a.site != -1:
        return Arg(NAME, a.value, refs.get((at + a.site[0], at + a.site[1]), -1), a.keyword)
    if a.kind == LIST:
        return Arg(LIST, tuple(_placed(x, at, refs) for x in a.value), -1, a.keyword)
    return a


def shapes(calls: list[tuple[int, ts.Node]], sites: list[SiteFact], symbols: list[SymbolFact], src: bytes,
           grammar: str) -> list[tuple]:
    """The shapes worth keeping of a file's calls (``calls``: (CALL site index, call node));
    ``src``: the text they were parsed from by ``grammar``."""
    if not calls:
        return []
    refs: dict[tuple[int, int], int] | None = None
    defs: dict[int, int] | None = None
    out: list[tuple] = []
    for site, node in calls:
        # most calls are not kept: told from the site's name (the callee's last name, as
        # _dotted's last part) and the call's text before its callee is read
        if sites[site].name not in VERBS and not after_at(src, node.start_byte, _BLANK) and not quoted(
            src, node.start_byte, node.end_byte, b"\"'`"
        ):
            continue
        dotted, args = _read(node, grammar, src)
        if dotted is None or not _maybe_link(node, dotted.rpartition(".")[2], src):
            continue
        if refs is None or defs is None:
            refs = {(s.start_byte, s.end_byte): i for i, s in enumerate(sites) if s.kind == REF}
            defs = {s.start_byte: i for i, s in enumerate(symbols) if i > 0}
        at = node.start_byte
        placed = tuple(_placed(a, at, refs) for a in args)
        shape = CallShape(site, tuple(dotted.split(".")), placed, _decorated(node, defs), sites[site].caller)
        if wanted(shape, VERBS):
            out.append(plain(shape))
    return out
