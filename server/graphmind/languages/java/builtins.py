"""Names the JDK gives every Java file: methods inherited from ``java.lang.Object`` and
``java.lang.Enum``, and the method names of everyday JDK types."""

from __future__ import annotations

# Method names of the JDK's everyday types: an unknown receiver calling one of these is no evidence
# for the one workspace class that happens to define it.
COMMON_METHODS = frozenset(
    {"get", "set", "add", "put", "remove", "size", "equals", "hashCode", "toString", "contains", "isEmpty",
     "run", "close", "apply", "accept", "test", "compareTo", "length", "stream", "map", "filter", "forEach",
     "collect", "iterator", "next", "hasNext", "clear", "keySet", "values", "entrySet", "getKey", "getValue",
     "append", "format", "valueOf", "println", "print", "start", "stop", "build", "of", "call", "execute",
     "getName", "getId", "write", "read", "flush", "init", "update", "create", "delete", "save", "find", "load"}
)
# Methods every class inherits from java.lang.Object, and every enum from java.lang.Enum.
OBJECT_METHODS = frozenset(
    {"toString", "equals", "hashCode", "getClass", "clone", "finalize", "notify", "notifyAll", "wait"}
)
ENUM_METHODS = frozenset({"values", "valueOf", "name", "ordinal", "compareTo", "getDeclaringClass", "describeConstable"})
