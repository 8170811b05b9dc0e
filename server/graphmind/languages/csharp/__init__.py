"""C#: extraction from ``queries/csharp/tags.scm`` and resolution through C#'s own scoping, on the
shared nominal resolver (:mod:`.._toolkit.nominal`).

* :mod:`.syntax` -- type names, parameters, modifiers, receiver expressions;
* :mod:`.extract` -- a file's namespaces and ``using`` directives, types (partial ones are one
  type), members (methods, constructors, properties, extension methods), call sites and locals;
* :mod:`.builtins` -- what every type inherits from ``System.Object``, and everyday BCL names;
* :mod:`.policy` -- tests (``[Fact]``, ``[Test]``, ``[TestMethod]``) and entry points (``Main``).
"""

from __future__ import annotations

from .. import extensions_of, register
from .._toolkit import nominal
from . import extract
from . import policy as entry_rules
from .builtins import COMMON_METHODS, ENUM_METHODS, OBJECT_METHODS

POLICY = nominal.Policy(
    "csharp", COMMON_METHODS, OBJECT_METHODS, ENUM_METHODS,
    partial=True, upper_packages=True, bases_in_one_list=True, extensions=True, overloads_by_type=True,
)


class CSharp(nominal.NominalLanguage):
    name = "csharp"
    grammar = "csharp"
    extensions = extensions_of("csharp")
    lsp_ids = ("csharp", "cs")  # VS Code's language id, Neovim's filetype
    policy = POLICY
    extract_facts = staticmethod(extract.extract)
    rules = entry_rules


register(CSharp())
