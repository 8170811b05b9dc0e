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
# workspace type that happens to define it. Added to the toolkit's one shared list
# (COMMON_METHOD_NAMES: get, push, close, ... are there already), never a copy of it.
STD_METHODS = frozenset(
    {"and_then", "as_mut", "as_ref", "as_str", "borrow", "borrow_mut", "build", "cmp", "collect",
     "contains_key", "default", "deref", "drop", "entry", "eq", "err", "expect", "first", "fmt", "fold",
     "from", "get_mut", "hash", "into", "into_iter", "is_empty", "is_err", "is_none", "is_ok", "is_some",
     "iter_mut", "last", "len", "new", "ok", "partial_cmp", "recv", "take", "to_string", "trim", "unwrap",
     "with_capacity"}
)
