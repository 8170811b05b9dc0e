"""Names the JDK gives every Java file: methods inherited from ``java.lang.Object`` and
``java.lang.Enum``, and the method names of everyday JDK types."""

from __future__ import annotations

# Method names of the JDK's everyday types: an unknown receiver calling one of these is no evidence
# for the one workspace class that happens to define it. Added to the toolkit's one shared list
# (COMMON_METHOD_NAMES: get, add, close, ... are there already), never a copy of it.
COMMON_METHODS = frozenset(
    {"accept", "build", "collect", "compareTo", "create", "entrySet", "getId", "getKey", "getName",
     "getValue", "hasNext", "init", "isEmpty", "iterator", "keySet", "of", "print", "println", "save",
     "stream", "test", "valueOf"}
)
# Methods every class inherits from java.lang.Object, and every enum from java.lang.Enum.
OBJECT_METHODS = frozenset(
    {"toString", "equals", "hashCode", "getClass", "clone", "finalize", "notify", "notifyAll", "wait"}
)
ENUM_METHODS = frozenset({"values", "valueOf", "name", "ordinal", "compareTo", "getDeclaringClass", "describeConstable"})
