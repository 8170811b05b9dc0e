#!/usr/bin/env python3
"""Typing into large files over stdio, as an editor does (issue 30): a real ``graphmind serve``,
each keystroke a ``didChange`` followed by ``callHierarchy/incomingCalls``, timed from sending the
change to the answer. Several statements (a call at the start of a line, ``return self.…``, a new
method, a decorator line, a new top-level function) are typed into three files of real code:

- Python: Django 5.1's ``django/db/models/fields/__init__.py`` (2,885 lines),
- TypeScript: zod's ``packages/zod/src/v3/types.ts`` (5,138 lines; github colinhacks/zod e516c3b),
- Go: yaml.v3's ``scannerc.go`` (3,038 lines; Debian's golang-gopkg-yaml.v3-dev 3.0.1).

    python scripts/perf_typing.py [--corpora django,zod,yaml] [--rounds 3] [--keys] [--pace MS]
        [--open-pause MS] [--server-path OTHER_TREE/server]

Each corpus is copied once into ``--workdir`` (default ``/tmp/graphmind-typing``) and served
there. Each statement: ``didOpen`` of the file as on disk, ``prepareCallHierarchy`` on the file's
caller, the keystrokes (Enter with its indentation is one keystroke, as an editor sends it),
``didClose``. Prints, per file and statement, the p50 / p95 / max of each keystroke's latency (of
each key's median over the rounds), how many keys took over 15 ms, the server's CPU time per key
(all its threads, from ``/proc``: what the wall time is on an idle machine, less the pipes'
share), and the answer to an
``incomingCalls`` sent 0.31 s after the last keystroke (the server settles a buffer 0.3 s after
its last change: that answer waits for it); ``--keys`` prints every keystroke. The machine's load (``/proc/loadavg``) is printed before and after.

Corpora (kept out of the repository): Django by ``scripts/fetch_corpus.py django 5.1``; zod by
``git archive`` of github colinhacks/zod (``packages/zod/src``) into
``~/.cache/graphmind/corpora/zod-e516c3b``; yaml.v3 by ``apt-get install golang-gopkg-yaml.v3-dev``
(``/usr/share/gocode/src/gopkg.in/yaml.v3``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lsp_client import LspClient, default_capabilities, percentile  # noqa: E402

SLOW_MS = 15.0
CACHE = Path(os.environ.get("GRAPHMIND_CACHE") or Path.home() / ".cache" / "graphmind").expanduser() / "corpora"


class Typing(NamedTuple):
    """A statement typed at a place: ``anchor`` finds a line (each string the first line at or
    after the previous match that contains it); ``at`` "start" types at its first non-blank
    character, "end" at its end. In ``text``, a newline and the indentation after it are one
    keystroke (Enter)."""

    label: str
    anchor: tuple[str, ...]
    at: str
    text: str


class Corpus(NamedTuple):
    name: str
    source: Path  # copied into the work dir
    path: str  # the file typed into, relative to the workspace
    language_id: str
    caller: tuple[str, ...]  # the line of the function whose incoming calls each keystroke asks
    caller_name: str
    statements: list[Typing]


def corpora() -> dict[str, Corpus]:
    django = CACHE / "django-5.1" / "src" / "Django-5.1" / "django"
    return {c.name: c for c in (
        Corpus("django", django, "django/db/models/fields/__init__.py", "python",
               ("class Field(", "def get_prep_value(self, value):"), "get_prep_value", [
                   # issue 14's stall scenario: at the start of the first code line of a method body
                   Typing("x = max( (line start)", ("class Field(", "def get_prep_value(self, value):", "if isinstance"),
                          "start", "total = max(total, len(items))"),
                   Typing("return self.", ("class CharField(", "self.db_collation = db_collation"), "end",
                          "\n        return self.get_prep_value(self.db_collation)"),
                   Typing("new def", ("class CharField(", 'return _("String (unlimited)")'), "end",
                          "\n\n    def describe(self, value):\n        return self.description + str(value)"),
                   Typing("decorator", ("class CharField(", "def check(self, **kwargs):"), "start",
                          "@cached_property\n    "),
                   Typing("top-level def", ("def _get_naive_now():", "return _to_naive"), "end",
                          "\n\n\ndef _aware_now():\n    return timezone.make_aware(_get_naive_now())"),
               ]),
        Corpus("zod", CACHE / "zod-e516c3b" / "packages" / "zod" / "src", "v3/types.ts", "typescript",
               ("function processCreateParams(",), "processCreateParams", [
                   Typing("x = max( (line start)", ("export class ZodNumber", "const parsedType = this._getType"), "start",
                          "const total = Math.max(total, items.length);\n    "),
                   Typing("return this.", ("export class ZodBoolean", "input.data = Boolean(input.data);"), "end",
                          "\n      return this._getType(input);"),
                   Typing("new method", ("export class ZodBoolean", "return OK(input.data);", "  }"), "end",
                          "\n\n  describe2(input: ParseInput) {\n    return this._getType(input) + this.description;\n  }"),
                   Typing("decorator", ("export class ZodBoolean", "_parse(input: ParseInput)"), "start",
                          "@memoize()\n  "),
                   Typing("top-level function", ("function floatSafeRemainder(", "return (valInt % stepInt)", "}"),
                          "end", "\n\nexport function clampStep(val: number, step: number) {\n"
                          "  return floatSafeRemainder(val, step) * step;\n}"),
               ]),
        Corpus("yaml", Path("/usr/share/gocode/src/gopkg.in/yaml.v3"), "scannerc.go", "go",
               ("func yaml_parser_fetch_more_tokens(",), "yaml_parser_fetch_more_tokens", [
                   Typing("x = max( (line start)", ("func yaml_parser_fetch_key(", "if parser.flow_level == 0 {"), "start",
                          "total := max(total, len(parser.tokens))\n\t"),
                   Typing("return parser.", ("func yaml_parser_fetch_tag(", "parser.simple_key_allowed = false"), "end",
                          "\n\treturn yaml_parser_fetch_more_tokens(parser)"),
                   Typing("new func", ("func yaml_parser_fetch_flow_collection_start(", "return true", "}"), "end",
                          "\n\nfunc yaml_parser_peek(parser *yaml_parser_t) bool {\n"
                          "\treturn yaml_parser_fetch_more_tokens(parser)\n}"),
                   Typing("top-level var", ("func yaml_parser_fetch_flow_collection_start(", "return true", "}"), "end",
                          "\n\nvar scanLimit = len(yaml_parser_t{}.tokens)"),
               ]),
    )}


def keystrokes(text: str) -> list[str]:
    """One character a keystroke; a newline and the indentation after it are one (Enter)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\n":
            j = i + 1
            while j < len(text) and text[j] in " \t":
                j += 1
            out.append(text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return out


def find_line(lines: list[str], anchor: tuple[str, ...]) -> int:
    i = -1
    for a in anchor:
        i = next((j for j in range(i + 1, len(lines)) if a in lines[j]), None)  # type: ignore[assignment]
        if i is None:
            raise SystemExit(f"anchor {anchor!r}: {a!r} not found")
    return i


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def prepare(corpus: Corpus, workdir: Path) -> Path:
    ws = workdir / corpus.name
    if not (ws / ".copied").exists():
        if not corpus.source.exists():
            raise SystemExit(f"{corpus.name}: {corpus.source} is missing (see this script's docstring)")
        shutil.rmtree(ws, ignore_errors=True)
        dest = ws / "django" if corpus.name == "django" else ws  # Django's imports name django.*
        shutil.copytree(corpus.source, dest, ignore=shutil.ignore_patterns(".graphmind", "__pycache__"))
        (ws / ".copied").write_text("")
    return ws


def wait_ready(c: LspClient, timeout: float = 600) -> None:
    deadline = time.perf_counter() + timeout
    while not (c.request("graphmind/status", {}, timeout=timeout) or {}).get("ready"):
        if time.perf_counter() > deadline:
            raise TimeoutError("graphmind/status not ready")
        time.sleep(0.05)


class Typed(NamedTuple):
    keys: list[float]  # each keystroke's didChange + incomingCalls, ms to the answer
    cpu: list[float]  # the server's CPU time (all its threads) from the didChange to the answer, ms
    paused: float  # incomingCalls sent PAUSE_S after the last keystroke (the server settles at 0.3 s)


def cpu_ns(pid: int) -> int:
    """A process's CPU time so far, all threads, in ns (``/proc/PID/task/*/schedstat``: unlike the
    wall time, it does not grow while other processes hold the CPU)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


PAUSE_S = 0.31


def type_statement(c: LspClient, ws: Path, corpus: Corpus, st: Typing, pace: float, open_pause: float = 0.0) -> Typed:
    """didOpen, then each keystroke's didChange + incomingCalls (ms to the answer), a pause (the
    first request after it waits for the buffer's settling), didClose. ``open_pause``: ms between
    the call hierarchy item's answer and the first keystroke (0: at once)."""
    path = ws / corpus.path
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = c.did_open(path, text, language_id=corpus.language_id)
    fl = find_line(lines, corpus.caller)
    pos = {"line": fl, "character": utf16_len(lines[fl][: lines[fl].index(corpus.caller_name)])}
    items = c.request("textDocument/prepareCallHierarchy", {"textDocument": {"uri": uri}, "position": pos})
    if not items:
        raise SystemExit(f"{corpus.name}: no call hierarchy item for {corpus.caller_name}")
    if open_pause:
        time.sleep(open_pause / 1000)
    line = find_line(lines, st.anchor)
    ln = lines[line]
    char = utf16_len(ln) if st.at == "end" else utf16_len(ln) - utf16_len(ln.lstrip())
    out: list[float] = []
    cpu: list[float] = []
    for version, key in enumerate(keystrokes(st.text), start=2):
        start = {"line": line, "character": char}
        c0 = cpu_ns(c.pid)
        t0 = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [{"range": {"start": start, "end": start}, "text": key}]})
        rid = c.send_request("callHierarchy/incomingCalls", {"item": items[0]})
        c.wait(rid, 60)
        out.append((time.perf_counter() - t0) * 1000)
        cpu.append((cpu_ns(c.pid) - c0) / 1e6)
        if key.startswith("\n"):
            line, char = line + 1, utf16_len(key) - 1
        else:
            char += utf16_len(key)
        if pace:
            time.sleep(pace / 1000)
    time.sleep(PAUSE_S)
    _, paused = c.timed_request("callHierarchy/incomingCalls", {"item": items[0]})
    c.did_close(path)
    c.request("graphmind/status", {})  # the close is handled before the next statement opens
    return Typed(out, cpu, paused * 1000)


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default="django,zod,yaml")
    ap.add_argument("--rounds", type=int, default=3, help="each statement typed this many times (each key's median)")
    ap.add_argument("--keys", action="store_true", help="print every keystroke's latency")
    ap.add_argument("--pace", type=float, default=0.0, help="ms to wait between keystrokes (0: as fast as answered)")
    ap.add_argument("--open-pause", type=float, default=0.0,
                    help="ms between didOpen (its item's answer) and the first keystroke (0: at once)")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/graphmind-typing"))
    ap.add_argument("--python", default=sys.executable, help="the Python that runs `graphmind serve`")
    ap.add_argument("--server-path", help="serve another tree's graphmind: its server/ directory (PYTHONPATH)")
    args = ap.parse_args()
    known = corpora()
    env = None
    if args.server_path:
        env = {**os.environ, "PYTHONPATH": str(Path(args.server_path).resolve())}
    print(f"load before: {loadavg()}")
    rows: list[tuple[str, str, int, float, float, float, int, float, float, float, float]] = []
    everything: list[float] = []
    all_cpu: list[float] = []
    for name in args.corpora.split(","):
        corpus = known[name]
        ws = prepare(corpus, args.workdir)
        nlines = (ws / corpus.path).read_bytes().count(b"\n")
        with LspClient([args.python, "-m", "graphmind", "serve"], cwd=ws, env=env, stderr=args.workdir / f"{name}.log",
                       sample_memory_every=None) as c:
            c.initialize(ws, capabilities=default_capabilities(), timeout=600)
            wait_ready(c)
            for st in corpus.statements:
                rounds = [type_statement(c, ws, corpus, st, args.pace, args.open_pause) for _ in range(args.rounds)]
                keys = keystrokes(st.text)
                ms = [statistics.median(r.keys[i] for r in rounds) for i in range(len(keys))]
                cpu = [statistics.median(r.cpu[i] for r in rounds) for i in range(len(keys))]
                paused = statistics.median(r.paused for r in rounds)
                everything.extend(ms)
                all_cpu.extend(cpu)
                slow = sum(1 for x in ms if x > SLOW_MS)
                rows.append((f"{corpus.path} ({nlines:,} lines)", st.label, len(keys), percentile(ms, 50),
                             percentile(ms, 95), max(ms), slow, paused, percentile(cpu, 50), percentile(cpu, 95), max(cpu)))
                if args.keys:
                    print(f"{name} / {st.label} (ms, server CPU ms): " + " ".join(
                        f"{k!r}:{x:.1f}/{y:.1f}" for k, x, y in zip(keys, ms, cpu, strict=True)))
    print(f"load after: {loadavg()}")
    print()
    print(f"| file | statement | keys | p50 / p95 / max ms | keys > {SLOW_MS:g} ms | server CPU p50 / p95 / max ms "
          f"| after a pause, ms |")
    print("|---|---|---:|---|---:|---|---:|")
    for f, label, n, p50, p95, mx, slow, paused, c50, c95, cmx in rows:
        print(f"| {f} | {label} | {n} | {p50:.2f} / {p95:.2f} / {mx:.2f} | {slow} | {c50:.2f} / {c95:.2f} / {cmx:.2f} "
              f"| {paused:.1f} |")
    print(f"| all | | {len(everything)} | {percentile(everything, 50):.2f} / {percentile(everything, 95):.2f} / "
          f"{max(everything):.2f} | {sum(1 for x in everything if x > SLOW_MS)} | {percentile(all_cpu, 50):.2f} / "
          f"{percentile(all_cpu, 95):.2f} / {max(all_cpu):.2f} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
