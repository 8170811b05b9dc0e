"""Kotlin: extraction from ``queries/kotlin/tags.scm`` and resolution through Kotlin's own
scoping, on the shared nominal resolver (:mod:`.._toolkit.nominal`).

* :mod:`.syntax` -- type names, parameters, modifiers, receiver expressions;
* :mod:`.extract` -- a file's package and imports, classes, objects and companion objects,
  members, top-level and extension functions, call sites and locals;
* :mod:`.builtins` -- what every class inherits from ``kotlin.Any``, and everyday library names;
* :mod:`.policy` -- tests (``@Test``) and entry points (``fun main``, overrides).
"""

from __future__ import annotations

from .. import extensions_of, register
from .._toolkit import nominal
from . import extract
from . import policy as entry_rules
from .builtins import COMMON_METHODS, ENUM_METHODS, OBJECT_METHODS

POLICY = nominal.Policy(
    "kotlin", COMMON_METHODS, OBJECT_METHODS, ENUM_METHODS, implicit_receivers=True, extensions=True,
    package_functions=True,
)


class Kotlin(nominal.NominalLanguage):
    name = "kotlin"
    grammar = "kotlin"
    extensions = extensions_of("kotlin")
    lsp_ids = ("kotlin",)
    comments_trail = True  # a KDoc after the package header or the imports is their last child
    policy = POLICY
    extract_facts = staticmethod(extract.extract)
    rules = entry_rules


register(Kotlin())
