"""Ruby's syntax as the extractor and resolver share it: the expressions a receiver is made of,
constant paths and their lexical candidates (``Module.nesting``), and the names Rails derives
from a symbol (``has_many :line_items`` -> ``LineItem``).

A receiver expression is a plain tuple (stored with the facts, read back by the resolver):

* ``None`` -- no receiver: a call on ``self`` (``save``, ``save(1)``, a bare identifier that is
  not a local variable);
* ``(SELF,)`` -- ``self``;
* ``(CONST, cands)`` -- a constant path (``Shop::Repo``), as the qualified names it may mean,
  innermost lexical scope first (``Module.nesting``, then the top level);
* ``(CALL, recv, name)`` -- what ``recv.name`` returns (``Repo.new``: an instance);
* ``(VALS, [expr, ...])`` -- a local variable: the values assigned to it so far in its scope
  (an unknown one is ``(UNKNOWN,)``: a parameter, a block's argument);
* ``(IVAR, name)`` -- an instance variable (its class's recorded assignments);
* ``(LIT, type)`` -- a literal of a core class (``"s"``, ``[1]``, ``{}``, ``1``);
* ``(ARRAY, [expr, ...])`` -- an array literal whose elements name classes (``[Foo.new, Bar]``);
* ``(HASH, [(key, expr), ...])`` -- a hash literal with a value that names a class (``{"a" =>
  Foo.new}``; ``key``: the literal string or symbol key, else None);
* ``(ELEM, container, key, method)`` -- an element of ``container`` (``x[key]``, ``x.first``,
  ``x.fetch(:key)``, the block parameter of ``x.each { |e| }``): ``method`` is the call that
  gives it, which a workspace class of ``container`` may define itself;
* ``(PARAM, owner, singleton, method, position, keyword)`` -- a method's parameter nothing else
  describes (no default naming a class, no YARD type): what the workspace's callers of the method
  pass at ``position`` (a keyword parameter: under ``keyword``, position -1);
* ``(UNKNOWN,)`` -- anything else.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from .._toolkit.nodes import text

SELF, CONST, CALL, VALS, IVAR, LIT, UNKNOWN = "self", "const", "call", "vals", "ivar", "lit", "?"
ARRAY, HASH, ELEM, PARAM = "array", "hash", "elem", "param"
SPLAT = "*"  # a call's ``*args`` or ``**opts``, after which its arguments are not known by position
Expr = tuple | None

# the node types of literals, by the core class their value is an instance of
LITERALS = {
    "string": "String", "chained_string": "String", "heredoc_beginning": "String", "subshell": "String",
    "simple_symbol": "Symbol", "delimited_symbol": "Symbol", "integer": "Integer", "float": "Float",
    "rational": "Rational", "complex": "Complex", "array": "Array", "string_array": "Array",
    "symbol_array": "Array", "hash": "Hash", "regex": "Regexp", "range": "Range", "true": "TrueClass",
    "false": "FalseClass", "nil": "NilClass", "lambda": "Proc",
}


def const_parts(node: ts.Node | None) -> tuple[list[str], bool] | None:
    """``A::B::C`` as ``["A", "B", "C"]`` and whether it starts at the top (``::A``); None: not a
    constant path (``expr::C``)."""
    parts: list[str] = []
    while node is not None:
        if node.type == "constant":
            parts.append(text(node))
            return list(reversed(parts)), False
        if node.type != "scope_resolution":
            return None
        name = node.child_by_field_name("name")
        if name is None or name.type != "constant":
            return None
        parts.append(text(name))
        node = node.child_by_field_name("scope")
        if node is None:
            return list(reversed(parts)), True
    return None


def candidates(parts: list[str], top: bool, nesting: tuple[str, ...]) -> list[str]:
    """The qualified names a constant path may mean, in Ruby's lexical order: under each
    enclosing class or module, innermost first, then at the top level."""
    path = ".".join(parts)
    if top:
        return [path]
    return [f"{n}.{path}" for n in nesting] + [path]


def new_key(qname: str) -> str:
    """The name a ``Foo.new(...)`` call's arguments are published under (the class's own name:
    ``new`` alone is called with arguments from everywhere)."""
    return f"{qname.rpartition('.')[2]}.new"


def underscore(name: str) -> str:
    """``Shop.HTTPRepo`` -> ``shop.http_repo``: the file path Ruby's convention (Zeitwerk, Rails'
    autoloading) gives a constant, with dots."""
    out = []
    for part in name.split("."):
        part = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", part)
        out.append(re.sub(r"([a-z\d])([A-Z])", r"\1_\2", part).lower())
    return ".".join(out)


def camelize(word: str) -> str:
    """``line_item`` -> ``LineItem``; ``admin/user`` -> ``Admin.User``."""
    return ".".join("".join(p[:1].upper() + p[1:] for p in seg.split("_") if p) for seg in word.split("/"))


_IRREGULAR = {"people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse"}


def singularize(word: str) -> str:
    """The English singular ActiveSupport's default rules give for the common cases."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for plural, single in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("ses", "s")):
        if word.endswith(plural):
            return word[: -len(plural)] + single
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def literal_key(node: ts.Node | None) -> str | None:
    """The key a hash is indexed with when it is a literal (``"a"``, ``:a``, ``a:``), else None."""
    if node is None:
        return None
    if node.type == "hash_key_symbol":
        return text(node)
    return symbol_name(node) if node.type in ("simple_symbol", "string", "delimited_symbol") else None


def symbol_name(node: ts.Node) -> str | None:
    """The name of a ``:sym`` or ``"str"`` argument (a method or association name)."""
    if node.type == "simple_symbol":
        return text(node)[1:]
    if node.type in ("string", "delimited_symbol") and all(c.type == "string_content" for c in node.named_children):
        return "".join(text(c) for c in node.named_children) or None
    return None
