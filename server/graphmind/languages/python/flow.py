"""Which bindings of a function's local reach a use: the assignments in order, not all at once.

A local bound several times (``field = Cast(field)`` … ``field = field.asc()`` …
``field.copy()``) has at a use only the values of the bindings that can reach it: the last one
before it in straight-line code; at a join after ``if``/``else``, ``try`` or a loop, the union of
the branches'; in a loop, also the bindings later in its body (the next iteration). Python has no
``goto``, so reaching is decided on the syntax tree, with no control-flow graph:

- a binding *reaches* a use that follows where its value appears (``Def.at``), or any use in a
  loop that contains both (the next iteration);
- a *kill* (``Kill``) is a statement that certainly rebinds the name whenever a block runs on
  past it: an assignment statement of the block, a loop's target for its body, an ``if`` whose
  every branch rebinds the name (or leaves the block: ``return``, ``raise``, ``break``,
  ``continue``), a ``try`` whose body and handlers all do, a ``with`` whose body does. For a use
  in that block after the kill, every binding is killed except those between the kill's start and
  the end of the block's statement that holds the use (a binding there runs after the kill).

An ``if not isinstance(x, T):`` without ``else`` whose body rebinds ``x`` leaves ``x`` a ``T``
when the body did not run: that branch is a binding of its own, stating ``T``.

What the walk can't decide stays the union, as before: a binding form it does not record (a
``match`` pattern, ``except … as``, ``del``), a name of an outer scope or a use in a ``lambda``
(a closure runs later), a class body. An exception is taken to leave the block it is raised
in (a ``with`` whose context manager suppresses it is read as running its body to the end). The result is an expression ``('l', evidence indices, chain)``: the local
``chain[0]`` with only those entries of its scope's evidence (see ``resolve._Resolver.lookup``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import tree_sitter as ts

Expr = tuple[str, Any, list[str]]

_LOOPS = frozenset({"for_statement", "while_statement"})
_JUMPS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_COMPOUND = frozenset({"if_statement", "try_statement", "with_statement"})
_CONDITION_WRAPPERS = frozenset({"parenthesized_expression", "comparison_operator", "not_operator"})


class Def(NamedTuple):
    """One binding of a name: where its statement starts, where its value is bound (a use from
    there on sees it), its evidence's index in the scope's list (None: it states nothing), where
    its value expression starts (for the locals in it), and the range it is visible in (a
    comprehension's variable) or None."""

    start: int
    at: int
    ev: int | None
    value: int
    within: tuple[int, int] | None
    node: ts.Node | None  # the binding's statement (None for a parameter; the ``if`` of a narrowing)
    kind: str


class Kill(NamedTuple):
    """Uses in ``block`` (its range, its key) from ``after`` on see no binding made before ``start``."""

    start: int
    after: int
    bstart: int
    bend: int
    block: int  # the block's node id


def _kill(start: int, after: int, block: ts.Node) -> Kill:
    return Kill(start, after, block.start_byte, block.end_byte, _key(block))


def _key(node: ts.Node) -> int:
    return node.id  # one node of the tree, however many Python objects stand for it


def _bound_names(left: ts.Node) -> list[str]:
    t = left.type
    if t == "identifier":
        return [left.text.decode("utf-8", "replace")] if left.text is not None else []
    if t in ("pattern_list", "tuple_pattern", "list_pattern", "parenthesized_expression", "list_splat_pattern"):
        return [n for c in left.named_children for n in _bound_names(c)]
    return []


class ScopeFlow:
    """The bindings of one function's locals, recorded as the extractor meets them, and the
    questions asked after: which of them reach a use."""

    def __init__(self, fn: ts.Node) -> None:
        self.fn = fn
        # as met: name -> (node, kind, evidence index, value node); read into ``defs`` by
        # :meth:`prepare` for the names bound more than once (most functions have none)
        self.raw: dict[str, list[tuple[ts.Node | None, str, int | None, ts.Node | None]]] = {}
        self.defs: dict[str, list[Def]] = {}
        self._kills: dict[str, list[Kill]] = {}
        self._covers: dict[tuple[int, str], bool] = {}
        self._ends_memo: dict[int, dict[Any, int]] = {}
        self._loops_memo: dict[int, list[tuple[int, int]]] = {}

    def param(self, name: str, ev: int | None) -> None:
        self.raw.setdefault(name, []).append((None, "param", ev, None))

    def bind(self, name: str, node: ts.Node, kind: str, ev: int | None, value: ts.Node | None) -> None:
        """``node``: the assignment (``assign``), the ``for`` statement (``for``), the
        ``for_in_clause`` (``comp``), the ``with`` statement (``with``), the walrus (``walrus``)."""
        self.raw.setdefault(name, []).append((node, kind, ev, value))

    def multi(self, types: dict[str, list[tuple]]) -> bool:
        """Is any local that the code states something about bound more than once (else nothing
        is restricted)?"""
        return any(len(ds) > 1 and name in types for name, ds in self.raw.items())

    def prepare(self, types: dict[str, list[tuple]]) -> None:
        """The bindings of the names bound more than once, as :class:`Def`."""
        for name, raw in self.raw.items():
            if len(raw) > 1 and name in types:
                self.defs[name] = [self._def(*r) for r in raw]

    @staticmethod
    def _def(node: ts.Node | None, kind: str, ev: int | None, value: ts.Node | None) -> Def:
        if node is None:
            return Def(-1, -1, ev, -1, None, None, "param")
        within = None
        if kind == "assign":
            while node.parent is not None and node.parent.type == "assignment":  # ``a = b = f()``
                node = node.parent
            start, at = node.start_byte, node.end_byte
        elif kind in ("for", "with"):
            body = node.child_by_field_name("body")
            start, at = node.start_byte, body.start_byte if body is not None else node.end_byte
        elif kind == "comp":
            comp = node.parent or node
            start = at = comp.start_byte
            within = (comp.start_byte, comp.end_byte)
        else:
            start, at = node.start_byte, node.end_byte
        vpos = value.start_byte if value is not None else start
        return Def(start, at, ev, vpos, within, node, kind)

    # --- kills
    def kills(self, name: str, types: dict[str, list[tuple]]) -> list[Kill]:
        got = self._kills.get(name)
        if got is None:
            got = self._kills[name] = self._find_kills(name, types)
        return got

    def _find_kills(self, name: str, types: dict[str, list[tuple]]) -> list[Kill]:
        out: dict[int, Kill] = {}
        for d in list(self.defs.get(name, [])):
            node = d.node
            if node is None or d.kind == "narrowed":
                continue
            if d.kind == "assign":
                stmt = _statement(node)
                if _is_block(stmt.parent):
                    out.setdefault(stmt.start_byte, _kill(stmt.start_byte, stmt.end_byte, stmt.parent))  # type: ignore[arg-type]
                node = stmt
            elif d.kind in ("for", "with"):
                body = node.child_by_field_name("body")
                if body is not None:
                    out.setdefault(node.start_byte, _kill(node.start_byte, body.start_byte, body))
            elif d.kind == "comp":
                comp = node.parent
                if comp is not None:
                    out.setdefault(comp.start_byte, _kill(comp.start_byte, comp.start_byte, comp))
                continue
            elif d.kind == "walrus":
                stmt = _condition_of(node)
                if stmt is not None and _is_block(stmt.parent):
                    out.setdefault(node.start_byte, _kill(node.start_byte, node.end_byte, stmt.parent))  # type: ignore[arg-type]
            # the compound statements around the binding that rebind the name on every path
            a = node.parent
            while a is not None and a != self.fn:
                if a.type in _COMPOUND and _is_block(a.parent) and self.covers(a, name, types):
                    out.setdefault(a.start_byte, _kill(a.start_byte, a.end_byte, a.parent))  # type: ignore[arg-type]
                a = a.parent
        return sorted(out.values())

    def covers(self, s: ts.Node, name: str, types: dict[str, list[tuple]]) -> bool:
        """Does every path through statement ``s`` that runs on past it rebind ``name``?"""
        key = (_key(s), name)
        got = self._covers.get(key)
        if got is None:
            self._covers[key] = False  # nothing recursive, but never twice
            got = self._covers[key] = self._cover(s, name, types)
        return got

    def _cover(self, s: ts.Node, name: str, types: dict[str, list[tuple]]) -> bool:
        t = s.type
        if t in _JUMPS:
            return True
        if t in ("expression_statement", "assignment"):  # (grammars differ on the wrapper)
            for c in s.named_children if t == "expression_statement" else [s]:
                while c.type == "assignment":
                    left = c.child_by_field_name("left")
                    if left is not None and name in _bound_names(left):
                        return True
                    c = c.child_by_field_name("right") or c
                    if c.type != "assignment":
                        break
            return False
        if t == "with_statement":
            return self._block_covers(s.child_by_field_name("body"), name, types)
        if t == "try_statement":
            fin = next((c for c in s.named_children if c.type == "finally_clause"), None)
            if fin is not None and self._block_covers(_block_of(fin), name, types):
                return True
            handlers = [c for c in s.named_children if c.type in ("except_clause", "except_group_clause")]
            return self._block_covers(s.child_by_field_name("body"), name, types) and all(
                self._block_covers(_block_of(h), name, types) for h in handlers
            )
        if t == "if_statement":
            body = s.child_by_field_name("consequence")
            if not self._block_covers(body, name, types):
                return False
            alternatives = s.children_by_field_name("alternative")
            if not alternatives:
                return self._narrowing_branch(s, name, types)
            for alt in alternatives:
                block = alt.child_by_field_name("consequence" if alt.type == "elif_clause" else "body")
                if not self._block_covers(block, name, types):
                    return False
            return alternatives[-1].type == "else_clause"
        return False

    def _block_covers(self, block: ts.Node | None, name: str, types: dict[str, list[tuple]]) -> bool:
        return block is not None and any(self.covers(c, name, types) for c in block.named_children)

    def _narrowing_branch(self, s: ts.Node, name: str, types: dict[str, list[tuple]]) -> bool:
        """``if not isinstance(name, T): <rebinds name>`` without ``else``: when the body does not
        run, ``name`` is a ``T`` — a binding of its own (its evidence appended to the scope's)."""
        from .extract import _isinstance_checks  # the extractor's reading of an isinstance test

        cond = s.child_by_field_name("condition")
        while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
            cond = cond.named_children[0]
        if cond is None or cond.type != "not_operator":
            return False
        arg = cond.child_by_field_name("argument")
        checks = list(_isinstance_checks(arg)) if arg is not None else []
        if len(checks) != 1 or checks[0][0] != [name]:
            return False
        evs = checks[0][1]
        lst = types.setdefault(name, [])
        ev = ("any", evs) if len(evs) > 1 else evs[0]
        self.defs[name].append(Def(s.start_byte, s.end_byte, len(lst), s.start_byte, None, s, "narrowed"))
        lst.append(ev)
        return True

    # --- uses
    def reaching(self, name: str, pos: int, types: dict[str, list[tuple]]) -> tuple[int, ...] | None:
        """The indices of ``types[name]`` whose bindings can reach a use of ``name`` at ``pos``;
        None when that is all of them (nothing to restrict)."""
        defs = self.defs.get(name)
        if defs is None or len(defs) < 2 or not types.get(name):
            return None  # one binding, or none that states anything: nothing to restrict
        kills = self.kills(name, types)
        applicable = [k for k in kills if k.after <= pos and k.bstart <= pos < k.bend]
        if not applicable and all(d.at <= pos and d.within is None for d in defs):
            return None  # every binding is before the use, none killed: all of them
        ends = self._ends(pos) if applicable else None
        if ends is not None and ends.get("lambda"):
            return None  # runs when called, after any binding
        keep: set[int] = set()
        for d in defs:
            if d.within is not None and not d.within[0] <= pos < d.within[1]:
                continue
            if d.at > pos and not any(a <= pos < b for a, b in self._loops(d)):
                continue  # after the use, and no loop around both brings it back
            if ends is not None and any(not k.start <= d.start < ends.get(k.block, -1) for k in applicable):
                continue
            if d.ev is not None:
                keep.add(d.ev)
        known = {d.ev for d in defs if d.ev is not None}
        total = len(types.get(name, ()))
        keep |= {i for i in range(total) if i not in known}  # evidence of no recorded binding
        if len(keep) == total:
            return None
        if ends is None and self._ends(pos).get("lambda"):
            return None
        return tuple(sorted(keep))

    def _ends(self, pos: int) -> dict[Any, int]:
        """For each node around ``pos`` (by key), the end of its child that holds ``pos``; and
        ``'lambda'``: whether a lambda is around it."""
        got = self._ends_memo.get(pos)
        if got is not None:
            return got
        ends: dict[Any, int] = {}
        n = self.fn.descendant_for_byte_range(pos, pos)
        while n is not None and n != self.fn:
            p = n.parent
            if p is None:
                break
            if p.type == "lambda":
                ends["lambda"] = 1
            ends[_key(p)] = n.end_byte
            n = p
        self._ends_memo[pos] = ends
        return ends

    def _loops(self, d: Def) -> list[tuple[int, int]]:
        """The loops around a binding (their ranges)."""
        got = self._loops_memo.get(d.start)
        if got is None:
            got = []
            n = d.node.parent if d.node is not None else None
            while n is not None and n != self.fn:
                if n.type in _LOOPS:
                    got.append((n.start_byte, n.end_byte))
                n = n.parent
            self._loops_memo[d.start] = got
        return got

    def restrict(self, e: Expr, pos: int, types: dict[str, list[tuple]], skip: set[str]) -> Expr:
        """``e`` with its head local (and the locals of its inner calls and subscripts) limited to
        the bindings that reach ``pos``."""
        base, arg, chain = e
        if base in ("c", "x") and arg is not None:
            inner = self.restrict(arg, pos, types, skip)
            return e if inner is arg else (base, inner, chain)
        if base != "n" or not chain or chain[0] in skip or chain[0] not in self.defs:
            return e
        only = self.reaching(chain[0], pos, types)
        return e if only is None else ("l", only, chain)

    def restrict_evidence(self, ev: tuple, pos: int, types: dict[str, list[tuple]], skip: set[str]) -> tuple:
        """An evidence tuple with the locals in its expressions restricted (see :meth:`restrict`)."""
        kind = ev[0]
        if kind in ("call", "val"):
            e = self.restrict(ev[1], pos, types, skip)
            return ev if e is ev[1] else (kind, e)
        if kind == "same":
            e = self.restrict(ev[1], pos, types, skip)
            sub = self.restrict_evidence(ev[2], pos, types, skip)
            return ev if e is ev[1] and sub is ev[2] else (kind, e, sub)
        if kind in ("iter", "part", "enter"):
            sub = self.restrict_evidence(ev[1], pos, types, skip)
            return ev if sub is ev[1] else (kind, sub, ev[2])
        if kind == "any":
            subs = [self.restrict_evidence(s, pos, types, skip) for s in ev[1]]
            return ev if all(a is b for a, b in zip(subs, ev[1], strict=True)) else (kind, subs)
        return ev



def _statement(node: ts.Node) -> ts.Node:
    """The statement an assignment is: itself, or its ``expression_statement``."""
    p = node.parent
    return p if p is not None and p.type == "expression_statement" else node


def _is_block(node: ts.Node | None) -> bool:
    return node is not None and node.type == "block"


def _block_of(clause: ts.Node) -> ts.Node | None:
    return next((c for c in clause.named_children if c.type == "block"), None)


def _condition_of(walrus: ts.Node) -> ts.Node | None:
    """The ``if`` statement whose condition evaluates the walrus on every path (None if another)."""
    child, p = walrus, walrus.parent
    while p is not None and p.type in _CONDITION_WRAPPERS:
        child, p = p, p.parent
    if p is not None and p.type == "if_statement" and p.child_by_field_name("condition") == child:
        return p
    return None
