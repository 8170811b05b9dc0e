"""ECMAScript files in chunks (``Language.chunked``): an edit re-extracts only the chunks whose
text changed, and re-resolves only their sites (``engine/chunks.py``): a keystroke in a method's
body costs that method, not the file.

A chunk is a top-level statement, or a member of a class declaration (``class C``, ``export
class C``): the class splits into its header (up to its body) and one chunk per member, as
Python's do; a member's chunk holds a copy of its class (symbol 1, scope 1) and what it adds to the
class's ``extra`` (properties: ``attrs``, ``tags``) is folded in by :func:`merge_member_extra`.
A chunk holds what its extraction reads of the statements around it:

- the overload signatures right before a function are one chunk with it (its range starts at the
  first, :func:`.extract.overloads_start`);
- assignments (``Foo.create = (...) => ...``, ``Foo.prototype.m = function``, and any other,
  ``_cache = new WeakMap();``) are one chunk with the statement before them: the function is a
  member of ``Foo`` when ``Foo`` is defined there (``Extractor.def_in_scope``; after a class,
  they are member chunks of it). A definition further up (another declaration in between) is not
  seen, by a fresh index or an edit alike;
- a class member's overload signatures are one chunk with its implementation, and its
  decorators (siblings before it in the class body) one chunk with it.

A file from disk is extracted chunk by chunk too (no ``Language.extract_whole``): measured on zod,
a first index costs about what one pass over the file did.

A chunk's scopes are its own: scope 0 is the module's, the others count up from 1, and its sites
name them so (``SiteExpr.scope``). The file's ``Facts.local`` keeps each chunk's scopes with the
index of its first site (:func:`merge_local`): a site's scopes are those of the chunk it is in
(:func:`scopes_of`). Symbol indices in the scopes (owners, ``this``, definitions) are the chunk's;
each part keeps where the merge placed the chunk's symbols (:class:`Placed`, from
:func:`rebase_local`), and the resolver maps them to the file's when it enters the part
(:meth:`ChunkScopes.scopes`). A merge after an edit that added or removed a symbol places every
chunk below it again: rebasing their scopes there cost ~3 ms on zod's ``types.ts`` (900 chunks),
for the few parts whose sites are resolved after.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import compress, count
from operator import is_not
from typing import Any, NamedTuple

import tree_sitter as ts

from .. import Span
from .._toolkit.values import join_attrs
from .extract import OVERLOADS
from .syntax import member_name

# what a chunk's extraction keeps in ``Facts.local`` and the merge joins
MODULE_SCOPE = (0, 0, ("none",), [], {}, {}, {})
THIS_SYMBOL = ("cls", "static", "obj", "fn")  # ``this`` kinds that name a symbol by index


def chunk_spans(root: ts.Node) -> list[Span]:
    """The top-level statements, grouped where one's extraction reads another (see the module);
    a class declaration splits into its header and its members, the statements grouped after it
    being members too (``Foo.create = ...`` sees ``Foo``, the member chunks' symbol 1). Asked on
    every keystroke: one walk over the statements and class bodies, each node's type read once,
    a class looked for only in a statement that may declare one."""
    spans: list[Span] = []
    add = spans.append
    groups, open_at = _groups(root.children, True)
    for i, (group, first_type) in enumerate(groups):
        first = group[0]
        cls = _class_of(first) if first_type in _CLASS_STATEMENTS else None
        body = cls.child_by_field_name("body") if cls is not None else None
        if body is None:
            last = group[-1]
            add(Span(first, first.start_byte, last.end_byte, first.start_point, last.end_point, None, None, i == open_at,
                     i == 0 and _joins_previous(first)))
            continue
        header = len(spans)
        add(Span(first, first.start_byte, body.start_byte, first.start_point, body.start_point, None, cls))
        members, member_open_at = _groups(body.children, False)
        for j, (m, _) in enumerate(members):
            a, b = m[0], m[-1]
            add(Span(first, a.start_byte, b.end_byte, a.start_point, b.end_point, header, None, j == member_open_at))
        if len(group) > 1:  # the statements grouped with the class (and the comments between them)
            last_end = group[-1].end_byte
            c = first.next_sibling
            while c is not None and c.start_byte < last_end:
                add(Span(first, c.start_byte, c.end_byte, c.start_point, c.end_point, header, None))
                c = c.next_sibling
    return spans


def _groups(children: list[ts.Node], top: bool) -> tuple[list[tuple[list[ts.Node], str]], int | None]:
    """Consecutive nodes in groups, a comment alone, each with its first node's type: a node
    joins the group before it when that group ends with an overload signature of its name (a ``;``
    after it aside; see :func:`_joins`) or a decorator (a class member's decorators are its siblings in TypeScript's tree: they
    are the member's, as Python's ``decorated_definition`` holds them, so a decorator typed above
    a member is an edit of that member's chunk), a ``;`` always, and at the top level an
    assignment statement (see the module); comments between them are in the group. A class
    body's braces are in none. And the index of the last group when it ends open (the node after
    it would join it: a part of the text that ends there splits there, the whole text not)."""
    out: list[tuple[list[ts.Node], str]] = []
    group: list[ts.Node] = []
    group_type = ""
    comments: list[tuple[ts.Node, str]] = []  # comments after the open group
    opener: ts.Node | None = None  # the open group ends with an overload signature or a decorator
    for child in children:
        t = child.type
        if "comment" in t:
            comments.append((child, t))
            continue
        if t == "{" or t == "}":
            continue
        if group and ((opener is not None and _joins(opener, child)) or (_joins_previous(child) if top else t == ";")):
            group.append(child)
            comments = []
        else:
            if group:
                out.append((group, group_type))
            if comments:
                out.extend(([c], ct) for c, ct in comments)
                comments = []
            group, group_type = [child], t
        if t != ";":
            opener = child if t in _JOINS_NEXT or (
                t == "export_statement" and (d := child.child_by_field_name("declaration")) is not None and d.type in OVERLOADS
            ) else None
    open_signature = opener is not None
    open_at = None
    if group:
        open_at = len(out) if open_signature else None
        out.append((group, group_type))
    out.extend(([c], ct) for c, ct in comments)
    return out, open_at


_JOINS_NEXT = (*OVERLOADS, "decorator")  # a node the node after it may join (see _joins)


def _joins(opener: ts.Node, node: ts.Node) -> bool:
    """Whether ``node`` joins the group that ends with ``opener``: a decorator's member always; an
    overload signature's, only a declaration of the same name (its implementation, or another
    signature: what ``extract.overloads_start`` reads). A signature followed by something else
    (``export function f(a: number)`` typed above an interface, before its body's ``{``) is a chunk
    of its own: the statement after it stays the chunk it was."""
    if opener.type == "decorator":
        return True
    name = _declared_name(opener)
    return name is None or _declared_name(node) == name


def _declared_name(node: ts.Node) -> str | None:
    """The name a statement or class member declares (``export`` unwrapped), None when it has none."""
    d = node.child_by_field_name("declaration") if node.type == "export_statement" else node
    return member_name(d.child_by_field_name("name")) if d is not None else None


CLASS_DECLARATIONS = ("class_declaration", "abstract_class_declaration")
_CLASS_STATEMENTS = (*CLASS_DECLARATIONS, "export_statement")


def _class_of(statement: ts.Node) -> ts.Node | None:
    """The class a statement declares (``class C``, ``export class C``, ``export default class C``)."""
    node = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
    if node is None and statement.type == "export_statement":
        node = next((c for c in statement.named_children if c.type in CLASS_DECLARATIONS), None)
    return node if node is not None and node.type in CLASS_DECLARATIONS else None


def container_of(node: ts.Node | None, lo: int) -> ts.Node | None:
    """The class a member chunk at byte ``lo`` belongs to, from the node its span names (the class's
    statement), or None: the chunk is a top-level statement."""
    if node is None or node.start_byte >= lo:
        return None
    if node.type in CLASS_DECLARATIONS:
        return node
    if node.type == "export_statement":
        return _class_of(node)
    # a tree of one member and its class's header (engine/parse.py member_region): the class around it
    n = node.descendant_for_byte_range(lo, lo)
    while n is not None and not (n.type in CLASS_DECLARATIONS and n.start_byte < lo):
        n = n.parent
    return n


def merge_member_extra(container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
    """What a member chunk adds to its class: the properties its constructor's parameters, its
    fields and its ``this.x = ...`` declare (``attrs``, ``tags``), in the order of the members."""
    attrs, tags = member.get("attrs"), member.get("tags")
    if not attrs and not tags:
        return container
    merged = dict(container)
    if attrs:
        merged["attrs"] = join_attrs(merged, attrs)
    if tags:
        merged["tags"] = {**merged.get("tags", {}), **tags}
    return merged


def _joins_previous(node: ts.Node) -> bool:
    """Whether a top-level statement joins the group before it, when there is one (see _groups):
    a part of the text that starts with it (engine/parse.py member_region) splits there, the whole
    text not."""
    return node.type == ";" or (node.type == "expression_statement" and _assignment(node))


def _assignment(node: ts.Node) -> bool:
    """An assignment as a statement: ``a.b = ...`` may define a member of ``a``; other assignments
    (``_cache = new WeakMap();``, as compilers emit them between a class and its members) keep
    such a statement with the definition above them."""
    e = node.named_child(0)
    return e is not None and e.type == "assignment_expression"


class Placed(NamedTuple):
    """Where the merge placed a chunk's symbols: its symbol 1 at ``first`` (a member's: its class),
    its symbols from 2 on at ``rest`` onwards (the engine's mapping ``[0, first, rest, rest + 1,
    ...]``)."""

    first: int
    rest: int

    def index(self, i: int) -> int:
        return i if i == 0 else self.first if i == 1 else self.rest + i - 2


def rebase_local(local: Any, mapping: list[int]) -> Any:
    """A chunk's scopes placed in the file by ``mapping[i]`` (its symbol i is the file's
    ``mapping[i]``): kept as the chunk's with where its symbols went (``placed``: a :class:`Placed`'s
    fields), mapped when resolved. A mapping of another shape is applied at once. A chunk without
    sites is kept as it is: the merge keeps only its module-level names."""
    if not local or not local.get("nsites"):  # (no site is resolved in its scopes: where is moot)
        return local
    n = len(mapping)
    if n > 2:
        rest = mapping[2]
        if mapping[-1] - rest != n - 3:  # (the engine's is one range from 2 on)
            return {**local, "scopes": _placed_scopes(local["scopes"], mapping.__getitem__)}
        first = mapping[1]
    else:
        first, rest = mapping[1] if n > 1 else 1, 2
    # asked of every chunk after an edit that added or removed a symbol: no record made on the way
    return local if first == 1 and rest == 2 else {**local, "placed": (first, rest)}


def _placed_scopes(scopes: list, index: Any) -> list:
    """Scopes with their symbol indices mapped by ``index``."""
    out = []
    for parent, owner, this, locals_, types, imports, defs in scopes:
        if this and this[0] in THIS_SYMBOL:
            this = (this[0], index(this[1]))
        out.append((parent, index(owner), this, locals_, types, imports,
                    {k: index(v) for k, v in defs.items()} if defs else defs))
    return out


class _Merge(NamedTuple):
    """A merge_local's parts and result, and each part's row in the result's table (-1: none)."""

    parts: list[Any]
    local: dict[str, Any]
    rows: list[int]


_last_merge: _Merge | None = None  # the last merge_local (a keystroke's merge is mostly the last one's)


def merge_local(parts: list[Any]) -> dict[str, Any]:
    """The file's ``Facts.local`` from its chunks' (in order): the module-level names of all of
    them, and each chunk's scopes with the index of its first site and where its symbols were
    placed (chunks without sites left out). A keystroke that changed a chunk's scopes merges the
    file's ~900 parts again: when the parts are the last merge's but for a few whose module-level
    names are as they were (and which had sites and have, or had none and have none), only their
    rows of the last table are made again, and the rows after them moved when their site counts
    changed (a call typed)."""
    global _last_merge
    last = _last_merge
    if last is not None and len(last.parts) == len(parts):
        changed = list(compress(count(), map(is_not, parts, last.parts)))
        if len(changed) <= 8 and all(_same_place(last.parts[i], parts[i]) for i in changed):
            table = list(last.local["parts"])
            moved, after = 0, 0  # sites the changed parts added (removed) so far; rows from ``after`` on start that much further
            for i in changed:
                k = last.rows[i]
                if k < 0:
                    continue
                if moved:
                    table[after:k] = [(r[0] + moved, *r[1:]) for r in table[after:k]]
                table[k] = _row(table[k][0] + moved, parts[i])
                moved += parts[i]["nsites"] - last.parts[i]["nsites"]
                after = k + 1
            if moved:  # (a call typed or removed: each row after it starts at another site)
                table[after:] = [(r[0] + moved, *r[1:]) for r in table[after:]]
            local = {**last.local, "mlocals": list(last.local["mlocals"]), "parts": table}
            _last_merge = _Merge(parts, local, last.rows)
            return local
    folder = ""
    mlocals: set[str] = set()
    table = []
    rows: list[int] = []
    at = 0
    for p in parts:
        if not p:
            rows.append(-1)
            continue
        folder = p["folder"]
        if p["mlocals"]:
            mlocals.update(p["mlocals"])
        n = p.get("nsites", 0)
        if n:
            rows.append(len(table))
            table.append(_row(at, p))
            at += n
        else:
            rows.append(-1)
    local = {"folder": folder, "mlocals": sorted(mlocals), "parts": table}
    _last_merge = _Merge(parts, local, rows)
    return local


def _row(at: int, part: dict[str, Any]) -> tuple:
    """A chunk's row of the file's table of scopes: its first site, its scopes, where its symbols
    were placed (when not where its extraction numbered them)."""
    placed = part.get("placed")
    return (at, part["scopes"]) if placed is None else (at, part["scopes"], placed)


def _same_place(a: Any, b: Any) -> bool:
    """Whether a chunk's part ``b`` takes ``a``'s place in a merge: both empty, or both of the
    same folder and module-level names, both with sites or both without (so the other rows and
    names stand, the rows after it moved by the difference of their site counts)."""
    if not a or not b:
        return not a and not b
    return (a["folder"] == b["folder"] and a["mlocals"] == b["mlocals"]
            and bool(a.get("nsites", 0)) == bool(b.get("nsites", 0)))


class ChunkScopes:
    """The scopes a site of a file is resolved in: its chunk's (a file extracted whole has one)."""

    def __init__(self, local: dict[str, Any]) -> None:
        parts = local.get("parts")
        if parts is None:  # one scope list for the whole file
            parts = [(0, local.get("scopes", [MODULE_SCOPE]))]
        self.starts = [p[0] for p in parts]
        self.parts = parts

    def part_of(self, site: int) -> int:
        return max(0, bisect_right(self.starts, site) - 1)

    def scopes(self, part: int) -> list:
        """The scopes of chunk ``part``, their symbol indices the file's."""
        if not self.parts:
            return [MODULE_SCOPE]
        got = self.parts[part]
        if len(got) < 3:
            return got[1]
        return _placed_scopes(got[1], Placed(*got[2]).index)


def scopes_of(local: dict[str, Any] | None) -> ChunkScopes:
    return ChunkScopes(local or {})
