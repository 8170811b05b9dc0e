"""Fast tests for the corpus scripts (scripts/gen_corpus.py, scripts/lsp_client.py helpers).

No network; the whole module runs in a few seconds.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import gen_corpus  # noqa: E402
from scripts.gen_corpus import TRUTH_FILE, generate  # noqa: E402


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _module_qname(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _Defs(ast.NodeVisitor):
    """Collects qualified names of every class and function, and each function's source span."""

    def __init__(self, module: str) -> None:
        self.stack = [module]
        self.defs: dict[str, ast.AST] = {}

    def _visit_scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        qname = ".".join([*self.stack, node.name])
        self.defs[qname] = node
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = _visit_scope
    visit_AsyncFunctionDef = _visit_scope
    visit_ClassDef = _visit_scope


def _collect(root: Path) -> tuple[dict[str, ast.AST], dict[str, ast.Module], int]:
    defs: dict[str, ast.AST] = {}
    modules: dict[str, ast.Module] = {}
    lines = 0
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines += text.count("\n")
        tree = ast.parse(text, filename=str(path))
        qname = _module_qname(root, path)
        modules[qname] = tree
        visitor = _Defs(qname)
        visitor.visit(tree)
        defs.update(visitor.defs)
    return defs, modules, lines


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("corpus") / "ws"
    stats = generate(out, 6000, seed=7)
    return out, stats


def test_deterministic_same_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 3000, seed=3)
    generate(b, 3000, seed=3)
    assert _tree_digest(a) == _tree_digest(b)


def test_different_seed_differs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 3000, seed=3)
    generate(b, 3000, seed=4)
    assert _tree_digest(a) != _tree_digest(b)


def test_regenerate_into_same_dir_is_clean(tmp_path: Path) -> None:
    out = tmp_path / "ws"
    generate(out, 5000, seed=1)
    first = _tree_digest(out)
    generate(out, 2500, seed=1)
    generate(out, 5000, seed=1)
    assert _tree_digest(out) == first


def test_refuses_foreign_non_empty_dir(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(SystemExit):
        generate(tmp_path, 2000, seed=1)
    assert (tmp_path / "precious.txt").exists()


@pytest.mark.parametrize("lines", [2000, 10_000, 30_000])
def test_size_within_5_percent(lines: int) -> None:
    modules, _ = gen_corpus.plan_corpus(lines, seed=1)
    scratch: list[tuple[str, str]] = []
    total = sum(len(gen_corpus.emit_module(m, 1, scratch)) for m in modules)
    assert abs(total - lines) <= 0.05 * lines


def test_stats_and_line_count(corpus: tuple[Path, dict]) -> None:
    out, stats = corpus
    _, _, lines = _collect(out)
    assert stats["lines"] == lines
    assert abs(lines - 6000) <= 300
    assert stats["edges"] > 0 and stats["classes"] > 0 and stats["methods"] > 0


def test_truth_file_shape(corpus: tuple[Path, dict]) -> None:
    out, stats = corpus
    truth = json.loads((out / TRUTH_FILE).read_text())
    assert isinstance(truth, list) and len(truth) == stats["edges"]
    for edge in truth:
        assert isinstance(edge, list) and len(edge) == 2
        assert all(isinstance(x, str) and x and " " not in x for x in edge)
    as_tuples = [tuple(e) for e in truth]
    assert as_tuples == sorted(set(as_tuples)), "truth must be sorted and de-duplicated"


def _names_in(node: ast.AST) -> set[str]:
    """Identifiers and attribute names appearing in *node* (excluding nested defs' own names)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
        elif isinstance(sub, ast.alias):
            out.add(sub.asname or sub.name.split(".")[0])
    return out


def test_truth_edges_name_existing_code(corpus: tuple[Path, dict]) -> None:
    out, _ = corpus
    defs, modules, _ = _collect(out)
    truth = json.loads((out / TRUTH_FILE).read_text())
    callers_seen: set[str] = set()
    names_cache: dict[str, set[str]] = {}
    for caller, callee in truth:
        assert caller in defs or caller in modules, f"unknown caller {caller}"
        assert callee in defs, f"unknown callee {callee}"
        callee_node = defs[callee]
        assert isinstance(callee_node, ast.FunctionDef | ast.ClassDef)
        # The callee's own name (a class for constructor calls, `super` for super().__init__)
        # must at least appear in the caller's body.
        names = names_cache.get(caller)
        if names is None:
            names = names_cache[caller] = _names_in(defs.get(caller) or modules[caller])
        short = callee.rsplit(".", 1)[-1]
        if short == "__init__":
            cls_name = callee.rsplit(".", 2)[-2]
            assert "super" in names or any(
                n.startswith(cls_name) or n.endswith(cls_name) for n in names
            ) or _aliased_somewhere(modules, callee.rsplit(".", 1)[0]), (caller, callee)
        else:
            assert short in names or _aliased_somewhere(modules, callee), (caller, callee)
        callers_seen.add(caller)
    assert len(callers_seen) > 50


_ALIASED: dict[int, set[str]] = {}


def _aliased_somewhere(modules: dict[str, ast.Module], qname: str) -> bool:
    """True when *qname*'s last component is imported under an alias by some module."""
    aliased = _ALIASED.get(id(modules))
    if aliased is None:
        aliased = {a.name for tree in modules.values() for node in tree.body
                   if isinstance(node, ast.ImportFrom) for a in node.names if a.asname}
        _ALIASED[id(modules)] = aliased
    return qname.rsplit(".", 1)[-1] in aliased


def test_corpus_features_present(corpus: tuple[Path, dict]) -> None:
    out, _ = corpus
    text = "\n".join(p.read_text() for p in sorted(out.rglob("*.py")))
    for needle in ("import os", "from . import", "from ..", " as ", "super().", "self.", "os.path.join(",
                   "len(", "print(", "@classmethod", '__name__ == "__main__"', "def _inner"):
        assert needle in text, needle
    truth = json.loads((out / TRUTH_FILE).read_text())
    edges = {tuple(e) for e in truth}
    # cycles: some pair of functions calling each other, or a self-recursive function
    assert any((b, a) in edges for a, b in edges if a != b) or any(a == b for a, b in edges)
    # fan-in: the popular helpers
    fan_in: dict[str, int] = {}
    for _, callee in edges:
        fan_in[callee] = fan_in.get(callee, 0) + 1
    assert max(fan_in.values()) >= 20
    # same-name methods in unrelated classes are called
    save_targets = {c for _, c in edges if c.endswith(".save") or c.endswith(".run")}
    assert len(save_targets) >= 3
    # module-level callers and constructor/__init__ pairs
    assert any(c.endswith(".__init__") for _, c in edges)


# --------------------------------------------------------------------------------------------
# scripts/lsp_client.py against a tiny fake stdio server
# --------------------------------------------------------------------------------------------

_FAKE_SERVER = r'''
import json, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
def send(msg):
    body = json.dumps(msg).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); out.flush()
def recv():
    length = None
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        line = line.strip()
        if not line:
            break
        k, _, v = line.partition(b":")
        if k.lower() == b"content-length":
            length = int(v)
    return json.loads(inp.read(length))
while True:
    msg = recv()
    m = msg.get("method")
    if m == "initialize":
        send({"jsonrpc": "2.0", "id": "srv1", "method": "workspace/configuration",
              "params": {"items": [{"section": "fake.analysis"}, {"section": "missing"}]}})
        conf = recv()
        send({"jsonrpc": "2.0", "method": "$/progress", "params": {"token": 1, "value": {"kind": "begin"}}})
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"capabilities": {}, "echo": conf["result"]}})
    elif m == "echo":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": msg["params"]})
    elif m == "fail":
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "nope"}})
    elif m == "shutdown":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
    elif m == "exit":
        sys.exit(0)
'''


def test_lsp_client_roundtrip(tmp_path: Path) -> None:
    from scripts.lsp_client import LspClient, LspError

    with LspClient([sys.executable, "-c", _FAKE_SERVER], settings={"fake": {"analysis": {"x": 1}}}) as c:
        init = c.initialize(tmp_path)
        assert init["echo"] == [{"x": 1}, None]
        result, secs = c.timed_request("echo", {"a": [1, "é"]})
        assert result == {"a": [1, "é"]} and secs >= 0
        with pytest.raises(LspError):
            c.request("fail", {})
        c.wait_notification("$/progress", timeout=5)
        assert c.progress() and c.server_requests[0][1] == "workspace/configuration"
        mem = c.memory()
        assert mem["rss_kb"] > 0 and mem["processes"] >= 1
    assert c.proc is not None and c.proc.returncode == 0


def test_percentile_and_uris(tmp_path: Path) -> None:
    from scripts.lsp_client import path_to_uri, percentile, uri_to_path

    assert percentile([5, 1, 3, 2, 4], 50) == 3
    assert percentile(range(1, 101), 95) == 95
    p = tmp_path / "a b" / "ü.py"
    assert uri_to_path(path_to_uri(p)) == p.resolve()


# --------------------------------------------------------------------------------------------
# scripts/peer_basedpyright.py source mapping (no basedpyright needed)
# --------------------------------------------------------------------------------------------


def test_peer_qnames_and_enclosing(tmp_path: Path) -> None:
    from scripts.peer_basedpyright import index_file, module_qname

    pkg = tmp_path / "src" / "top" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "src" / "top" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    mod = pkg / "m.py"
    mod.write_text(
        "X = f()\n"
        "class K:\n"
        "    y = g()\n"
        "    def meth(self):\n"
        "        def inner():\n"
        "            return h()\n"
        "        return inner()\n"
        "def outer(): return k()\n"
        "class P:\n"
        "    @property\n"
        "    def a(self): return 1\n"
        "    @functools.cached_property\n"
        "    def b(self): return 2\n"
    )
    assert module_qname(mod) == "top.sub.m"
    assert module_qname(pkg / "__init__.py") == "top.sub"
    idx = index_file(mod)
    assert idx is not None
    assert [d.qname for d in idx.defs] == ["top.sub.m.K", "top.sub.m.K.meth", "top.sub.m.K.meth.inner",
                                           "top.sub.m.outer", "top.sub.m.P", "top.sub.m.P.a", "top.sub.m.P.b"]
    assert [d.kind for d in idx.defs] == ["class", "method", "function", "function", "class", "method", "method"]
    assert [d.is_property for d in idx.defs] == [False] * 5 + [True, True]
    assert (idx.defs[1].line, idx.defs[1].char) == (3, 8)
    assert idx.enclosing_function(0, 4) == "top.sub.m"  # module level
    assert idx.enclosing_function(2, 8) == "top.sub.m"  # class body
    assert idx.enclosing_function(5, 19) == "top.sub.m.K.meth.inner"
    assert idx.enclosing_function(6, 15) == "top.sub.m.K.meth"
    assert idx.enclosing_function(7, 21) == "top.sub.m.outer"


@pytest.mark.skipif(not __import__("os").environ.get("GRAPHMIND_SLOW"),
                    reason="set GRAPHMIND_SLOW=1 (needs basedpyright; ~15 s)")
def test_basedpyright_agrees_with_truth(tmp_path: Path) -> None:
    """Cross-check: basedpyright's call hierarchy reproduces the generator's truth edges."""
    import shutil

    from scripts.peer_basedpyright import call_edges

    if shutil.which("basedpyright-langserver") is None and not (Path(sys.executable).parent / "basedpyright-langserver").exists():
        pytest.skip("basedpyright not installed")
    out = tmp_path / "ws"
    generate(out, 2500, seed=11)
    truth = {tuple(e) for e in json.loads((out / TRUTH_FILE).read_text())}
    found = call_edges(out)
    assert found == truth, (sorted(truth - found)[:10], sorted(found - truth)[:10])
