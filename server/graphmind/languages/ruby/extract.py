"""Ruby extraction: one walk over a file's tree, in source order, as Ruby's parser reads it.

Ruby decides at parse time whether an identifier is a local variable: a name assigned (or a
parameter) earlier in the same scope is a local; any other bare identifier is a call of ``self``'s
method without arguments. The walk keeps those scopes (``def``, ``class`` and ``module`` bodies
start a new one; a block sees the enclosing one's locals) and the lexical nesting of classes and
modules (``Module.nesting``) a constant is looked up in.

Qualified names are Ruby's constant paths with dots: ``Shop::Repo`` is ``Shop.Repo``, its methods
``Shop.Repo.save``; a class method (``def self.find``, ``class << self``) has the same form and
``extra["self"]``. A class reopened in several files is one name with a symbol in each. A method
defined at the top level is a private method of ``Object`` named after its file
(``lib.tasks.helper``), kind ``function``.

What the resolver reads of a class (its interface): ``extends`` (the superclass' candidates),
``implements`` (included and prepended modules), ``prepends`` (the prepended ones), ``extends_self`` (modules ``extend``-ed into its
singleton) and ``ivars`` (instance variables assigned a ``Const.new``).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any, NamedTuple

import tree_sitter as ts

from ...model import CALL as CALL_SITE
from ...model import REF, Facts, SiteFact, SymbolFact
from .._toolkit import callers
from .._toolkit.nodes import rng, text
from .builtins import COMMON_METHODS, KERNEL
from .rails import ASSOCIATIONS, CALLBACK_OPTIONS, is_callback
from .syntax import (
    ARRAY,
    CALL,
    CONST,
    ELEM,
    HASH,
    IVAR,
    LIT,
    LITERALS,
    PARAM,
    SELF,
    SPLAT,
    UNKNOWN,
    VALS,
    Expr,
    camelize,
    candidates,
    const_parts,
    literal_key,
    new_key,
    singularize,
    symbol_name,
)

# how a site reaches its target (Site.how)
SEND, SUPER, CALLBACK, ASSOC, METHOD_REF, CONST_REF = "send", "super", "callback", "assoc", "method", "const"
LET = "let"  # a method RSpec's ``let(:name) { ... }`` defines on the example group (RSpec's, no workspace target)

# nodes whose identifiers declare locals (parameters, assignment targets) or name something
_PARAMS = frozenset({
    "method_parameters", "block_parameters", "lambda_parameters", "optional_parameter", "keyword_parameter",
    "splat_parameter", "hash_splat_parameter", "block_parameter", "destructured_parameter",
})
_TARGETS = frozenset({"left_assignment_list", "destructured_left_assignment", "rest_assignment", "exception_variable"})
_BLOCKS = frozenset({"block", "do_block", "lambda"})
_MIXINS = {"include": "implements", "prepend": "prepends", "extend": "extends_self"}
_ATTRS = {"attr_reader": ("",), "attr_writer": ("=",), "attr_accessor": ("", "="), "attr": ("",)}
_SEND = frozenset({"send", "public_send", "__send__"})
MAX_NESTING = 200  # nodes nested deeper are walked without recursion (_Extractor.flat)
MAX_VALUE_NESTING = 12  # a local's value nested deeper (one local assigned from another, again and again): unknown
MAX_VALUES = 8  # assignments a local's value remembers; more: unknown
_CLASS_MAKERS = frozenset({("Class", "new"), ("Struct", "new"), ("Data", "define")})
_KEYWORDS = frozenset({"__FILE__", "__LINE__", "__ENCODING__"})  # identifiers to the grammar, keywords to Ruby
_ANYWHERE = frozenset({"require", "require_relative", "include"})  # what dsl() reads outside a class body
_LETS = frozenset({"let", "let!", "subject", "subject!"})  # RSpec: a memoised method of the example group
# calls that give one element of their receiver (``first(2)``, with an argument, gives an array)
_ELEMENT_CALLS = frozenset({"first", "last", "find", "detect", "fetch", "sample", "min", "max", "min_by", "max_by"})
# calls whose block's parameter is an element of the receiver (the first one of several: ``each_with_index``)
ITERATORS = frozenset({
    "each", "map", "collect", "flat_map", "select", "filter", "reject", "find", "detect", "find_all", "filter_map",
    "each_with_index", "each_with_object", "sort_by", "min_by", "max_by", "group_by", "partition", "any?", "all?",
    "none?", "count", "sum", "find_index", "each_value", "take_while", "drop_while", "map!", "select!", "reject!",
    "sort_by!", "uniq", "each_entry",
})
# names of the core library's methods: their calls are not published for their callees'
# parameters, nor are those read for a call of one (what callers pass would decide no workspace
# method; ``new`` is published under its class's name)
NO_CALLERS_FOR = KERNEL | COMMON_METHODS | ITERATORS
_FIRST_OF_SEVERAL = frozenset({"each_with_index", "each_with_object"})  # |element, index| and |element, memo|
_SELF_PARAM = frozenset({"tap", "then", "yield_self"})  # the block's parameter is the receiver itself
_APPENDS = frozenset({"push", "append", "unshift"})  # and ``<<``: they add their arguments as elements


class Site(NamedTuple):
    """What the resolver needs of a site (stored as a plain tuple, unpacked in this order): how it reaches its target, the receiver, and whether it
    sits in a block of a class body or of the top level (run by a DSL, maybe on an instance:
    ``should "x" do``, RSpec's ``it "x" do``)."""

    how: str
    recv: Expr
    block: bool = False


class _Scope:
    """Local variables: name -> the values assigned so far. ``up``: the scope a block sees.
    ``lets``: the methods RSpec's ``let(:name) { value }`` in this block defines (name -> what
    its block gives), seen by the blocks inside it wherever in the block they are declared."""

    __slots__ = ("lets", "up", "vars")

    def __init__(self, up: _Scope | None = None) -> None:
        self.vars: dict[str, list[Expr]] = {}
        self.up = up
        self.lets: dict[str, Expr] | None = None

    def let(self, name: str) -> Expr | None:
        """What the ``let`` named ``name`` of an enclosing block gives (``(UNKNOWN,)`` when its
        block says nothing known); None: no such ``let``."""
        s: _Scope | None = self
        while s is not None:
            if s.lets is not None and name in s.lets:
                return s.lets[name]
            s = s.up
        return None

    def find(self, name: str) -> list[Expr] | None:
        s: _Scope | None = self
        while s is not None:
            got = s.vars.get(name)
            if got is not None:
                return got
            s = s.up
        return None

    def declare(self, name: str, value: Expr) -> None:
        if value[0] != PARAM:  # (a parameter's value is flat)
            value = value if _nesting(value) <= MAX_VALUE_NESTING else (UNKNOWN,)  # b = a; c = b; ... stays small
        got = self.find(name)
        if got is None:
            self.vars[name] = [value]
        elif value not in got:
            # many assignments of a name: its value is unknown (the list stays bounded)
            got.append(value if len(got) < MAX_VALUES else (UNKNOWN,))


class _Ctx(NamedTuple):
    owner: int  # the symbol the sites belong to
    nesting: tuple[str, ...]  # enclosing classes and modules, innermost first
    cls: int | None  # the innermost class or module
    singleton: bool  # defining class methods (``class << self``)
    scope: _Scope
    block: bool = False  # inside a block (a DSL's block may run on an instance: ``should "x" do``)
    # the class body's blocks around (their ordinals in it): the example groups of a test DSL
    # (``context "x" do setup do @a = ... end; should "y" do @a.run end end``)
    group: tuple[int, ...] = ()


class _Body:
    """A class body's state while it is read: ``module_function`` with no arguments, and how many
    of its blocks were read (a block's ordinal names its example group: unlike its offset, it stays
    when the lines above it change)."""

    __slots__ = ("blocks", "mf")

    def __init__(self) -> None:
        self.mf = False
        self.blocks = 0


def extract(tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    return _Extractor(src, relpath, module).run(tree.root_node)


class _Extractor:
    def __init__(self, src: bytes, relpath: str, module: str) -> None:
        self.relpath = relpath
        self.module = module
        self.symbols: list[SymbolFact] = []
        self.sites: list[SiteFact] = []
        self.requires: list[tuple[str, str]] = []  # (require | require_relative, path: require_path)
        self.calls: dict[str, list[tuple]] = {}  # the calls with arguments by name, for their callees' parameters
        self.bodies: dict[int, _Body] = {}
        self.src_len = len(src)
        self.depth = 0  # the walk's nesting (see MAX_NESTING)

    def run(self, root: ts.Node) -> Facts:
        self.symbols.append(
            SymbolFact(self.module, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, self.src_len, self.relpath)
        )
        self.bodies[0] = _Body()
        self.visit(root, _Ctx(0, (), None, False, _Scope()))
        # every record is made a plain tuple where it is made (Site below), as marshal stores them
        return Facts(self.module, self.symbols, self.sites, callers.table(self.calls), {"requires": self.requires})

    # --- symbols and sites
    def symbol(self, qname: str, name: str, kind: str, ctx: _Ctx, node: ts.Node, name_node: ts.Node,
               extra: dict[str, Any]) -> int:
        sig = text(node).split("\n", 1)[0].strip()[:200]
        self.symbols.append(
            SymbolFact(qname, name, kind, ctx.owner, rng(node), rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        return len(self.symbols) - 1

    def site(self, ctx: _Ctx, name: str, node: ts.Node, how: str, recv: Expr, kind: str = CALL_SITE) -> None:
        in_body_block = ctx.block and (ctx.owner == ctx.cls or ctx.owner == 0)  # a class body's or the top level's
        self.sites.append(
            SiteFact(ctx.owner, name, kind, rng(node), node.start_byte, node.end_byte, (how, recv, in_body_block))
        )

    def method_symbol(self, name: str, ctx: _Ctx, node: ts.Node, name_node: ts.Node, singleton: bool,
                      extra: dict[str, Any] | None = None) -> int:
        extra = dict(extra or {})
        if ctx.cls is None:
            if singleton:
                extra["self"] = True
            return self.symbol(f"{self.module}.{name}", name, "function", ctx, node, name_node, extra)
        if singleton:
            extra["self"] = True
        elif self.bodies.get(ctx.cls, _Body()).mf:
            extra["mf"] = True  # module_function: a module method and a private instance method
        return self.symbol(f"{self.symbols[ctx.cls].qname}.{name}", name, "method", ctx, node, name_node, extra)

    # --- the walk
    def visit(self, node: ts.Node, ctx: _Ctx) -> None:
        if self.depth >= MAX_NESTING:
            self.flat(node, ctx)
            return
        # no try/finally: an exception ends the file's extraction, and the depth with it
        self.depth += 1
        handler = _HANDLERS.get(node.type)
        if handler is not None:
            handler(self, node, ctx)
        else:
            for c in node.named_children:
                self.visit(c, ctx)
        self.depth -= 1

    def flat(self, root: ts.Node, ctx: _Ctx) -> None:
        """Code nested deeper than ``MAX_NESTING`` (a generated ``a + b + ...`` of thousands of
        terms, a chain of thousands of calls), walked without recursion: its calls and bare
        identifiers are sites, its assignments declare locals; a definition this deep is not
        read (the walk above it stays within Python's recursion limit)."""
        todo = [root]
        while todo:
            n = todo.pop()
            parent = n.parent
            if n.type == "call":
                method, recv = n.child_by_field_name("method"), n.child_by_field_name("receiver")
                if method is not None and method.type in ("identifier", "constant"):
                    self.site(ctx, text(method), method, SEND, self.expr(recv, ctx) if recv is not None else None)
                todo.extend(c for c in reversed(n.named_children) if method is None or c != method)
                continue
            if n.type == "identifier" and parent is not None:
                if parent.type in _PARAMS or parent.type in _TARGETS or parent.type in ("block_parameters",
                                                                                         "lambda_parameters"):
                    ctx.scope.declare(text(n), (UNKNOWN,))
                elif parent.type in ("assignment", "operator_assignment") and parent.child_by_field_name("left") == n:
                    ctx.scope.declare(text(n), (UNKNOWN,))
                else:
                    self.on_identifier(n, ctx)
                continue
            todo.extend(reversed(n.named_children))

    def visit_children(self, node: ts.Node | None, ctx: _Ctx) -> None:
        if node is not None:
            for c in node.named_children:
                self.visit(c, ctx)

    def on_class(self, node: ts.Node, ctx: _Ctx) -> None:
        name_node = node.child_by_field_name("name")
        got = const_parts(name_node)
        if name_node is None or got is None:
            self.visit_children(node, ctx)
            return
        parts, top = got
        outer = self.symbols[ctx.cls].qname if ctx.cls is not None and not top else ""
        qname = ".".join([outer, *parts]) if outer else ".".join(parts)
        extra: dict[str, Any] = {}
        kind = "class" if node.type == "class" else "namespace"
        sup = node.child_by_field_name("superclass")
        if sup is not None:
            sc = next((c for c in sup.named_children), None)
            if sc is not None and sc.type == "element_reference":  # Migration[7.0]: a subclass of Migration
                sc = sc.child_by_field_name("object")
            sp = const_parts(sc)
            if sp is not None:
                extra["extends"] = candidates(sp[0], sp[1], ctx.nesting)
            else:
                extra["extends"] = [UNKNOWN]  # what an expression gives: a class outside what is known
                self.visit(sup, ctx)  # Struct.new(...), a call: its sites are the enclosing scope's
        idx = self.symbol(qname, parts[-1], kind, ctx, node, name_node, extra)
        self.bodies[idx] = _Body()
        if sup is not None and "extends" in extra and extra["extends"] != [UNKNOWN] and sc is not None:
            self.on_constant(sc, ctx._replace(owner=idx))  # the subclass refers to its superclass
        inner = _Ctx(idx, (qname, *ctx.nesting), idx, False, _Scope())
        self.visit_children(node.child_by_field_name("body"), inner)

    def class_new(self, left: ts.Node, right: ts.Node, ctx: _Ctx) -> bool:
        """``Name = Class.new(Base) do ... end``, ``Name = Struct.new(:a, :b)`` and ``Name =
        Data.define(:a, :b)``: a class (the members of a Struct or Data are its readers)."""
        method, recv = right.child_by_field_name("method"), right.child_by_field_name("receiver")
        if method is None or recv is None or (text(recv), text(method)) not in _CLASS_MAKERS:
            return False
        name = text(left)
        outer = self.symbols[ctx.cls].qname if ctx.cls is not None else ""
        qname = f"{outer}.{name}" if outer else name
        args = right.child_by_field_name("arguments")
        argv = list(args.named_children) if args is not None else []
        extra: dict[str, Any] = {}
        if text(recv) == "Class" and argv:
            sp = const_parts(argv[0])
            if sp is not None:
                extra["extends"] = candidates(sp[0], sp[1], ctx.nesting)
        idx = self.symbol(qname, name, "class", ctx, right, left, extra)
        self.bodies[idx] = _Body()
        inner = _Ctx(idx, (qname, *ctx.nesting), idx, False, _Scope())
        if text(recv) != "Class":
            for a in argv:
                member = symbol_name(a)
                if member and a.type == "simple_symbol":
                    for suffix in ("", "=") if text(recv) == "Struct" else ("",):
                        self.method_symbol(member + suffix, inner, a, a, False, {"attr": True})
        block = right.child_by_field_name("block")
        if block is not None:
            for c in block.named_children:
                if c.type in ("block_body", "body_statement"):
                    self.visit_children(c, inner)
        return True

    def on_singleton_class(self, node: ts.Node, ctx: _Ctx) -> None:
        value = node.child_by_field_name("value")
        if value is not None and value.type != "self":
            self.visit(value, ctx)
        self.visit_children(node.child_by_field_name("body"), ctx._replace(singleton=True))

    def on_method(self, node: ts.Node, ctx: _Ctx) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        singleton = ctx.singleton or node.type == "singleton_method"
        idx = self.method_symbol(text(name_node), ctx, node, name_node, singleton)
        inner = ctx._replace(owner=idx, singleton=False, scope=_Scope(), block=False, group=())
        params, body = node.child_by_field_name("parameters"), node.child_by_field_name("body")
        doc = yard_tags(node)
        if params is not None:
            sym = self.symbols[idx]
            self.declare_params(params, inner, (sym.qname.rpartition(".")[0], singleton, sym.name) if sym.kind == "method" else None)
            for pname, types in doc.params.items():
                got = inner.scope.vars.get(pname)
                value = self.documented(types, ctx)
                if got is not None and len(got) == 1 and got[0][0] in (UNKNOWN, PARAM) and value is not None:
                    # a parameter with no default value
                    inner.scope.vars[pname] = [value]
        if body is not None and body.type == "body_statement":
            self.visit_children(body, inner)
        elif body is not None:
            self.visit(body, inner)  # def x = expr (an endless method)
        last = _last_statement(body)
        # a YARD ``@return [Type]`` is the method's declared result, as a solver reads it first
        returned = self.documented(doc.returns, ctx) if doc.returns else None
        if returned is None and last is not None:
            returned = self.returned(last, inner)
        if returned is not None:
            self.symbols[idx].extra["returns"] = returned

    def documented(self, types: list[str], ctx: _Ctx) -> Expr:
        """The value a YARD type list (``[Site]``, ``[Page, Document]``, ``[Array<Doc>]``) states:
        an instance of each class (``nil`` dropped: it is no receiver of a workspace method), an
        array of them, a core class's literal; None when a type is not a constant path."""
        vals: list[Expr] = []
        for t in types:
            if t == "nil":
                continue
            inner = t.partition("<")[2].rstrip(">").strip() if t.startswith(("Array<", "Set<")) else None
            if inner is not None:
                elem = self.documented([inner], ctx) if "," not in inner and inner else None
                if elem is None:
                    return None
                vals.append((ARRAY, [elem]))
                continue
            name = "Array" if t.startswith("Array") else "Hash" if t.startswith("Hash") else t
            if name in YARD_CORE:
                vals.append((LIT, YARD_CORE[name]))
                continue
            if name in _ANY or not _CONST_PATH.fullmatch(name):
                return None
            parts = name.lstrip(":").split("::")
            vals.append((CALL, (CONST, candidates(parts, name.startswith("::"), ctx.nesting)), "new"))
        if not vals:
            return None
        return vals[0] if len(vals) == 1 else (VALS, vals)

    def returned(self, node: ts.Node, ctx: _Ctx) -> Expr:
        """What a method's last statement gives, when it names a class: ``Repo.new(...)``,
        ``@x ||= Repo.new``, ``Repo.new.tap { ... }``, ``@repo`` (an instance variable)."""
        ivar = None
        if node.type in ("assignment", "operator_assignment"):
            left = node.child_by_field_name("left")
            ivar = (IVAR, text(left)) if left is not None and left.type == "instance_variable" else None
            node = node.child_by_field_name("right") or node
        e = self.expr(node, ctx)
        # ``@docs ||= []``: the instance variable, whose elements the class records
        return e if e is not None and _names_a_class(e) else ivar

    def declare_params(self, node: ts.Node, ctx: _Ctx, method: tuple[str, bool, str] | None = None) -> None:
        """Declare the parameters as locals. ``method``: a method's (its owner, whether a class
        method, its name), whose parameters are what its callers pass (:data:`PARAM`) where the
        code says nothing else; a block's are unknown."""
        position = 0  # the positional parameter's index; -1 after a splat (what callers pass is not by index)
        for p in node.named_children:
            if p.type == "identifier":
                ctx.scope.declare(text(p), self.param(method, position, None))
                position += position >= 0
            elif p.type in _PARAMS:
                name = p.child_by_field_name("name")
                value = p.child_by_field_name("value")
                if name is not None:
                    # an optional parameter's default (``klass: Page``) is its value when the caller
                    # gives none: the one value the code states (``inferred``, as a local's)
                    default = self.expr(value, ctx) if value is not None else None
                    if default is not None and _names_a_class(default) and default[0] == CONST:
                        ctx.scope.declare(text(name), default)
                    elif p.type == "keyword_parameter":
                        ctx.scope.declare(text(name), self.param(method, -1, text(name)))
                    elif p.type == "optional_parameter":
                        ctx.scope.declare(text(name), self.param(method, position, None))
                    else:
                        ctx.scope.declare(text(name), (UNKNOWN,))
                else:
                    self.declare_params(p, ctx)
                if p.type == "splat_parameter":
                    position = -1
                elif p.type == "optional_parameter":
                    position += position >= 0
                if value is not None:
                    self.visit(value, ctx)

    @staticmethod
    def param(method: tuple[str, bool, str] | None, position: int, keyword: str | None) -> Expr:
        if method is None or (keyword is None and position < 0):
            return (UNKNOWN,)
        return (PARAM, *method, position, keyword)

    def on_block(self, node: ts.Node, ctx: _Ctx, first: Expr = None) -> None:
        """A block (``first``: what its first parameter is given, when the call says: an element
        of the receiver for ``each``/``map``/``select``..., the receiver for ``tap``)."""
        inner = ctx._replace(scope=_Scope(ctx.scope), block=True)
        if ctx.owner == 0 or ctx.owner == ctx.cls:  # an example group's block (in a method: no lets)
            self.declare_lets(node, inner)
        if ctx.cls is not None and ctx.owner == ctx.cls:
            body = self.bodies.setdefault(ctx.cls, _Body())
            body.blocks += 1
            inner = inner._replace(group=(*ctx.group, body.blocks))
        for c in node.named_children:
            if c.type in ("block_parameters", "lambda_parameters"):
                self.declare_params(c, inner)
                p = c.named_children[0] if c.named_child_count else None
                if first is not None and p is not None and p.type == "identifier":
                    inner.scope.vars[text(p)] = [first]
            elif c.type in ("block_body", "body_statement", "block", "do_block"):
                if c.type in _BLOCKS:
                    self.on_block(c, inner)
                else:
                    self.visit_children(c, inner)
            else:
                self.visit(c, inner)

    def declare_lets(self, block: ts.Node, ctx: _Ctx) -> None:
        """RSpec's ``let(:user) { User.new }`` among a block's statements (``describe ... do``):
        a method of the example group, seen by every block inside this one whether declared before
        or after them (Ruby defines it before the examples run). Its value is what its block's last
        statement gives."""
        for body in block.named_children:
            if body.type not in ("block_body", "body_statement"):
                continue
            for c in body.named_children:
                if c.type != "call" or c.child_by_field_name("receiver") is not None:
                    continue
                method, args = c.child_by_field_name("method"), c.child_by_field_name("arguments")
                if method is None or text(method) not in _LETS or args is None or not args.named_child_count:
                    continue
                name = symbol_name(args.named_children[0])
                if not name:
                    continue
                value: Expr = (UNKNOWN,)
                let_block = c.child_by_field_name("block")
                last = _last_statement(next((b for b in let_block.named_children if b.type in ("block_body",
                                                                                           "body_statement")), None)
                                       ) if let_block is not None else None
                if last is not None:
                    got = self.expr(last, ctx)
                    value = got if got is not None and _names_a_class(got) else (UNKNOWN,)
                if ctx.scope.lets is None:
                    ctx.scope.lets = {}
                ctx.scope.lets[name] = value

    def on_identifier(self, node: ts.Node, ctx: _Ctx) -> None:
        name = text(node)
        if name == "module_function" and ctx.cls is not None and ctx.owner == ctx.cls:
            self.bodies.setdefault(ctx.cls, _Body()).mf = True  # the methods below are module functions
        if ctx.scope.find(name) is None and name not in _KEYWORDS:
            # not a local: a call of self's method (of an RSpec ``let``'s, when one is in scope)
            self.site(ctx, name, node, SEND if ctx.scope.let(name) is None else LET, None)

    def on_assignment(self, node: ts.Node, ctx: _Ctx) -> None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        value = self.expr(right, ctx) if right is not None else (UNKNOWN,)
        if left is not None and left.type == "identifier":
            ctx.scope.declare(text(left), value)  # declared before its value is read: x = x is nil
        elif left is not None and left.type in _TARGETS:
            self.declare_targets(left, ctx)
        elif left is not None and left.type == "instance_variable":
            self.ivar(text(left), value, ctx)
        elif left is not None and left.type == "call":
            recv, method = left.child_by_field_name("receiver"), left.child_by_field_name("method")
            if recv is not None and method is not None and method.type == "identifier":
                self.site(ctx, f"{text(method)}=", method, SEND, self.expr(recv, ctx))  # a setter: x.name = v
            if recv is not None:
                self.visit(recv, ctx)
        elif left is not None and left.type == "constant" and right is not None and right.type == "call" \
                and self.class_new(left, right, ctx):
            return
        elif left is not None and left.type == "element_reference" and (obj := left.child_by_field_name("object")):
            index = [c for c in left.named_children if c.id != obj.id]
            self.element(obj, value, literal_key(index[0]) if len(index) == 1 else None, ctx)
            self.visit(left, ctx)
        elif left is not None and left.type not in ("constant", "class_variable", "global_variable"):
            self.visit(left, ctx)
        if right is not None:
            self.visit(right, ctx)

    def declare_targets(self, node: ts.Node, ctx: _Ctx) -> None:
        for c in node.named_children:
            if c.type == "identifier":
                ctx.scope.declare(text(c), (UNKNOWN,))
            elif c.type in _TARGETS:
                self.declare_targets(c, ctx)
            elif c.type not in ("instance_variable", "constant", "class_variable", "global_variable"):
                self.visit(c, ctx)

    def ivar(self, name: str, value: Expr, ctx: _Ctx) -> None:
        """``@x = Repo.new`` (or a call whose result may be known) in a class: the class records
        what its instances hold."""
        if ctx.cls is None or value is None or not _names_a_class(value):
            return
        extra = self.symbols[ctx.cls].extra
        got = extra.setdefault("ivars", {}).setdefault(name, [])
        groups = extra.get("ivar_groups", {}).get(name)
        if ctx.group or groups is not None:
            # assigned in a class body's block (a test DSL's ``setup``/``before``): seen by the
            # blocks of the group around it (``groups``: (value, group) pairs; () is everywhere)
            groups = extra.setdefault("ivar_groups", {}).setdefault(name, [])
            if not groups:
                groups.extend((v, ()) for v in got)  # assigned in methods before: everywhere
            entry = (value, ctx.group[:-1])
            if entry not in groups and len(groups) < MAX_VALUES * 4:
                groups.append(entry)
        if value not in got:
            got.append(value)

    def on_for(self, node: ts.Node, ctx: _Ctx) -> None:
        pattern = node.child_by_field_name("pattern")
        if pattern is not None:
            if pattern.type == "identifier":  # for doc in docs: an element of docs
                coll = node.child_by_field_name("value")
                ctx.scope.declare(text(pattern), (ELEM, self.expr(coll.named_children[0] if coll is not None and
                                                                   coll.named_child_count else coll, ctx), None, "each"))
            else:
                self.declare_targets(pattern, ctx)
        for c in node.named_children:
            if pattern is None or c.id != pattern.id:
                self.visit(c, ctx)

    def on_case(self, node: ts.Node, ctx: _Ctx) -> None:
        """``case doc when Page then ... end``: in a ``when`` of classes, the local is an instance
        of one of them (``Page === doc``)."""
        value = node.child_by_field_name("value")
        holder = ctx.scope
        name = text(value) if value is not None and value.type == "identifier" else ""
        while holder is not None and name not in holder.vars:
            holder = holder.up
        for c in node.named_children:
            if c.type != "when" or holder is None:
                self.visit(c, ctx)
                continue
            classes = [const_parts(p.named_children[0]) if p.named_child_count == 1 else None
                       for p in c.children_by_field_name("pattern")]
            for p in c.children_by_field_name("pattern"):
                self.visit(p, ctx)
            body = c.child_by_field_name("body")
            if body is None:
                continue
            if not classes or any(got is None or not any(ch.islower() for ch in got[0][-1]) for got in classes):
                self.visit(body, ctx)  # not all classes (``when :a``, ``when LIMIT``)
                continue
            before = holder.vars[name]
            narrowed = [(CALL, (CONST, candidates(got[0], got[1], ctx.nesting)), "new") for got in classes if got is not None]
            holder.vars[name] = list(narrowed)
            self.visit(body, ctx)
            assigned = holder.vars[name][len(narrowed):]  # what the branch assigns the local stays after it
            holder.vars[name] = before
            for v in assigned:
                holder.declare(name, v)

    def on_rescue(self, node: ts.Node, ctx: _Ctx) -> None:
        for c in node.named_children:
            if c.type == "exception_variable":
                self.declare_targets(c, ctx)
            else:
                self.visit(c, ctx)

    def on_pattern(self, node: ts.Node, ctx: _Ctx) -> None:
        """``in {name:, id: Integer => x}``: the identifiers a pattern binds are locals."""
        pattern = node.child_by_field_name("pattern")
        for c in _descendants(pattern) if pattern is not None else []:
            if c.type == "identifier":
                ctx.scope.declare(text(c), (UNKNOWN,))
            elif c.type == "hash_key_symbol" and c.parent is not None and c.parent.type == "keyword_pattern" \
                    and c.parent.child_by_field_name("value") is None:
                ctx.scope.declare(text(c), (UNKNOWN,))
        for c in node.named_children:
            if pattern is None or c.id != pattern.id:
                self.visit(c, ctx)

    def on_constant(self, node: ts.Node, ctx: _Ctx) -> None:
        """A class or module named as a value (``Story.where``, ``rescue Errors::Fatal``, ``when
        Page``): a reference to it (a ``ref`` site), so that a class used only through its class
        methods or as a value is no dead code. ``SCREAMING_CASE`` constants hold values, not
        classes, and ``Foo.new`` is a call of the class already."""
        got = const_parts(node)
        if got is None:
            self.visit_children(node, ctx)  # expr::Name
            return
        parts, top = got
        if not any(ch.islower() for ch in parts[-1]):  # Foo::LIMIT: a value of Foo's
            scope = node.child_by_field_name("scope") if node.type == "scope_resolution" else None
            if scope is not None:
                self.on_constant(scope, ctx)
            return
        parent = node.parent
        if parent is not None and parent.type == "call" and parent.child_by_field_name("receiver") == node:
            method = parent.child_by_field_name("method")
            if method is not None and text(method) == "new":
                return
        name = node.child_by_field_name("name") if node.type == "scope_resolution" else node
        self.site(ctx, parts[-1], name or node, CONST_REF, (CONST, candidates(parts, top, ctx.nesting)), REF)

    def on_super(self, node: ts.Node, ctx: _Ctx) -> None:
        self.site(ctx, "super", node, SUPER, None)

    def on_skip(self, node: ts.Node, ctx: _Ctx) -> None:
        """Names that are not expressions (``alias new old``, ``undef x``)."""

    def on_alias(self, node: ts.Node, ctx: _Ctx) -> None:
        new, old = node.child_by_field_name("name"), node.child_by_field_name("alias")
        if new is not None and old is not None:
            self.alias(text(new).lstrip(":"), text(old).lstrip(":"), node, new, old, ctx)

    def alias(self, new: str, old: str, node: ts.Node, new_node: ts.Node, old_node: ts.Node, ctx: _Ctx) -> None:
        """``alias_method :new, :old``: a method ``new`` whose body is ``old``'s."""
        idx = self.method_symbol(new, ctx, node, new_node, ctx.singleton, {"alias": old})
        self.site(ctx._replace(owner=idx), old, old_node, METHOD_REF, None, REF)

    # --- calls
    def on_call(self, node: ts.Node, ctx: _Ctx) -> None:
        method = node.child_by_field_name("method")
        recv = node.child_by_field_name("receiver")
        args = node.child_by_field_name("arguments")
        block = node.child_by_field_name("block")
        if method is None:
            self.visit_children(node, ctx)
            return
        name = text(method)
        if recv is None and method.type == "identifier" and self.dsl(name, node, args, block, ctx):
            return
        if method.type == "super":
            self.site(ctx, "super", method, SUPER, None)
        elif method.type in ("identifier", "constant", "operator"):
            target = self.expr(recv, ctx) if recv is not None else None
            let = recv is None and ctx.scope.let(name) is not None
            self.site(ctx, name, method, LET if let else SEND, target)
            if args is not None and method.type != "operator" and (name not in NO_CALLERS_FOR or name == "new"):
                self.call_record(name, target, args, ctx)
            if name in _SEND and args is not None and args.named_child_count:
                sent = symbol_name(args.named_children[0])
                if sent:
                    self.site(ctx, sent, args.named_children[0], SEND, target)
            elif name == "method" and recv is None and args is not None and args.named_child_count:
                ref = symbol_name(args.named_children[0])
                if ref:
                    self.site(ctx, ref, args.named_children[0], METHOD_REF, None, REF)
        if recv is not None:
            self.visit(recv, ctx)
            if name in _APPENDS and args is not None:
                for a in args.named_children:
                    self.element(recv, self.expr(a, ctx), None, ctx)
        self.visit_children(args, ctx)
        if block is not None:
            self.on_block(block, ctx, self.block_first(recv, name, block, ctx))

    def call_record(self, name: str, target: Expr, args: ts.Node, ctx: _Ctx) -> None:
        """Publish a call's arguments for its callee's parameters (:mod:`.._toolkit.callers`): what
        the receiver is, what ``self`` is here, the positional arguments and the keyword ones
        (a splat: what follows is not by position), when one of them says what it is. A literal
        is its class alone (``(LIT, "String")``): typing in a string changes no record."""
        positional: list[Expr] = []
        keywords: list[tuple[str, Expr]] = []
        for a in args.named_children:
            if a.type == "pair":
                k = literal_key(a.child_by_field_name("key"))
                v = a.child_by_field_name("value")
                if k is not None and v is not None:
                    keywords.append((k.rstrip(":"), self.expr(v, ctx)))
            elif a.type in ("splat_argument", "hash_splat_argument"):
                positional.append((SPLAT,))  # what follows, and which parameter gets what: unknown
                break
            elif a.type != "block_argument":
                positional.append(self.expr(a, ctx))
        if not any(map(_passes_an_object, positional)) and not any(_passes_an_object(v) for _, v in keywords):
            return
        in_body_block = ctx.block and (ctx.owner == ctx.cls or ctx.owner == 0)
        if name == "new" and target is not None and target[0] == CONST:
            name = new_key(target[1][-1])  # Foo.new(...): kept under the class's name
        self.calls.setdefault(name, []).append((target, self.self_value(ctx), in_body_block, positional, keywords))

    def self_value(self, ctx: _Ctx) -> tuple:
        """What ``self`` is where ``ctx`` reads (the resolver's value for it: an instance, the
        class, the main object), for a call record read in another file."""
        if ctx.cls is None:
            return ("top",)
        owner = self.symbols[ctx.owner]
        cls = (self.symbols[ctx.cls].qname,)
        if owner.kind == "method":
            return ("cls" if owner.extra.get("self") else "inst", cls)
        return ("cls", cls)

    def block_first(self, recv: ts.Node | None, name: str, block: ts.Node, ctx: _Ctx) -> Expr:
        """What the first parameter of a call's block is given, when the call says (else None):
        an element of the receiver (``docs.each { |doc| }``), or the receiver (``tap``)."""
        if recv is None or (name not in ITERATORS and name not in _SELF_PARAM):
            return None
        params = next((c for c in block.named_children if c.type == "block_parameters"), None)
        if params is None or (params.named_child_count > 1 and name not in _FIRST_OF_SEVERAL):
            return None  # |key, value| of a hash's each: not one element
        target = self.expr(recv, ctx)
        return target if name in _SELF_PARAM else (ELEM, target, None, name)

    def on_binary(self, node: ts.Node, ctx: _Ctx) -> None:
        """``docs << doc`` adds an element to ``docs``."""
        op, left, right = (node.child_by_field_name(f) for f in ("operator", "left", "right"))
        if op is not None and op.type == "<<" and left is not None and right is not None:
            self.element(left, self.expr(right, ctx), None, ctx)
        self.visit_children(node, ctx)

    def element(self, container: ts.Node, value: Expr, key: str | None, ctx: _Ctx) -> None:
        """``@docs << doc``, ``docs.push(doc)``, ``@by_name["x"] = doc`` in a class: the class
        records what the container (an instance variable, or a method of its own: ``docs``) holds,
        with the literal key it was stored under."""
        if ctx.cls is None or value is None or not _names_a_class(value):
            return
        if container.type == "instance_variable":
            name = text(container)
        elif container.type == "identifier" and ctx.scope.find(text(container)) is None:
            name = text(container)  # a bare call: self's method
        elif container.type == "call" and (r := container.child_by_field_name("receiver")) is not None \
                and r.type == "self" and (m := container.child_by_field_name("method")) is not None:
            name = text(m)
        else:
            return
        got = self.symbols[ctx.cls].extra.setdefault("elems", {}).setdefault(name, [])
        entry = (key, value)
        if entry not in got and len(got) < MAX_VALUES:
            got.append(entry)

    def dsl(self, name: str, node: ts.Node, args: ts.Node | None, block: ts.Node | None, ctx: _Ctx) -> bool:
        """Calls of a class body that declare something (mixins, accessors, aliases, Rails'
        associations and callbacks) and ``require``: True when handled whole."""
        in_body = ctx.cls is not None and ctx.owner == ctx.cls
        if not in_body and name not in _ANYWHERE:
            return False  # most calls: in a method's body, and no declaration
        argv = list(args.named_children) if args is not None else []
        if name in ("require", "require_relative") and len(argv) == 1 and symbol_name(argv[0]):
            self.requires.append((name, require_path(name, symbol_name(argv[0]) or "", self.relpath)))
            return False  # still a call (of Kernel's)
        if name == "include" and ctx.cls is None and ctx.owner == 0 and argv:
            self.top_level_include(node, argv, ctx)
            return False
        if not in_body:
            return False
        assert ctx.cls is not None
        cls = self.symbols[ctx.cls]
        if name in _MIXINS and not ctx.singleton and argv:
            key = "extends_self" if name == "extend" else _MIXINS[name]
            for a in argv:
                got = const_parts(a)
                cands = [cls.qname] if a.type == "self" else candidates(got[0], got[1], ctx.nesting) if got else None
                if cands:
                    cls.extra.setdefault(key, []).append(cands)
                    if name == "prepend":  # a mixin still (the reverse index finds its hosts)
                        cls.extra.setdefault("implements", []).append(cands)
            return False
        if name in _ATTRS:
            for a in argv:
                attr = symbol_name(a)
                if attr:
                    for suffix in _ATTRS[name]:
                        extra: dict[str, Any] = {"attr": True}
                        if not suffix:
                            extra["returns"] = (IVAR, f"@{attr}")  # a reader gives its instance variable
                        self.method_symbol(attr + suffix, ctx, a, a, ctx.singleton, extra)
            return True
        if name == "module_function" and not argv:
            self.bodies.setdefault(ctx.cls, _Body()).mf = True
            return False
        if name == "alias_method" and len(argv) >= 2:
            new, old = symbol_name(argv[0]), symbol_name(argv[1])
            if new and old:
                self.alias(new, old, node, argv[0], argv[1], ctx)
                return True
        if name in ("define_method", "scope") and argv and symbol_name(argv[0]):
            idx = self.method_symbol(symbol_name(argv[0]) or "", ctx, node, argv[0], ctx.singleton or name == "scope")
            inner = ctx._replace(owner=idx, scope=_Scope(ctx.scope))
            for a in argv[1:]:
                self.visit(a, inner)
            if block is not None:
                self.visit(block, inner)
            return True
        if name == "class_methods" and block is not None:  # ActiveSupport::Concern
            self.visit(block, ctx._replace(singleton=True))
            return True
        if name in ASSOCIATIONS and argv:
            assoc = symbol_name(argv[0])
            if assoc:
                target = _option(argv, "class_name")
                word = symbol_name(target) if target is not None else None
                if word:
                    parts, top = word.lstrip(":").split("::"), word.startswith("::")
                else:
                    parts, top = camelize(singularize(assoc) if ASSOCIATIONS[name] else assoc).split("."), False
                self.site(ctx, parts[-1], argv[0], ASSOC, (CONST, candidates(parts, top, ctx.nesting)), REF)
            self.visit_children(args, ctx)
            return True
        if is_callback(name):
            for a in argv:
                m = symbol_name(a)
                if m and a.type == "simple_symbol":
                    self.site(ctx, m, a, CALLBACK, None, REF)
            self.callback_options(argv, ctx)
            return False
        if argv:
            self.callback_options(argv, ctx)  # validates :x, if: :ready?
        return False

    def top_level_include(self, node: ts.Node, argv: list[ts.Node], ctx: _Ctx) -> None:
        """``include Jekyll`` at a file's top level mixes the module into ``Object``: its
        constants and methods are every object's. Recorded as a reopening of ``Object``."""
        mixins = [candidates(got[0], got[1], ()) for got in map(const_parts, argv) if got is not None]
        if mixins:
            self.symbol("Object", "Object", "class", ctx, node, node, {"implements": mixins})

    def callback_options(self, argv: list[ts.Node], ctx: _Ctx) -> None:
        for key in CALLBACK_OPTIONS:
            v = _option(argv, key)
            if v is None:
                continue
            for s in [v] if v.type == "simple_symbol" else v.named_children if v.type == "array" else []:
                m = symbol_name(s)
                if m and s.type == "simple_symbol":
                    self.site(ctx, m, s, CALLBACK, None, REF)

    # --- receivers and values
    def expr(self, node: ts.Node | None, ctx: _Ctx, depth: int = 0) -> Expr:
        if node is None or depth > 8:
            return (UNKNOWN,)
        t = node.type
        if t == "self":
            return (SELF,)
        if t in ("constant", "scope_resolution"):
            got = const_parts(node)
            return (CONST, candidates(got[0], got[1], ctx.nesting)) if got else (UNKNOWN,)
        if t == "identifier":
            vals = ctx.scope.find(text(node))
            if vals is not None:
                return (VALS, list(vals))
            let = ctx.scope.let(text(node))
            return (VALS, [let]) if let is not None else (CALL, None, text(node))
        if t == "instance_variable":
            # read in a class body's block: the assignments of its example groups' blocks
            return (IVAR, text(node), ctx.group) if ctx.group else (IVAR, text(node))
        if t == "call":
            method = node.child_by_field_name("method")
            if method is None or method.type not in ("identifier", "constant"):
                return (UNKNOWN,)
            recv = node.child_by_field_name("receiver")
            name = text(method)
            if recv is not None and name in _ELEMENT_CALLS:
                args = node.child_by_field_name("arguments")
                argv = list(args.named_children) if args is not None else []
                if name == "fetch" and argv:
                    return (ELEM, self.expr(recv, ctx, depth + 1), literal_key(argv[0]), name)
                if not argv:
                    return (ELEM, self.expr(recv, ctx, depth + 1), None, name)
            return (CALL, self.expr(recv, ctx, depth + 1) if recv is not None else None, name)
        if t == "element_reference" and (obj := node.child_by_field_name("object")) is not None:
            index = [c for c in node.named_children if c.id != obj.id]
            return (ELEM, self.expr(obj, ctx, depth + 1), literal_key(index[0]) if len(index) == 1 else None, "[]")
        if t == "array" and node.named_child_count and all(c.type not in ("splat_argument", "block_argument")
                                                         for c in node.named_children):
            elems = [self.expr(c, ctx, depth + 1) for c in node.named_children]
            if all(_names_a_class(v) for v in elems):
                return (ARRAY, elems)
        if t == "hash" and node.named_child_count and all(c.type == "pair" for c in node.named_children):
            pairs = [(literal_key(c.child_by_field_name("key")), self.expr(c.child_by_field_name("value"), ctx, depth + 1))
                     for c in node.named_children]
            if any(_names_a_class(v) for _, v in pairs):
                return (HASH, pairs)
        if t == "parenthesized_statements" and node.named_child_count == 1:
            return self.expr(node.named_children[0], ctx, depth + 1)
        lit = LITERALS.get(t)
        return (LIT, lit) if lit is not None else (UNKNOWN,)


class YardTags(NamedTuple):
    """The types a method's YARD comment states: ``@param [Type] name`` (or ``@param name
    [Type]``) and ``@return [Type]``."""

    params: dict[str, list[str]]
    returns: list[str]


_YARD_PARAM = re.compile(r"#\s*@param\s+(?:\[([^\]]*)\]\s*(\w+)|(\w+)\s+\[([^\]]*)\])")
_YARD_RETURN = re.compile(r"#\s*@return\s+\[([^\]]*)\]")
_CONST_PATH = re.compile(r"(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*")
# the core classes YARD names (``Boolean`` is YARD's own word for true or false)
YARD_CORE = {"String": "String", "Symbol": "Symbol", "Integer": "Integer", "Float": "Float", "Numeric": "Integer",
             "Array": "Array", "Hash": "Hash", "Boolean": "TrueClass", "true": "TrueClass", "false": "FalseClass",
             "Proc": "Proc", "Regexp": "Regexp", "Time": "Time", "Pathname": "Pathname"}
_ANY = frozenset({"Object", "BasicObject", "void", "self"})  # says nothing of the class


def yard_tags(method: ts.Node) -> YardTags:
    """The YARD tags of the comment lines right above a ``def``."""
    params: dict[str, list[str]] = {}
    returns: list[str] = []
    node, line = _before(method), method.start_point[0]
    while node is not None and node.type == "comment" and node.end_point[0] == line - 1:
        c = text(node)
        m = _YARD_PARAM.match(c)
        if m:
            types, name = (m.group(1), m.group(2)) if m.group(2) else (m.group(4), m.group(3))
            params[name] = _yard_types(types)
        m = _YARD_RETURN.match(c)
        if m:
            returns = _yard_types(m.group(1))
        node, line = _before(node), node.start_point[0]
    return YardTags(params, returns)


def _before(node: ts.Node) -> ts.Node | None:
    """The node before ``node`` in the source: its previous sibling, or its parent's when it is
    the first (a class body's first ``def``: the comments above it precede the body's node)."""
    while node.prev_named_sibling is None and node.parent is not None and node.parent.type in ("body_statement",
                                                                                               "block_body"):
        node = node.parent
    return node.prev_named_sibling


def _yard_types(types: str) -> list[str]:
    """``Page, Document`` -> ["Page", "Document"] (commas inside ``<...>`` kept)."""
    out, depth, cur = [], 0, ""
    for ch in types:
        depth += ch in "<({"
        depth -= ch in ">)}"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [t for t in [*out, cur.strip()] if t]


def _nesting(e: Any) -> int:
    """How deep a value's tuples and lists nest."""
    if not isinstance(e, (tuple, list)) or not e:
        return 0
    return 1 + max(_nesting(x) for x in e)


def _names_a_class(e: Expr) -> bool:
    """Whether a value may evaluate to a class or an instance (a construction, a call, a
    constant, another instance variable), not a literal or a local of unknown value."""
    if e is not None and e[0] == VALS:  # a local: each of its values
        return bool(e[1]) and all(_names_a_class(v) for v in e[1])
    if e is not None and e[0] in (ARRAY, HASH):  # a literal whose elements are known
        return True
    if e is not None and e[0] == ELEM:
        return _names_a_class(e[1])
    return e is not None and e[0] in (CALL, CONST, IVAR, PARAM) and (e[0] != CALL or e[1] is None or _names_a_class(e[1]))


def _passes_an_object(e: Expr) -> bool:
    """Whether an argument says what it is: an instance or a class of the workspace (``self``
    too), or a literal (evidence that a parameter is not only given the workspace's classes)."""
    return e == (SELF,) or (e is not None and e[0] == LIT) or _names_a_class(e)


def _last_statement(body: ts.Node | None) -> ts.Node | None:
    if body is None:
        return None
    if body.type != "body_statement":
        return body
    kids = [c for c in body.named_children if c.type not in ("comment", "rescue", "ensure", "else")]
    return kids[-1] if kids else None


def _option(argv: list[ts.Node], key: str) -> ts.Node | None:
    """The value of ``key: value`` among a call's arguments."""
    for a in argv:
        if a.type == "pair":
            k = a.child_by_field_name("key")
            if k is not None and text(k).rstrip(":").lstrip(":") == key:
                return a.child_by_field_name("value")
    return None


def _descendants(node: ts.Node) -> list[ts.Node]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.named_children)
    return out


def require_path(kind: str, spec: str, relpath: str) -> str:
    """The path (without ``.rb``) a ``require_relative`` names, relative to the workspace; a
    ``require``'s spec as written (looked up under the load path's usual roots)."""
    spec = spec[:-3] if spec.endswith(".rb") else spec
    if kind == "require_relative":
        return posixpath.normpath(posixpath.join(posixpath.dirname(relpath), spec))
    return spec


_HANDLERS = {
    "class": _Extractor.on_class, "module": _Extractor.on_class, "singleton_class": _Extractor.on_singleton_class,
    "method": _Extractor.on_method, "singleton_method": _Extractor.on_method, "call": _Extractor.on_call,
    "identifier": _Extractor.on_identifier, "assignment": _Extractor.on_assignment,
    "operator_assignment": _Extractor.on_assignment, "block": _Extractor.on_block, "do_block": _Extractor.on_block,
    "lambda": _Extractor.on_block, "for": _Extractor.on_for, "case": _Extractor.on_case, "binary": _Extractor.on_binary, "rescue": _Extractor.on_rescue,
    "super": _Extractor.on_super, "alias": _Extractor.on_alias, "undef": _Extractor.on_skip,
    "in_clause": _Extractor.on_pattern, "constant": _Extractor.on_constant, "scope_resolution": _Extractor.on_constant,
    **{p: _Extractor.on_skip for p in _PARAMS},
}
