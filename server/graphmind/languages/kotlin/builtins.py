"""Names Kotlin gives every file: what every class inherits from ``kotlin.Any`` and every enum from
``kotlin.Enum``, and the everyday standard library's method names."""

from __future__ import annotations

# Method names of the standard library's everyday types and scope functions: an unknown receiver
# calling one of these is no evidence for the one workspace method of that name. Added to the
# toolkit's shared list (get, add, map, filter... are there already), never a copy of it.
COMMON_METHODS = frozenset(
    {"also", "any", "associate", "build", "collect", "create", "distinct", "first", "firstOrNull", "flatMap",
     "getOrNull", "getOrPut", "invoke", "isEmpty", "isNotEmpty", "last", "let", "launch", "mapNotNull", "none",
     "onEach", "orEmpty", "plus", "print", "println", "single", "sortedBy", "sumOf", "take", "takeIf", "toList",
     "toMap", "toMutableList", "toSet", "use", "value", "with"}
)
OBJECT_METHODS = frozenset({"toString", "equals", "hashCode", "copy", "component1", "component2", "component3"})
ENUM_METHODS = frozenset({"values", "valueOf", "name", "ordinal", "compareTo", "entries"})
