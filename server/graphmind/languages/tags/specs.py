"""The tag-level languages: one :class:`Spec` each (grammar, LSP ids, and the
few words the generic rules need: receivers that mean "this object", constructor names, keywords
that parse as calls, builtin method names)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


class Foreign(NamedTuple):
    """Another format that shares the language's extension: a file whose first
    :data:`FOREIGN_PROBE` bytes match ``pattern`` is that format (``what``), not code."""

    pattern: re.Pattern[bytes]
    what: str


FOREIGN_PROBE = 4096


class TestRule(NamedTuple):
    """A test of a tag-level language's framework (``changes`` lists those a change reaches, dead
    code leaves them out): a function or method whose name, header (attributes, modifiers) and
    file's text match the patterns given (None: any)."""

    kind: str  # the framework, as ``changes`` names it
    name: re.Pattern[str] | None = None
    header: re.Pattern[str] | None = None
    file: re.Pattern[str] | None = None  # searched in each line of the file (an import, a base class)
    path: re.Pattern[str] | None = None  # searched in the file's path


@dataclass(frozen=True)
class Spec:
    name: str
    grammar: str
    lsp_ids: tuple[str, ...]
    self_names: frozenset[str] = frozenset()  # receivers meaning "this object/class"
    ctor_names: tuple[str, ...] = ()  # constructor method names; "<class>": named like the class
    ignore: frozenset[str] = frozenset()  # callee names that are keywords/special forms, not calls
    # method names of the language's standard library beyond the shared list
    # (``_toolkit.COMMON_METHOD_NAMES``): ``x.f()`` with one workspace ``f`` of such a name is
    # ambiguous, not inferred (the receiver is as likely a string or a list)
    builtin_methods: frozenset[str] = frozenset()
    # a call's receiver always names a module (OCaml ``M.f``, Erlang ``m:f``): when no workspace
    # module of that name defines the callee, the call leaves the workspace (unresolved)
    module_receivers: bool = False
    # a bare call ``f()`` may mean a member of the enclosing class (an implicit this/self); not in
    # Lua (``function M.f`` is a table's field) nor Haskell (an instance's method is reached
    # through its class)
    implicit_members: bool = True
    # a bare call may mean another file's method (a Swift or Scala subclass calling an inherited
    # one); not in Lua, Haskell, Elixir (a `defimpl`'s functions are reached through the protocol)
    bare_methods: bool = True
    # a definition nested in a function is global (Bash, Perl, the Lisps' defun, Tcl's proc, Vim
    # script), or a member of the struct type the function returns (Zig's generic types), not local
    # to that function
    nested_global: bool = False
    # an instance is created with `new Foo()` (Pascal: `TFoo.Create`) only: `Foo(x)` is a type
    # conversion (Solidity's `IERC20(addr)`, Pascal's `TFoo(x)` cast), no call of Foo
    new_only: bool = False
    # a bare call names its own file's definitions only, or an imported one (Erlang: another
    # module's function is called as m:f(), or after -import(m, [f/1]))
    bare_local_only: bool = False
    # receivers whose chain starts with one of these names are the standard library's (Zig's
    # `std.testing.expect()`): such a call is none of the workspace's, whatever its last name
    library_roots: frozenset[str] = frozenset()
    # `->` is part of a name (the Lisps' `string->number`), not a member access (Perl's `$o->f`)
    arrow_names: bool = False
    # calling a type whose constructor takes no arguments (or that declares none) calls this method
    # of it too: Pony's create-apply sugar, `Foo(x)` is `Foo.create().apply(x)`
    type_call_method: str = ""
    # characters a call's name may start with that are no part of the name (Perl's `&f`, a `$`
    # variable called); in the Lisps `%` and `*` are name characters (`%make-iset`, `*print-fn*`)
    sigils: str = "&$@%*"
    queries: str = ""  # the folder under queries/ when another language's query fits the grammar
    foreign: tuple[Foreign, ...] = ()  # formats that share the extension (skipped, with a reason)
    # dead code: what the runtime, engine or toolchain calls though no code does -- definitions by
    # name (``main``; ``Owner.name``: a member of a type of that name, Pony's ``Main.create``), and
    # a mark in a definition's header (an attribute, a modifier: Hack's ``<<__EntryPoint>>``)
    entry_points: frozenset[str] = frozenset()
    entry_mark: re.Pattern[str] | None = None
    tests: tuple[TestRule, ...] = ()


_ELIXIR_FORMS = frozenset(
    {"def", "defp", "defmodule", "defmacro", "defmacrop", "defstruct", "defprotocol", "defimpl", "defguard",
     "defguardp", "defdelegate", "defexception", "defoverridable", "if", "unless", "case", "cond", "with", "for",
     "fn", "quote", "unquote", "import", "alias", "require", "use", "receive", "try", "raise", "super"}
)

_LISP_FORMS = frozenset(
    {"def", "defn", "defn-", "defmacro", "defmulti", "defmethod", "defprotocol", "defrecord", "deftype", "definterface",
     "defun", "defvar", "defparameter", "defconst", "defcustom", "defgeneric", "defclass", "defstruct", "ns", "in-ns",
     "let", "let*", "letfn", "if", "when", "unless", "cond", "case", "do", "progn", "fn", "lambda", "loop", "recur",
     "quote", "setq", "setf", "and", "or", "not", "require", "provide", "declare", "interactive", "try", "catch",
     "define", "define-syntax", "define-syntax-rule", "define/contract", "local", "var", "set", "each", "macro",
     "global", "λ"}
)
_TCL_COMMANDS = frozenset(
    {"set", "return", "expr", "if", "for", "foreach", "while", "switch", "puts", "incr", "list", "lappend", "lindex",
     "llength", "string", "dict", "array", "global", "variable", "upvar", "namespace", "package", "source", "error",
     "catch", "format", "proc", "eval", "uplevel", "break", "continue"}
)

# methods of Lua's string and file values (``s:gsub()``, ``f:lines()``)
_LUA_METHODS = frozenset(
    {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep", "reverse", "sub", "upper",
     "close", "flush", "lines", "read", "seek", "setvbuf", "write"}
)
# methods of Scala's collections, options and strings
_SCALA_METHODS = frozenset(
    {"map", "flatMap", "filter", "filterNot", "foreach", "fold", "foldLeft", "foldRight", "reduce", "collect", "drop",
     "dropRight", "dropWhile", "take", "takeRight", "takeWhile", "zip", "zipWithIndex", "head", "tail", "last", "init",
     "exists", "forall", "find", "contains", "mkString", "toList", "toSeq", "toSet", "toMap", "toArray", "sum", "min",
     "max", "sortBy", "sorted", "groupBy", "distinct", "indexOf", "slice", "split", "trim", "getOrElse", "orElse",
     "isEmpty", "nonEmpty", "isDefined", "apply", "update", "length", "size", "grouped", "sliding", "flatten",
     "reverse", "iterator", "mapValues", "partition", "span", "count", "padTo", "startsWith", "endsWith"}
)

# Perl's builtin functions (perlfunc) that code calls bare: `split /,/, $s` is never a workspace `sub split`
_PERL_BUILTINS = frozenset(
    {"split", "join", "push", "pop", "shift", "unshift", "splice", "reverse", "sort", "map", "grep", "keys", "values",
     "each", "delete", "exists", "defined", "undef", "ref", "bless", "die", "warn", "eval", "return", "print", "printf",
     "sprintf", "open", "close", "binmode", "read", "sysread", "syswrite", "seek", "tell", "eof", "length", "substr",
     "index", "rindex", "uc", "lc", "ucfirst", "lcfirst", "chomp", "chop", "chr", "ord", "hex", "oct", "abs", "int",
     "sqrt", "rand", "srand", "time", "localtime", "gmtime", "sleep", "wantarray", "local", "scalar", "pack", "unpack",
     "require", "do", "exit", "system", "exec", "fork", "wait", "waitpid", "kill", "unlink", "mkdir", "rmdir", "rename",
     "chdir", "opendir", "readdir", "closedir", "stat", "lstat", "select", "caller", "pos", "quotemeta", "lock",
     "exp", "log", "sin", "cos", "atan2", "fileno", "flock", "chmod"}
)

# members of Solidity's builtin types and globals (`bytes.concat`, `abi.encode`, `arr.push`, `addr.call`)
_SOLIDITY_METHODS = frozenset(
    {"concat", "encode", "encodePacked", "encodeWithSelector", "encodeWithSignature", "encodeCall", "decode", "push",
     "pop", "transfer", "send", "call", "delegatecall", "staticcall"}
)

# the global objects of Electric Imp's Squirrel API (agent and device code)
_IMP_GLOBALS = frozenset({"agent", "device", "server", "imp", "hardware", "http", "crypto", "math"})

# methods of Apex's system types that workspace classes also declare: a Database result's, an
# exception's, an SObject's and its describe's, a custom setting's (`saveResult.getId()`,
# `e.getMessage()`, `Settings__c.getInstance()`)
_APEX_METHODS = frozenset(
    {"getId", "isSuccess", "getErrors", "getStatusCode", "getFields", "getMessage", "getTypeName", "getCause",
     "getLineNumber", "getStackTraceString", "getSObjectType", "getSObject", "getSObjects", "getPopulatedFieldsAsMap",
     "getDescribe", "getName", "getLabel", "getType", "getInstance", "getValues", "getAll", "getOrgDefaults",
     "containsKey", "keySet", "addAll", "isEmpty", "valueOf"}
)

# OTP's behaviour callbacks (gen_server, supervisor, application), called by the runtime
_OTP_CALLBACKS = frozenset(
    {"init", "handle_call", "handle_cast", "handle_info", "handle_continue", "terminate", "code_change", "start",
     "stop"}
)
# the methods Godot's engine calls on a node or object
_GODOT_CALLBACKS = frozenset(
    {"_init", "_ready", "_process", "_physics_process", "_input", "_unhandled_input", "_unhandled_key_input",
     "_enter_tree", "_exit_tree", "_draw", "_notification", "_gui_input", "_integrate_forces",
     "_get_configuration_warnings"}
)
_MAIN = frozenset({"main"})

TABLE: tuple[Spec, ...] = (
    Spec("swift", "swift", ("swift",), frozenset({"self", "super", "Self"}), ("init",), entry_points=_MAIN,
         entry_mark=re.compile(r"@main\b"), tests=(
             TestRule("xctest", name=re.compile(r"^test"), file=re.compile(r"^\s*(?:@testable\s+)?import\s+XCTest\b")),
             TestRule("swift testing", header=re.compile(r"@Test\b")),
         )),
    Spec("scala", "scala", ("scala",), frozenset({"this", "super"}), builtin_methods=_SCALA_METHODS,
         entry_points=_MAIN, entry_mark=re.compile(r"@main\b"), tests=(TestRule("junit", header=re.compile(r"@Test\b")),)),
    Spec("lua", "lua", ("lua",), frozenset({"self"}), builtin_methods=_LUA_METHODS, implicit_members=False, nested_global=True,
         bare_methods=False),
    Spec("bash", "bash", ("shellscript", "bash", "sh"), nested_global=True),
    Spec("elixir", "elixir", ("elixir",), frozenset({"__MODULE__"}), (), _ELIXIR_FORMS, module_receivers=True,
         bare_methods=False, entry_points=_OTP_CALLBACKS),
    Spec("perl", "perl", ("perl",), frozenset({"$self", "$class", "__PACKAGE__", "shift"}), ("new",), _PERL_BUILTINS,
         nested_global=True),
    Spec("r", "r", ("r",)),
    Spec("julia", "julia", ("julia",), ctor_names=("<class>",)),  # an inner constructor, named like its struct
    Spec("zig", "zig", ("zig",), frozenset({"self", "@This()"}), nested_global=True, library_roots=frozenset({"std"}),
         entry_points=_MAIN),
    Spec("haskell", "haskell", ("haskell",), implicit_members=False, bare_methods=False, entry_points=_MAIN),
    Spec("ocaml", "ocaml", ("ocaml",), frozenset({"self"}), module_receivers=True),
    Spec("clojure", "clojure", ("clojure",), ignore=_LISP_FORMS, module_receivers=True,  # alias/f: a namespace's
         entry_points=frozenset({"-main"})),
    Spec("erlang", "erlang", ("erlang",), module_receivers=True, bare_local_only=True,
         entry_points=_OTP_CALLBACKS | _MAIN,  # main/1: an escript's
         tests=(TestRule("eunit", name=re.compile(r"_test_?$"), file=re.compile(r"-include_lib\(\s*\"eunit/")),)),
    Spec("fsharp", "fsharp", ("fsharp",), frozenset({"this"}), entry_mark=re.compile(r"\[<\s*EntryPoint\s*>\]"),
         tests=(TestRule("dotnet test", header=re.compile(r"\[<\s*(?:Test|Fact|Theory|TestMethod|Property)\b")),)),
    Spec("objc", "objc", ("objective-c", "objc"), frozenset({"self", "super"}), ("init",), entry_points=_MAIN),
    Spec("elisp", "elisp", ("elisp", "emacs-lisp"), ignore=_LISP_FORMS, nested_global=True, arrow_names=True,
         sigils=""),
    Spec("commonlisp", "commonlisp", ("commonlisp", "lisp"), ignore=_LISP_FORMS, nested_global=True,
         arrow_names=True, sigils=""),
    Spec("d", "d", ("d",), frozenset({"this", "super"}), ("this",), entry_points=_MAIN, foreign=(
        # what ``cc -MD`` writes beside objects: ``out/x.o: src/x.c include/y.h \\`` (a D attribute
        # label, ``@safe:``, has no '.' or '/' in it; a comment starts ``//``, ``/*`` or ``/+``)
        Foreign(re.compile(rb"\A\s*(?!/[/*+])[^\s:#@]*[./][^\s:#]*(?:[ \t]+[^\s:#]+)*[ \t]*:(?:\s|$)"), "a make dependency file"),
    )),
    Spec("nim", "nim", ("nim",)),
    Spec("odin", "odin", ("odin",), entry_points=_MAIN, tests=(TestRule("odin test", header=re.compile(r"@\(test\)")),)),
    Spec("gleam", "gleam", ("gleam",), module_receivers=True, entry_points=_MAIN,  # no methods: `m.f()` is module m's
         tests=(TestRule("gleeunit", name=re.compile(r"_test$"), path=re.compile(r"(?:^|/)test/")),)),
    Spec("hack", "hack", ("hack",), frozenset({"$this", "self", "static", "parent"}), ("__construct",),
         entry_mark=re.compile(r"<<\s*__EntryPoint\b"),
         tests=(TestRule("hacktest", name=re.compile(r"^test"), file=re.compile(r"\bextends\s+(?:\\?Facebook\\HackTest\\)?HackTest\b")),)),
    Spec("fortran", "fortran", ("fortran", "FortranFreeForm")),
    Spec("pascal", "pascal", ("pascal", "objectpascal"), frozenset({"Self", "inherited"}), ("Create",), new_only=True),
    Spec("powershell", "powershell", ("powershell", "ps1"), frozenset({"$this"}), ("<class>",)),
    Spec("cuda", "cuda", ("cuda", "cuda-cpp"), frozenset({"this"}), ("<class>",), entry_points=_MAIN),
    # a contract's public and external functions are its interface: transactions call them
    Spec("solidity", "solidity", ("solidity",), frozenset({"this", "super"}), builtin_methods=_SOLIDITY_METHODS,
         new_only=True, entry_points=frozenset({"receive", "fallback"}), entry_mark=re.compile(r"\b(?:external|public)\b"),
         tests=(TestRule("forge test", name=re.compile(r"^(?:test|invariant)"), path=re.compile(r"\.t\.sol$")),)),
    Spec("tcl", "tcl", ("tcl",), ignore=_TCL_COMMANDS, nested_global=True),
    Spec("starlark", "starlark", ("starlark", "bzl")),
    Spec("luau", "luau", ("luau",), frozenset({"self"})),
    Spec("gdscript", "gdscript", ("gdscript",), frozenset({"self"}), ("_init",), entry_points=_GODOT_CALLBACKS,
         tests=(TestRule("gut", name=re.compile(r"^test_"), file=re.compile(r"^extends\s+(?:GutTest\b|\"res://addons/gut/test\.gd\")")),)),
    # The Elm Architecture: main wires init, update, view and subscriptions as record fields
    Spec("elm", "elm", ("elm",), entry_points=frozenset({"main", "init", "update", "view", "subscriptions"})),
    Spec("purescript", "purescript", ("purescript",), entry_points=_MAIN),
    Spec("ada", "ada", ("ada",)),
    # `#lang at-exp`: `@f[x]` in a text reads as `(f x)`
    Spec("racket", "racket", ("racket",), ignore=_LISP_FORMS, arrow_names=True, sigils="@"),
    Spec("scheme", "scheme", ("scheme",), ignore=_LISP_FORMS, arrow_names=True, sigils="", foreign=(
        # ``(call_expression function: (identifier) @name)``, ``(#match? @name "^x")``: Scheme has
        # no '@' after a form (its only '@' is unquote-splicing, ``,@``)
        Foreign(re.compile(rb"[)\]][ \t]*@[A-Za-z_][\w.-]*|\(#(?:not-)?(?:eq|match|any-of|lua-match)\?"), "a tree-sitter query"),
    )),
    # `(fn f [] ...)` is a local of its file, seen elsewhere through the module's table (`utils.f`)
    # or a destructuring `(local {: f} (require :utils))`; `(fn M.f [] ...)` is table M's field
    Spec("fennel", "fennel", ("fennel",), ignore=_LISP_FORMS, bare_methods=False, bare_local_only=True),
    Spec("janet", "janet", ("janet",), ignore=_LISP_FORMS, arrow_names=True, sigils="", entry_points=_MAIN),
    # what Salesforce calls: Lightning, Flow, remote and REST methods; tests
    Spec("apex", "apex", ("apex",), frozenset({"this", "super"}), ("<class>",), builtin_methods=_APEX_METHODS,
         entry_mark=re.compile(r"@(?:AuraEnabled|InvocableMethod|RemoteAction|Http(?:Get|Post|Put|Patch|Delete)|"
                               r"TestSetup)\b", re.I),
         tests=(TestRule("apex test", header=re.compile(r"@IsTest\b|\btestMethod\b", re.I)),), foreign=(
        Foreign(re.compile(rb"\\(?:NeedsTeXFormat|ProvidesClass|LoadClass|DeclareOption)\b"), "a LaTeX class"),
        Foreign(re.compile(rb"(?m)^(?:VERSION \d+\.\d+ CLASS|Attribute VB_)"), "a Visual Basic class module"),
    )),
    Spec("vim", "vim", ("vim", "viml"), nested_global=True),
    # Squirrel's public code is mostly Electric Imp's: `imp.wakeup()`, `server.log()`, `agent.on()` are
    # the platform's objects (impOS API), never a workspace class's method of that name
    Spec("squirrel", "squirrel", ("squirrel",), frozenset({"this"}), ("constructor",), library_roots=_IMP_GLOBALS),
    Spec("glsl", "glsl", ("glsl",), entry_points=_MAIN),
    # a shader's entry: its output's system-value semantic (`) : SV_TARGET`), a compute shader's [numthreads]
    Spec("hlsl", "hlsl", ("hlsl",), frozenset({"this"}), ("<class>",), queries="cuda",  # both C++-derived
         entry_points=_MAIN, entry_mark=re.compile(r"\)\s*:\s*SV_\w+|\[\s*numthreads\s*\(", re.I)),
    Spec("pony", "pony", ("pony",), frozenset({"this"}), ("create",), type_call_method="apply",
         entry_points=frozenset({"Main.create"})),  # the program: actor Main's constructor
)
