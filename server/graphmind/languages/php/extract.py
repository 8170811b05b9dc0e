"""PHP extraction: classes, interfaces, traits, enums, functions and methods, call sites, and the
types of locals and properties of one file, from the captures of ``queries/php/tags.scm``.

Qualified names are PHP's, dotted: a class ``App.Models.User`` (classes and functions are global
in PHP, wherever they are declared: a class declared inside a function is still
``<namespace>.<name>``), a method ``App.Models.User.save``, a constructor
``App.Models.User.__construct`` (kind ``constructor``). A file's module is its (first) namespace;
a file without one is named from its path, or by Composer's PSR-4 map (``module``, see
:mod:`.composer`). Names become candidate qualified names here, by PHP's rules
(:class:`~.syntax.Names`); the resolver takes the first the workspace defines.

A site's ``expr`` is ``(kind, receiver Expr | None, function candidates | None)``: kind ``f`` a
function call, ``m`` a method call (``$x->m()``), ``s`` a scoped call (``Foo::m()``), ``n`` an
instantiation (``new Foo``). A scope's locals map a variable to its evidence: ``("t", classes)``
a declared type (parameter, ``catch``; ``("d", classes)``: ``@var`` / ``@param``; ``("de", classes)``
the classes of its elements), ``("e", Expr, at)`` a value assigned at byte ``at``, ``("f", Expr, at)``
an element of the value ``foreach`` iterates, ``("n", classes, start, end)`` an ``instanceof`` check that holds in the bytes
[start, end) (:func:`_narrowing`; a property read on ``$this`` is the variable ``this.<name>``; ``("nu", [classes, ...],
start, end)``: one of several, ``$x instanceof A || $x instanceof B``).
"""

from __future__ import annotations

from typing import Any

import tree_sitter as ts

from ...model import CALL, Facts, SiteFact, SymbolFact
from .._toolkit import in_scopes
from .._toolkit.nodes import rng, text
from .syntax import (
    CLASS_KINDS,
    SAME,
    Expr,
    ExprKind,
    Names,
    call_receiver,
    class_type,
    doc_elements,
    doc_types,
    new_expr,
    receiver,
    signature,
)

# The kind of symbol each declaration node is (the query tags them ``@definition.*``).
DECLARATION_KINDS = {
    "class_declaration": "class", "interface_declaration": "interface", "trait_declaration": "trait",
    "enum_declaration": "enum", "method_declaration": "method", "function_definition": "function",
}
_DEFINITIONS = frozenset({"definition.class", "definition.interface", "definition.trait", "definition.enum",
                          "definition.method", "definition.function"})
_OTHERS = frozenset({"field", "trait.use", "reference.call", "reference.class", "param", "local", "assign.prop",
                     "catch", "doc", "instanceof", "foreach", "return"})
_KINDS = _DEFINITIONS | _OTHERS | {"namespace", "import"}
# Site kinds (the first item of a site's expr).
FUNCTION, METHOD, SCOPED, NEW = "f", "m", "s", "n"


class _Section:
    """A namespace's stretch of the file (``namespace A;`` up to the next one, or ``namespace A
    { ... }``) and its names."""

    __slots__ = ("start", "end", "names")

    def __init__(self, start: int, end: int, ns: str) -> None:
        self.start, self.end, self.names = start, end, Names(ns)


def _sections(spaces: list[ts.Node], size: int) -> list[_Section]:
    out = [_Section(0, size + 1, "")]
    spaces = sorted(spaces, key=lambda n: n.start_byte)
    for i, n in enumerate(spaces):
        ns = ".".join(text(c) for c in (n.child_by_field_name("name") or n).named_children if c.type == "name")
        body = n.child_by_field_name("body")
        if body is not None:
            out.append(_Section(n.start_byte, n.end_byte, ns))
        else:
            end = spaces[i + 1].start_byte if i + 1 < len(spaces) else size + 1
            out.append(_Section(n.start_byte, end, ns))
    return out


def _section_at(sections: list[_Section], pos: int) -> _Section:
    best = sections[0]
    for s in sections[1:]:
        if s.start <= pos < s.end:
            best = s
    return best


def doc_before(node: ts.Node) -> str:
    """The PHPDoc comment right above a declaration (``/** ... */``), else ""."""
    prev = node.prev_named_sibling
    if prev is not None and prev.type == "comment" and node.start_point[0] - prev.end_point[0] <= 1:
        t = text(prev)
        return t if t.startswith("/**") else ""
    return ""


def extract(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    root = tree.root_node
    spaces: list[ts.Node] = []
    uses: list[ts.Node] = []
    defs: list[tuple[ts.Node, ts.Node]] = []
    others: list[tuple[int, str, ts.Node]] = []
    for _, caps in ts.QueryCursor(query).matches(root):
        key = None
        for k in caps:  # each pattern has one capture that says what it found (besides @name)
            if k in _KINDS:
                key = k
                break
        if key is None:
            continue
        n = caps[key][0]
        if key == "doc" and src.find(b"@var", n.start_byte, n.end_byte) < 0:
            continue  # only a comment with @var says something about a variable
        if key == "namespace":
            spaces.append(n)
        elif key == "import":
            uses.append(n)
        elif key in _DEFINITIONS:
            if not _anonymous(n):
                defs.append((n, caps["name"][0]))
        else:
            others.append((n.start_byte, key, n))
    sections = _sections(spaces, len(src))
    for u in uses:
        _section_at(sections, u.start_byte).names.add_use(u)
    declared = next((s.names.ns for s in sections[1:] if s.names.ns), "")
    mod = declared or module

    symbols: list[SymbolFact] = [
        SymbolFact(mod, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src),
                   f"namespace {declared}" if declared else f"file {relpath}")
    ]
    defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
    stack: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
    spans: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
    names_of: dict[int, Names] = {}
    scopes: dict[int, dict[str, list[tuple]]] = {0: {}}
    stem = relpath.rpartition("/")[2].rpartition(".")[0]
    for node, name_node in defs:
        while stack[-1][1] <= node.start_byte:
            stack.pop()
        parent = stack[-1][2]
        names = _section_at(sections, node.start_byte).names
        name = text(name_node)
        kind = DECLARATION_KINDS[node.type]
        owner_class = parent if symbols[parent].kind in CLASS_KINDS else None
        if kind == "method" and owner_class is None:
            continue  # a method outside a class body: broken text
        if kind == "method" and name.lower() == "__construct":
            kind = "constructor"
        qname = f"{symbols[parent].qname}.{name}" if owner_class is not None else (
            f"{names.ns}.{name}" if names.ns else name)
        extra: dict[str, Any] = {}
        doc = doc_before(node)
        if kind in CLASS_KINDS:
            _supertypes(node, kind, names, extra)
            if any(c.type == "final_modifier" for c in node.children):
                extra["sealed"] = True  # a final class has no subclasses
            if stem == name and module == names.ns:
                extra["autoload"] = True  # where Composer's PSR-4 map looks for it
        else:
            if owner_class is not None and symbols[owner_class].extra.get("autoload"):
                extra["autoload"] = True  # a member of the class Composer loads (the duplicates' are not)
            if any(c.type == "final_modifier" or (c.type == "visibility_modifier" and text(c) == "private")
                   for c in node.children):
                extra["sealed"] = True  # final or private: no subclass overrides it
            if any(c.type == "static_modifier" for c in node.children):
                extra["static"] = True
            if any(c.type == "abstract_modifier" for c in node.children) or (
                owner_class is not None and symbols[owner_class].kind == "interface"):
                extra["abstract"] = True
            ret = class_type(names, node.child_by_field_name("return_type"))
            if not ret and doc:
                ret = doc_types(names, doc, "return").get("", [])
            if ret:
                extra["ret"] = ret
            elems = doc_elements(names, doc, "return").get("") if doc else None
            if elems:
                extra["iter"] = elems  # what iterating over its result gives
        idx = len(symbols)
        symbols.append(SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte,
                                  node.end_byte, signature(node, src), extra))
        names_of[idx] = names
        if kind not in CLASS_KINDS:
            sc = scopes[idx] = {}
            if doc:  # @param types (they narrow a declared type: see the resolver)
                for var, classes in doc_types(names, doc, "param").items():
                    if var:
                        sc.setdefault(var, []).append(("d", classes))
                for var, classes in doc_elements(names, doc, "param").items():
                    if var:
                        sc.setdefault(var, []).append(("de", classes))
        stack.append((node.start_byte, node.end_byte, idx))
        spans.append((node.start_byte, node.end_byte, idx))

    sites: list[SiteFact] = []
    returns: dict[int, list[ts.Node | None]] = {}  # a function's return statements' values (None: ``return;``)
    for (_, key, node), owner in in_scopes(spans, others, pos=lambda it: it[0]):
        osym = symbols[owner]
        # a definition's namespace, or, at the top level, the namespace section the item is in
        names = names_of[owner] if owner else _section_at(sections, node.start_byte).names
        sc = scopes.get(owner)
        if key == "field":
            if osym.kind in CLASS_KINDS:
                _property(node, names, osym)
        elif key == "trait.use":
            if osym.kind in CLASS_KINDS:
                for c in node.named_children:
                    if c.type in ("name", "qualified_name"):
                        t = names.cls(text(c))
                        if t:
                            osym.extra.setdefault("bases", []).append(t)
        elif key in ("reference.call", "reference.class"):
            site = _site(node, names, owner)
            if site is not None:
                sites.append(site)
        elif sc is None:
            continue
        elif key == "param":
            _param(node, names, sc, osym, symbols)
        elif key == "local":
            var = text(node.child_by_field_name("left"))[1:]
            value = receiver(node.child_by_field_name("right"), names)
            if value[0] != ExprKind.UNKNOWN:
                sc.setdefault(var, []).append(("e", value, node.start_byte))
        elif key == "assign.prop":
            _assigned_property(node, names, sc, osym, symbols)
        elif key == "catch":
            var = node.child_by_field_name("name")
            classes = class_type(names, node.child_by_field_name("type")) or [
                c for t in (node.child_by_field_name("type").named_children if node.child_by_field_name("type") else [])
                for c in class_type(names, t)
            ]
            if var is not None and classes:
                sc.setdefault(text(var)[1:], []).append(("t", classes))
        elif key == "foreach":
            _foreach(node, names, sc)
        elif key == "return":
            if owner and not _in_closure(node):  # a function's (a file's top-level return gives include's value)
                returns.setdefault(owner, []).append(next((c for c in node.named_children if c.type != "comment"), None))
        elif key == "instanceof":
            _narrowing(node, names, sc)
        elif key == "doc":
            t = text(node)
            if t.startswith("/**") and "@var" in t:
                for var, classes in doc_types(names, t, "var").items():
                    if var:  # /** @var Foo $x */ above a statement
                        sc.setdefault(var, []).append(("d", classes))
                for var, classes in doc_elements(names, t, "var").items():
                    if var:  # /** @var Foo[] $xs */
                        sc.setdefault(var, []).append(("de", classes))
    for owner, values in returns.items():
        sym = symbols[owner]
        if "ret" not in sym.extra and src.find(b"yield", sym.start_byte, sym.end_byte) < 0:
            ret = _returned(values, names_of[owner], scopes.get(owner, {}))
            if ret:
                sym.extra["ret"] = ret  # inferred, as a declared one is read (the resolver says inferred)
    local = {
        "scopes": {i: s for i, s in scopes.items() if s},
        "imports": sorted({imp for s in sections for imp in s.names.imports}),
    }
    return Facts(mod, symbols, sites, [], local)


def _in_closure(node: ts.Node) -> bool:
    """Is a ``return`` a closure's (``function () { return 1; }`` inside a method), not the method's?"""
    p = node.parent
    while p is not None and p.type not in ("method_declaration", "function_definition"):
        if p.type in ("anonymous_function", "anonymous_function_creation_expression", "arrow_function"):
            return True
        p = p.parent
    return False


def _returned(values: list[ts.Node | None], names: Names, sc: dict[str, list[tuple]]) -> list[list[str]] | None:
    """The classes a function without a declared return type returns, when every ``return`` says
    (``new Foo``, ``$this``, a local whose every assignment is ``new Foo``); a bare ``return;``
    adds nothing (null). None: some return says no class."""
    out: list[list[str]] = []
    for node in values:
        if node is None or node.type == "null":
            continue
        e = receiver(node, names)
        if e[2]:
            return None  # a property or an element: typed elsewhere
        if e[0] == ExprKind.THIS:
            got = [[SAME]]
        elif e[0] == ExprKind.NEW and isinstance(e[1], list):
            got = [e[1]]
        elif e[0] == ExprKind.NEW and e[1] in (ExprKind.SELF, ExprKind.STATIC):
            got = [[SAME]]  # new static(...): the receiver's class
        elif e[0] == ExprKind.VAR:
            evidence = sc.get(e[1], ())
            if not evidence or any(not (x[0] == "e" and x[1][0] == ExprKind.NEW and isinstance(x[1][1], list)
                                        and not x[1][2]) for x in evidence):
                return None
            got = [x[1][1] for x in evidence]
        else:
            return None
        out.extend(c for c in got if c not in out)
    return out or None


def _anonymous(node: ts.Node) -> bool:
    """A member of an anonymous class (``new class { ... }``): not a symbol of its own (its calls
    belong to the enclosing function)."""
    p = node.parent
    gp = p.parent if p is not None else None
    return p is not None and p.type == "declaration_list" and gp is not None and gp.type == "anonymous_class"


def _supertypes(node: ts.Node, kind: str, names: Names, extra: dict[str, Any]) -> None:
    """``extends`` (a class's one parent), ``implements`` (interfaces; an interface's own
    ``extends`` list too). Traits are added from the class body (``bases``)."""
    for c in node.named_children:
        if c.type == "base_clause":
            parents = [t for n in c.named_children if n.type in ("name", "qualified_name") for t in [names.cls(text(n))] if t]
            if kind == "interface":
                extra.setdefault("implements", []).extend(parents)
            elif parents:
                extra["extends"] = parents[0]
        elif c.type == "class_interface_clause":
            extra.setdefault("implements", []).extend(
                t for n in c.named_children if n.type in ("name", "qualified_name") for t in [names.cls(text(n))] if t
            )


def _property(node: ts.Node, names: Names, cls: SymbolFact) -> None:
    """A property declaration's type: declared, else its PHPDoc ``@var`` (``@var Foo[]``: the
    classes of its elements, ``elems``)."""
    doc = doc_before(node)
    classes = class_type(names, node.child_by_field_name("type"))
    if not classes and doc:
        classes = next(iter(doc_types(names, doc, "var").values()), [])
    elems = next(iter(doc_elements(names, doc, "var").values()), None) if doc else None
    props = cls.extra.setdefault("props", {})
    for el in node.named_children:
        if el.type == "property_element":
            var = el.child_by_field_name("name") or next((c for c in el.named_children if c.type == "variable_name"), None)
            if var is None:
                continue
            name = text(var)[1:]
            if elems:
                cls.extra.setdefault("elems", {})[name] = elems
            if classes:
                props[name] = classes
            else:
                value = el.child_by_field_name("default_value")
                v = new_expr(value, names) if value is not None and value.type == "object_creation_expression" else None
                if v is not None and isinstance(v[1], list):
                    props[name] = [v[1]]


def _param(node: ts.Node, names: Names, sc: dict[str, list[tuple]], owner: SymbolFact, symbols: list[SymbolFact]) -> None:
    var = node.child_by_field_name("name") or next((c for c in node.named_children if c.type == "variable_name"), None)
    if var is None:
        return
    name = text(var)[1:]
    classes = [] if node.type == "variadic_parameter" else class_type(names, node.child_by_field_name("type"))
    if classes:
        sc.setdefault(name, []).insert(0, ("t", classes))
    if node.type == "property_promotion_parameter" and owner.kind == "constructor" and owner.parent is not None:
        cls = symbols[owner.parent]
        if classes and cls.kind in CLASS_KINDS:
            cls.extra.setdefault("props", {})[name] = classes


def _assigned_property(node: ts.Node, names: Names, sc: dict[str, list[tuple]], owner: SymbolFact,
                       symbols: list[SymbolFact]) -> None:
    """``$this->repo = $repo`` or ``$this->repo = new Repo()`` in a constructor: the property's
    type where no declaration states one (the resolver labels what it finds through it
    ``inferred``)."""
    if owner.kind != "constructor" or owner.parent is None:
        return
    left = node.child_by_field_name("left")
    obj = left.child_by_field_name("object") if left is not None else None
    prop = left.child_by_field_name("name") if left is not None else None
    if obj is None or text(obj) != "$this" or prop is None or prop.type != "name":
        return
    right = node.child_by_field_name("right")
    classes: list[list[str]] = []
    if right is not None and right.type == "object_creation_expression":
        v = new_expr(right, names)
        if isinstance(v[1], list):
            classes = [v[1]]
    elif right is not None and right.type == "variable_name":
        evidence = sc.get(text(right)[1:], ())  # a PHPDoc type first, as the resolver reads a local
        classes = next((e[1] for kind in ("d", "t") for e in evidence if e[0] == kind), [])
    cls = symbols[owner.parent]
    if classes and cls.kind in CLASS_KINDS:
        cls.extra.setdefault("props", {}).setdefault(text(prop), classes)


def _foreach(node: ts.Node, names: Names, sc: dict[str, list[tuple]]) -> None:
    """``foreach ($xs as $x)`` / ``foreach ($xs as $k => $x)``: ``$x`` is an element of ``$xs``."""
    kids = [c for c in node.named_children if c.type != "comment"]
    if len(kids) < 2:
        return
    value = kids[1]
    if value.type == "pair":
        value = value.named_children[-1] if value.named_children else value
    if value.type == "by_ref":
        value = next((c for c in value.named_children if c.type == "variable_name"), value)
    iterated = receiver(kids[0], names)
    if value.type == "variable_name" and iterated[0] != ExprKind.UNKNOWN:
        sc.setdefault(text(value)[1:], []).append(("f", iterated, node.start_byte))


def _narrowing(check: ts.Node, names: Names, sc: dict[str, list[tuple]]) -> None:
    """Where ``$x instanceof Foo`` (or ``$this->p instanceof Foo``) holds: the right side of an
    ``&&`` it is the left of, the body of the ``if`` or the branch of the ``?:`` it is the
    condition of, the body of the ``while`` it is the condition of, and, negated in an ``if`` (a
    guard: ``if (!$x instanceof Foo) { continue; }``) or asserted (``assert($x instanceof Foo)``,
    ``\\assert(...)``), the rest of the block. Flow is read this far only:
    a reassignment inside the region is not seen."""
    got = _checked(check, names)
    if got is None:
        return
    key, classes = got
    union: list[list[str]] | None = None  # ``$x instanceof A || $x instanceof B``: either
    regions: list[tuple[int, int]] = []
    cur, negated = check, False
    while (p := cur.parent) is not None:
        op = p.child_by_field_name("operator")
        if p.type == "parenthesized_expression":
            pass
        elif p.type == "binary_expression" and text(op) in ("||", "or") and not negated and union is None:
            top, leaves = _disjunction(p)
            checks = [_checked(c, names) if c.type == "binary_expression" and text(c.child_by_field_name("operator"))
                      == "instanceof" else None for c in leaves]
            if leaves[0].id != check.id or any(c is None or c[0] != key for c in checks):
                break  # each check of a disjunction on one variable is read once, from its first
            union = [c[1] for c in checks if c is not None]
            cur = top
            continue
        elif p.type == "unary_op_expression" and text(op) == "!":
            negated = not negated
        elif p.type == "binary_expression" and text(op) in ("&&", "and") and not negated:
            rhs = p.child_by_field_name("right")
            if rhs is not None and rhs.start_byte >= cur.end_byte:
                regions.append((rhs.start_byte, rhs.end_byte))
        elif p.type == "binary_expression" and text(op) in ("||", "or") and negated:
            rhs = p.child_by_field_name("right")  # !$x instanceof Foo || $x->m(): it holds on the right
            if rhs is not None and rhs.start_byte >= cur.end_byte:
                regions.append((rhs.start_byte, rhs.end_byte))  # and after a guard `if (... || ...) return;`
        elif p.type == "if_statement" and cur == p.child_by_field_name("condition"):
            body = p.child_by_field_name("body")
            if not negated and body is not None:
                regions.append((body.start_byte, body.end_byte))
            elif negated and p.parent is not None:
                regions.append((p.end_byte, p.parent.end_byte))
            break
        elif p.type == "while_statement" and cur == p.child_by_field_name("condition"):
            body = p.child_by_field_name("body")  # it holds as each pass starts
            if not negated and body is not None:
                regions.append((body.start_byte, body.end_byte))
            break
        elif p.type == "conditional_expression" and cur == p.child_by_field_name("condition") and not negated:
            then = p.child_by_field_name("body")
            if then is not None:
                regions.append((then.start_byte, then.end_byte))
            break
        elif p.type in ("argument", "arguments"):
            pass
        elif p.type == "function_call_expression" and text(p.child_by_field_name("function")).lstrip("\\") == "assert" \
                and not negated:  # assert() or \assert()
            stmt = p.parent
            if stmt is not None and stmt.type == "expression_statement" and stmt.parent is not None:
                regions.append((stmt.end_byte, stmt.parent.end_byte))
            break
        else:
            break
        cur = p
    for start, end in regions:
        sc.setdefault(key, []).append(("n", classes, start, end) if union is None else ("nu", union, start, end))


def _checked(check: ts.Node, names: Names) -> tuple[str, list[str]] | None:
    """``$x instanceof Foo``: the variable's key and the class's candidates."""
    key = _narrowed_name(check.child_by_field_name("left"))
    right = check.child_by_field_name("right")
    if key is None or right is None or right.type not in ("name", "qualified_name"):
        return None
    classes = names.cls(text(right))
    return (key, classes) if classes else None


def _disjunction(node: ts.Node) -> tuple[ts.Node, list[ts.Node]]:
    """The outermost ``||`` chain (through parentheses) around ``node``, and its operands in order."""
    top = node
    while top.parent is not None:
        up = top.parent
        while up is not None and up.type == "parenthesized_expression":
            up = up.parent
        if up is None or up.type != "binary_expression" or text(up.child_by_field_name("operator")) not in ("||", "or"):
            break
        top = up
    leaves: list[ts.Node] = []
    todo = [top]
    while todo:
        n = todo.pop()
        while n.type == "parenthesized_expression" and n.named_child_count == 1:
            n = n.named_children[0]
        if n.type == "binary_expression" and text(n.child_by_field_name("operator")) in ("||", "or"):
            todo.extend([n.child_by_field_name("right"), n.child_by_field_name("left")])
        else:
            leaves.append(n)
    return top, leaves


def _narrowed_name(node: ts.Node | None) -> str | None:
    """``$x`` -> ``x``; ``$this->p`` -> ``this.p``; anything else: None."""
    if node is None:
        return None
    if node.type == "variable_name":
        return text(node)[1:]
    obj, prop = node.child_by_field_name("object"), node.child_by_field_name("name")
    if node.type == "member_access_expression" and text(obj) == "$this" and prop is not None and prop.type == "name":
        return f"this.{text(prop)}"
    return None


_OWN_CLASS = frozenset({ExprKind.THIS, ExprKind.SELF, ExprKind.STATIC, ExprKind.PARENT})


def _in_anonymous_class(node: ts.Node) -> bool:
    """Is ``node`` in a method of an anonymous class (before any named function around it)?"""
    p = node.parent
    while p is not None and p.type not in ("function_definition", "class_declaration", "trait_declaration",
                                           "enum_declaration", "interface_declaration"):
        if p.type == "anonymous_class":
            return True
        p = p.parent
    return False


def _site(node: ts.Node, names: Names, owner: int) -> SiteFact | None:
    t = node.type
    if t == "function_call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type not in ("name", "qualified_name"):
            return None  # $f(), (expr)(): a value called
        name_node = fn if fn.type == "name" else next((c for c in reversed(fn.named_children) if c.type == "name"), fn)
        expr: tuple = (FUNCTION, None, names.function(text(fn)))
    elif t == "object_creation_expression":
        recv: Expr = new_expr(node, names)
        if recv[0] == ExprKind.UNKNOWN:
            return None
        cls = next(c for c in node.named_children if c.type in ("name", "qualified_name", "relative_name"))
        name_node = cls if cls.type == "name" else next((c for c in reversed(cls.named_children) if c.type == "name"), cls)
        expr = (NEW, recv, None)
    else:
        name_node = node.child_by_field_name("name")
        if name_node is None or name_node.type != "name":
            return None  # $x->$method(): a name known at run time only
        kind = SCOPED if t == "scoped_call_expression" else METHOD
        recv = call_receiver(node, names)
        if recv[0] in _OWN_CLASS and _in_anonymous_class(node):
            recv = (ExprKind.UNKNOWN, None, [])  # $this of `new class { ... }`: not the enclosing class
        expr = (kind, recv, None)
    return SiteFact(owner, text(name_node), CALL, rng(name_node), name_node.start_byte, name_node.end_byte, expr)


__all__ = ["FUNCTION", "METHOD", "NEW", "SAME", "SCOPED", "extract"]
