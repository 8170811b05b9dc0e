"""Python's builtin names: what an unknown name or receiver may be outside the workspace."""

from __future__ import annotations

import builtins

BUILTINS = frozenset(dir(builtins))
# Method names of builtin types: an unknown receiver calling one of these is as likely a list,
# dict or str as the one workspace class that happens to define it.
BUILTIN_METHODS = frozenset(
    n
    for t in (list, dict, str, bytes, set, frozenset, tuple, int, float, object)
    for n in dir(t)
) | {"read", "write", "close", "flush", "readline", "readlines", "seek", "tell", "send", "recv"}
