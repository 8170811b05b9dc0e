"""Python's builtin names: what an unknown name or receiver may be outside the workspace."""

from __future__ import annotations

import builtins
import io

BUILTINS = frozenset(dir(builtins))
# Method names of builtin types and files, added to the names every language shares
# (``_toolkit.COMMON_METHOD_NAMES``): an unknown receiver calling one of these is as likely a
# list, dict, str or file as the one workspace class that happens to define it.
BUILTIN_METHODS = frozenset(
    n
    for t in (
        list, dict, str, bytes, set, frozenset, tuple, int, float, object, io.IOBase, io.TextIOBase, io.StringIO,
        io.BytesIO,
    )
    for n in dir(t)
) | {"send", "recv"}

# Builtin and typing generics whose type arguments say what iterating them yields: a sequence's
# (or set's, iterator's) elements are its first argument, a mapping's keys its first and values
# its second, a tuple's its positions (``tuple[Foo, ...]``: every position).
SEQUENCE_TYPES = frozenset(
    """list List Sequence MutableSequence Iterable Iterator Collection Container Reversible Generator
    AsyncIterable AsyncIterator AsyncGenerator set Set frozenset FrozenSet AbstractSet MutableSet deque Deque
    KeysView ValuesView""".split()
)
MAPPING_TYPES = frozenset(
    "dict Dict Mapping MutableMapping defaultdict DefaultDict OrderedDict Counter ChainMap".split()
)
TUPLE_TYPES = frozenset({"tuple", "Tuple"})
