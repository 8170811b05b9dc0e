"""What language plugins share, written once: the labelling policy and the one list of common
method names (:mod:`.labels`), dispatch to overrides and implementations (:mod:`.dispatch`), the
enclosing-scope sweep (:mod:`.scopes`), values and their merge (:mod:`.values`), the view over
a family of languages (:mod:`.family`), the generated code a plugin skips (:mod:`.generated`), a
node's text, range and signature (:mod:`.nodes`), and the resolver of the nominal object-oriented
languages -- Java, C#, Kotlin -- (:mod:`.nominal`, over the receiver expressions and type lookup of
:mod:`.names`; their extractors' skeleton: :mod:`.declarations`), and the site resolutions a
keystroke reuses (:mod:`.site_memo`, TS/JS and Python)."""

from .dispatch import Dispatch, construct_via, dispatch_via
from .family import FamilyView
from .labels import (
    COMMON_METHOD_NAMES,
    MAX_AMBIGUOUS,
    MAX_DEPTH,
    by_name_confidence,
    is_common_name,
    known_confidence,
    label_by_name,
    label_known,
    unresolved,
)
from .scopes import Scope, in_scopes
from .values import Value, ValueResolver, merge_values

__all__ = [
    "COMMON_METHOD_NAMES",
    "MAX_AMBIGUOUS",
    "MAX_DEPTH",
    "Dispatch",
    "FamilyView",
    "Scope",
    "Value",
    "ValueResolver",
    "by_name_confidence",
    "construct_via",
    "dispatch_via",
    "in_scopes",
    "is_common_name",
    "known_confidence",
    "label_by_name",
    "label_known",
    "merge_values",
    "unresolved",
]
