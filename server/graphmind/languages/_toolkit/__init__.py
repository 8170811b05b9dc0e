"""What language plugins share, written once: the labelling policy (:mod:`.labels`), the
enclosing-scope sweep (:mod:`.scopes`), values and their merge (:mod:`.values`) and the view over
a family of languages (:mod:`.family`)."""

from .family import FamilyView
from .labels import (
    COMMON_METHOD_NAMES,
    MAX_AMBIGUOUS,
    MAX_DEPTH,
    by_name_confidence,
    known_confidence,
    label_by_name,
    label_known,
    unresolved,
)
from .scopes import Scope, ScopeSweep, in_scopes
from .values import Value, ValueResolver, merge_values

__all__ = [
    "COMMON_METHOD_NAMES",
    "MAX_AMBIGUOUS",
    "MAX_DEPTH",
    "FamilyView",
    "Scope",
    "ScopeSweep",
    "Value",
    "ValueResolver",
    "by_name_confidence",
    "in_scopes",
    "known_confidence",
    "label_by_name",
    "label_known",
    "merge_values",
    "unresolved",
]
