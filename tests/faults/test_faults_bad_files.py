"""Issue 30, item 3: bad files under a source extension. A NUL byte past the first 8 KiB was
indexed as code, a line of 100,000 or 1,000,000 characters was extracted call by call (a 1 MB
line of calls: 20 s per file, and as long again per open buffer, the server answering nothing
meanwhile), a chain of 20,000 method calls (or such a line of calls in Go) failed the whole
``graphmind index`` with a RecursionError, and a buffer whose text held a lone surrogate (JSON's ``\\udc80``) failed its didOpen
and every didChange with a traceback. Now each is skipped with its reason -- binary, a NUL byte,
not UTF-8, too large, a line too long for code, nested too deeply -- on disk (``graphmind index``, ``stats``) and in
an open buffer alike, and never crashes, hangs or logs a traceback."""

from __future__ import annotations

import json
import time
from contextlib import closing
from pathlib import Path

from faultutil import gm
from graphmind.engine import Engine
from graphmind.languages._toolkit.generated import LONG_LINE, long_line
from hypothesis import given
from hypothesis import strategies as st
from jsonrpc_client import RawServer
from workspaces import recursion

EXTS = ("py", "ts", "go", "rs", "java", "c", "rb")
CALLS_100K = b"x = [" + b"f()," * 25_000 + b"]\n"  # one line of 100,006 bytes, 25,000 calls
CALLS_1M = b"x = [" + b"f()," * 250_000 + b"]\n"
CHAIN = b"let x = a" + b".b()\n" * 20_000 + b";\n"


def bad_files() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, the start of the reason it is skipped)."""
    out: dict[str, tuple[bytes, str]] = {}
    for ext in EXTS:
        out |= {
            f"bin.{ext}": (bytes(range(256)) * 40, "binary"),
            f"huge.{ext}": (b"// x\n" * 250_000, "too large (1250000 bytes > 1048576)"),
            f"latin1.{ext}": (b"s = 'caf\xe9'\n", "not UTF-8 (byte 8)"),
            f"nul_early.{ext}": (b"\0def f():\n    pass\n", "binary"),
            f"nul_late.{ext}": (b"a = 1\n" * 2000 + b"\0", "a NUL byte (at byte 12000)"),
            f"line100k.{ext}": (CALLS_100K, "a line of 100006 bytes"),
        }
    for ext in ("ts", "js", "rs"):  # a chain of 20,000 calls, one a line (see test_faults_deep_nesting)
        out[f"chain.{ext}"] = (CHAIN, "nested more than")
    out["line1m.py"] = (CALLS_1M, "a line of 1000006 bytes")
    out["line1m.c"] = (CALLS_1M, "a line of 1000006 bytes")
    out["line100k.js"] = (CALLS_100K, "minified")
    return out


def test_index_and_stats_skip_each_bad_file_with_its_reason(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "ok.py").write_text("def fine():\n    pass\n\n\ndef g():\n    fine()\n")
    files = bad_files()
    for name, (data, _) in files.items():
        (root / name).write_bytes(data)
    t0 = time.monotonic()
    r = gm("index", "--json", str(root), cwd=root, timeout=120)
    seconds = time.monotonic() - t0
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
    out = json.loads(r.stdout)
    skipped = {s["path"]: s["reason"] for s in out["skippedFiles"]}
    wrong = {n: skipped.get(n) for n, (_, why) in files.items() if not (skipped.get(n) or "").startswith(why)}
    assert wrong == {}, wrong
    assert out["files"] == 1 and out["callSites"] == 1, out
    assert seconds < 60, seconds  # (each skipped file costs a read; before: minutes of extraction)
    stats = gm("stats", cwd=root, timeout=60)
    assert stats.returncode == 0 and f"1 indexed, {len(files)} skipped" in stats.stdout, stats.stdout


def test_an_open_buffer_is_skipped_for_the_reason_its_file_would_be(tmp_path: Path) -> None:
    """The same reason for the text in an editor as for the bytes on disk (a fresh index)."""
    texts = {
        "nul_late.py": "def in_nul():\n    pass\n" + "a = 1\n" * 2000 + "\0",
        "long.go": "package p\n\nfunc inLong() {}\n\nvar x = []int{" + "f()," * 25_000 + "}\n",
        "lone.rs": "fn in_lone() { let s = \"\udc80\"; }\n",  # JSON lets a client send a lone surrogate
        "chain.ts": "function inChain() {}\n" + CHAIN.decode(),
    }
    ws = tmp_path / "ws"
    ws.mkdir()
    for name, text in texts.items():
        (ws / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    with closing(Engine(ws, db_path=tmp_path / "disk.db", jobs=1)) as disk:
        disk.index()
        on_disk = dict(disk.skipped_files())
    live_ws = tmp_path / "live"
    live_ws.mkdir()
    for name in texts:
        (live_ws / name).write_text("")
    with closing(Engine(live_ws, db_path=tmp_path / "live.db", jobs=1)) as live:
        live.index()
        for name, text in texts.items():
            live.open_document(name, text)
        live.settle()
        in_editor = dict(live.skipped_files())
        assert live.db.execute("SELECT count(*) FROM symbols").fetchone()[0] == 0
    assert on_disk == in_editor and set(on_disk) == set(texts), (on_disk, in_editor)
    assert on_disk["nul_late.py"].startswith("a NUL byte") and on_disk["long.go"].startswith("a line of")
    assert on_disk["lone.rs"].startswith("not UTF-8") and on_disk["chain.ts"].startswith("nested more than")


def test_the_server_skips_bad_buffers_and_answers_on(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    s = RawServer.start(root, "--log-level", "INFO")
    try:
        s.initialize(root)
        s.wait_ready()
        good = (root / "good.py").as_uri()
        s.notify("textDocument/didOpen", {"textDocument": {"uri": good, "languageId": "python", "version": 1,
                                                           "text": "def good_one():\n    pass\n"}})
        buffers = {
            "lone.py": "def in_lone():\n    s = '\udc80'\n",
            "line1m.py": "def in_long():\n    pass\n" + CALLS_1M.decode(),
            "nul.py": "def in_nul():\n    pass\n" + "a = 1\n" * 2000 + "\0",
        }
        for version, (name, text) in enumerate(buffers.items(), 1):
            uri = (root / name).as_uri()
            s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})
            edit = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version + 1},
                                                "contentChanges": [{"range": edit, "text": "#\udc81\n"}]})
        # a keystroke that brings a surrogate into a good buffer: skipped too, until it is gone
        s.notify("textDocument/didChange", {"textDocument": {"uri": good, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "text": "'\udc82'"}]})
        t0 = time.monotonic()
        assert s.call("workspace/symbol", {"query": "in_"}, timeout=30)["result"] == []
        assert time.monotonic() - t0 < 10
        assert s.call("workspace/symbol", {"query": "good_one"})["result"] == []
        s.notify("textDocument/didChange", {"textDocument": {"uri": good, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 7}}, "text": ""}]})
        assert [x["name"] for x in s.call("workspace/symbol", {"query": "good_one"})["result"]] == ["good_one"]
        log = "".join(s.stderr)
        assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    finally:
        s.stop()


@given(st.lists(st.sampled_from([0, 1, 5, LONG_LINE // 2, LONG_LINE // 2 + 1, LONG_LINE - 1, LONG_LINE,
                                 LONG_LINE + 1, 2 * LONG_LINE]), min_size=1, max_size=5),
       st.sampled_from([b"\n", b"\r\n", b"\r"]))
def test_long_line_finds_a_line_over_the_limit_wherever_it_is(lengths: list[int], eol: bytes) -> None:
    """Whatever the line ends (a lone CR ends a line, as in the parsers: a classic Mac file is
    not one long line)."""
    text = eol.join(b"a" * n for n in lengths)
    reason = long_line(text)
    assert (reason is not None) == (max(lengths) > LONG_LINE)
    if reason is not None:
        assert int(reason.split()[3]) in lengths and int(reason.split()[3]) > LONG_LINE
