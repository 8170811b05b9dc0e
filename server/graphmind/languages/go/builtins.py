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
# Methods every Go programmer calls on library types: an unknown receiver calling one of these is
# as likely a *sql.DB or a bytes.Buffer as the one workspace type that defines it.
COMMON_METHODS = frozenset(
    """Error String Close Read Write Lock Unlock RLock RUnlock Done Err Value Wait Add Get Set Del Len Less Swap
    Next Scan Exec Query QueryRow Begin Commit Rollback Encode Decode Marshal Unmarshal Unwrap Is As Format
    Printf Println Sprintf Errorf Fatal Fatalf Log Logf Run Start Stop Serve ServeHTTP Handle HandleFunc Header
    WriteHeader Do Send Load Store Reset Bytes Int Float Bool Cancel Deadline Sub Before After Equal Sum""".split()
)
