"""Names Rust and its standard library give a file without the workspace defining them: the
prelude, primitive types, smart pointers a method call sees through, and std method names."""

from __future__ import annotations

# Wrappers that a method call sees through (auto-deref) or that ``?``/``unwrap`` strip.
WRAPPERS = frozenset(
    {"Box", "Rc", "Arc", "Option", "Result", "RefCell", "Cell", "Mutex", "RwLock", "Cow", "Pin",
     "MutexGuard", "RwLockReadGuard", "RwLockWriteGuard", "Ref", "RefMut", "Weak", "ManuallyDrop"}
)
# Methods that hand back (a view of) their receiver: ``x.clone().m()`` calls ``m`` on x's type.
IDENTITY_METHODS = frozenset(
    {"clone", "unwrap", "expect", "as_ref", "as_mut", "borrow", "borrow_mut", "lock", "read", "write",
     "unwrap_or_default", "to_owned", "as_deref", "as_deref_mut", "get_mut", "deref", "deref_mut",
     "unwrap_unchecked", "upgrade"}
)
# Names a Rust file sees without importing them (prelude, primitive types, std macros' helpers).
PRELUDE = frozenset(
    {"Some", "None", "Ok", "Err", "Box", "Vec", "String", "Option", "Result", "drop", "Default",
     "Clone", "Copy", "Send", "Sync", "Sized", "Iterator", "IntoIterator", "Extend", "From", "Into",
     "TryFrom", "TryInto", "AsRef", "AsMut", "ToString", "ToOwned", "PartialEq", "Eq", "PartialOrd",
     "Ord", "Fn", "FnMut", "FnOnce", "Drop", "std", "core", "alloc", "str", "char", "bool", "u8", "u16",
     "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64",
     "Self", "self", "print", "println", "format", "vec", "panic", "assert", "assert_eq", "assert_ne",
     "debug_assert", "write", "writeln", "eprintln", "eprint", "todo", "unimplemented", "unreachable",
     "matches", "dbg", "include_str", "concat", "env", "line", "file", "stringify", "cfg"}
)
PRIMITIVES = frozenset(
    {"str", "char", "bool", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
     "f32", "f64", "String", "Vec", "Option", "Result", "Box"}
)
# Method names of std types and traits: an unknown receiver calling one is no evidence for the one
# workspace type that happens to define it.
STD_METHODS = frozenset(
    {"new", "default", "clone", "to_string", "into", "from", "iter", "iter_mut", "into_iter", "len", "is_empty",
     "push", "pop", "get", "get_mut", "insert", "remove", "contains", "contains_key", "map", "and_then",
     "unwrap", "expect", "ok", "err", "collect", "filter", "fold", "next", "fmt", "eq", "cmp", "partial_cmp",
     "hash", "as_str", "as_ref", "as_mut", "borrow", "borrow_mut", "lock", "read", "write", "send", "recv",
     "extend", "clear", "first", "last", "keys", "values", "entry", "join", "split", "trim", "parse",
     "drop", "deref", "run", "start", "stop", "close", "flush", "build", "with_capacity", "add", "sub",
     "index", "call", "apply", "update", "set", "take", "replace", "is_some", "is_none", "is_ok", "is_err"}
)
