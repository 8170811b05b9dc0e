"""Go's predeclared names, and the methods every Go program calls on library types."""

from __future__ import annotations

BUILTIN_FUNCS = frozenset(
    "append cap clear close complex copy delete imag len make max min new panic print println real recover".split()
)
BUILTIN_TYPES = frozenset(
    """bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
    uint16 uint32 uint64 uintptr any comparable""".split()
)
BUILTINS = BUILTIN_FUNCS | BUILTIN_TYPES | {"nil", "true", "false", "iota"}
# The methods of Go's standard library types (net/http, database/sql, sync, sort, testing, fmt,
# errors, ...) that an unknown receiver is as likely to call as the one workspace type defining
# them: added to the toolkit's one shared list (COMMON_METHOD_NAMES, matched capitalised: Close,
# Read, Get, Run ... are there already), never a copy of it.
COMMON_METHODS = frozenset(
    """After As Before Begin Bool Bytes Deadline Del Do Equal Err Errorf Exec Fatal Fatalf Float Handle HandleFunc
    Header Int Is Len Less Log Logf Marshal Printf Println Query QueryRow RLock RUnlock Scan Serve ServeHTTP
    Sprintf Store String Sum Swap Unlock Unmarshal Unwrap Value WriteHeader""".split()
)
