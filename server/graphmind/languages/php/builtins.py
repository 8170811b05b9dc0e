"""Method names of PHP's own classes and interfaces (exceptions, dates, iterators, array access,
PDO, SPL): an unknown receiver calling one of these is no evidence for the one workspace method
that happens to share the name. Added to the toolkit's one shared list
(``COMMON_METHOD_NAMES``: get, set, add, count... are there already), never a copy of it."""

from __future__ import annotations

COMMON_METHODS = frozenset(
    {"getMessage", "getCode", "getPrevious", "getTrace", "getTraceAsString", "getFile", "getLine", "modify",
     "getTimestamp", "setTimestamp", "setTimezone", "getTimezone", "diff", "offsetGet", "offsetSet", "offsetExists",
     "offsetUnset", "current", "key", "rewind", "valid", "getIterator", "jsonSerialize", "__toString", "__invoke",
     "prepare", "query", "fetchAll", "fetchColumn", "fetchObject", "bindValue", "bindParam", "lastInsertId",
     "beginTransaction", "setAttribute", "getAttribute", "getName", "getValue", "setValue", "serialize",
     "unserialize", "toArray", "getType", "isEmpty", "attach", "detach", "contains", "seek",
     "getArrayCopy", "getContents", "getBody", "getHeader", "getHeaders", "withHeader", "getStatusCode",
     "getUri", "getMethod", "handle", "invoke", "newInstance", "newInstanceArgs", "getShortName", "setAccessible",
     "isPublic", "getParameters", "getReturnType", "getDocComment"}
)
