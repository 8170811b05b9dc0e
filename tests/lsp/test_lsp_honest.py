"""End to end over stdio with pytest-lsp: counts that never read as safe (issue 15).

Lens titles count known and possible direct callers ("1 caller · 1 possible", "0 known callers ·
1 possible", "indexing…" before the first index); the blast radius says what it may miss
(``possibleCallers``, ``unresolvedCalls``), echoes how it was asked, names containers and marks
module-level code that runs only as a script (``inMainGuard``); call hierarchy items name their
container and file; ``graphmind/statusChanged`` follows the index."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_util import CLIENTS, VSCODE, _plain, blast_radius, lsp_session, position_of, prepare, uri, wait_ready
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, client_capabilities

FILES = {
    "lib.py": '''class Cat:
    def speak(self):
        return "meow"


class Dog:
    def speak(self):
        return "woof"


def helper():
    return 1


def lonely():
    return 2


def missing():
    return 3
''',
    "use.py": '''from lib import Cat, helper


def known():
    return Cat().speak() + helper()


def unknown(animal):
    return animal.speak()


def guess(thing):
    return thing.what().missing()
''',
    "script.py": '''from lib import helper


def tool():
    return helper()


helper()

if __name__ == "__main__":
    helper()
''',
    "web.js": '''function page(thing) {
  return thing.what().missing();
}
''',
    "demo.py": '''from lib import helper
from script import tool

if __name__ == "__main__":
    helper()
    tool()
''',
}


@pytest.fixture
def hw(tmp_path: Path) -> Path:
    """A workspace with known, possible (ambiguous) and unresolved callers, and script entry points."""
    root = tmp_path / "honest"
    root.mkdir()
    for rel, text in FILES.items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


async def lens_titles(lc: Any, root: Path, rel: str) -> dict[str, str]:
    """Lens title by the definition line the lens sits on ("def speak" twice: by class, "Dog.speak")."""
    lenses = await lc.text_document_code_lens_async(T.CodeLensParams(text_document=T.TextDocumentIdentifier(uri=uri(root, rel))))
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    out: dict[str, str] = {}
    cls = ""
    for lens in sorted(lenses or [], key=lambda x: x.range.start.line):
        line = lines[lens.range.start.line]
        name = line[lens.range.start.character : lens.range.end.character]
        if line.startswith("class "):
            cls = name
        out[f"{cls}.{name}" if line.startswith(" ") else name] = lens.command.title
    return out


@pytest.mark.parametrize("client", CLIENTS)
async def test_lens_titles_count_known_and_possible_callers(hw: Path, client: str) -> None:
    async with lsp_session(hw, client) as lc:
        lib = await lens_titles(lc, hw, "lib.py")
        assert lib == {
            "Cat": "1 caller",
            "Cat.speak": "1 caller · 1 possible",  # Cat.speak: known() calls Cat().speak(); unknown() may
            "Dog": "0 callers",
            "Dog.speak": "0 known callers · 1 possible",  # only animal.speak() may call it
            "helper": "4 callers",  # known, tool, and the module-level code of script and demo
            "lonely": "0 callers",
            "missing": "0 known callers · 1 possible",  # use.py's thing.what().missing() is unresolved
        }  # (web.js's unresolved missing() can't call Python: not counted)
        assert (await lens_titles(lc, hw, "use.py"))["unknown"] == "0 callers"


async def test_no_lens_reads_zero_callers_when_something_may_call(hw: Path) -> None:
    """The issue's "Done when": "0 callers" only when no edge of any confidence and no unresolved
    call site with the symbol's name exists."""
    async with lsp_session(hw) as lc:
        seen = 0
        for rel in FILES:
            lenses = await lc.text_document_code_lens_async(T.CodeLensParams(text_document=T.TextDocumentIdentifier(uri=uri(hw, rel))))
            for lens in lenses:
                pos = {"line": lens.range.start.line, "character": lens.range.start.character}
                res = await blast_radius(lc, textDocument={"uri": uri(hw, rel)}, position=pos, maxDepth=1, minConfidence="ambiguous")
                nothing = res["total"] == 0 and res["unresolvedSites"] == 0
                assert (lens.command.title == "0 callers") == nothing, (rel, lens.command.title, res["total"], res["unresolvedSites"])
                seen += 1
        assert seen == 12


async def test_lenses_say_indexing_until_the_first_index_is_done(hw: Path) -> None:
    """The server waits for the client to accept its progress token before it indexes: holding that
    answer back holds the index, so the lenses are asked for while it is not done."""
    config = ClientServerConfig(server_command=[sys.executable, "-m", "graphmind", "serve", "--log-level", "WARNING"])
    lc = await config.start()
    release = asyncio.Event()
    statuses: list[dict[str, Any]] = []

    lc.protocol.fm.features.pop(T.WINDOW_WORK_DONE_PROGRESS_CREATE)  # pytest-lsp's default answers at once

    @lc.feature(T.WINDOW_WORK_DONE_PROGRESS_CREATE)
    async def hold_progress(params: T.WorkDoneProgressCreateParams) -> None:
        lc.progress_reports.setdefault(params.token, [])
        await release.wait()

    @lc.feature("graphmind/statusChanged")
    def status_changed(params: Any) -> None:
        statuses.append(_plain(params))

    await lc.initialize_session(
        T.InitializeParams(
            capabilities=client_capabilities(VSCODE), root_uri=hw.as_uri(),
            workspace_folders=[T.WorkspaceFolder(uri=hw.as_uri(), name=hw.name)],
        )
    )
    try:
        await asyncio.sleep(0.3)
        status = _plain(await lc.protocol.send_request_async("graphmind/status", {}))
        assert status["ready"] is False
        lc.text_document_did_open(
            T.DidOpenTextDocumentParams(
                text_document=T.TextDocumentItem(uri=uri(hw, "lib.py"), language_id="python", version=1, text=FILES["lib.py"])
            )
        )
        titles = await lens_titles(lc, hw, "lib.py")
        assert titles and set(titles.values()) == {"indexing…"}
        during = await blast_radius(lc, textDocument={"uri": uri(hw, "lib.py")}, position={"line": 10, "character": 4})
        assert during["indexing"] is True
        release.set()
        await wait_ready(lc)
        titles = await lens_titles(lc, hw, "lib.py")
        assert titles["helper"] == "4 callers" and titles["lonely"] == "0 callers"
        after = await blast_radius(lc, textDocument={"uri": uri(hw, "lib.py")}, position={"line": 10, "character": 4})
        assert after["indexing"] is False
        for _ in range(100):
            if statuses and not statuses[-1]["indexing"]:
                break
            await asyncio.sleep(0.05)
        # sent when indexing starts and when it ends
        assert statuses[0]["ready"] is False and statuses[0]["indexing"] is True
        assert statuses[-1] == {"ready": True, "indexing": False}
        assert all(set(s) <= {"ready", "indexing", "indexed", "totalFiles"} for s in statuses)
    finally:
        release.set()
        await lc.shutdown_session()


@pytest.mark.parametrize("client", CLIENTS)
async def test_blast_radius_says_what_it_may_miss(hw: Path, client: str) -> None:
    async with lsp_session(hw, client) as lc:
        # possibleCallers: how many more the same question finds with ambiguous edges
        pos = position_of(hw, "lib.py", "def speak", occurrence=1, client=client, offset=4)  # Dog.speak
        dog = await blast_radius(lc, textDocument={"uri": uri(hw, "lib.py")}, position={"line": pos.line, "character": pos.character})
        assert dog["total"] == 0 and dog["possibleCallers"] == 1
        assert dog["maxDepth"] == 3 and dog["minConfidence"] == "inferred" and dog["indexing"] is False
        assert dog["targets"][0]["container"] == "Dog"
        wide = await blast_radius(lc, symbol="lib.Dog.speak", minConfidence="ambiguous", maxDepth=2)
        assert wide["total"] == dog["total"] + dog["possibleCallers"]
        assert wide["possibleCallers"] == 0 and wide["maxDepth"] == 2 and wide["minConfidence"] == "ambiguous"
        assert [(i["qualifiedName"], i["confidence"], i["container"]) for i in wide["items"]] == [("use.unknown", "ambiguous", "use")]

        # unresolvedCalls: the unresolved call sites named like the target, where they are
        miss = await blast_radius(lc, symbol="lib.missing")
        assert miss["unresolvedSites"] == 1 and miss["complete"] is False  # not web.js's missing()
        col = position_of(hw, "use.py", "missing()", client=client).character
        assert miss["unresolvedCalls"] == [
            {
                "uri": uri(hw, "use.py"),
                "range": {"start": {"line": 12, "character": col}, "end": {"line": 12, "character": col + len("missing")}},
                "name": "missing",
                "caller": "use.guess",
                "text": "return thing.what().missing()",
            }
        ]
        assert (await blast_radius(lc, symbol="lib.missing", unresolvedLimit=0))["unresolvedCalls"] == []
        with pytest.raises(JsonRpcException):
            await blast_radius(lc, symbol="lib.missing", unresolvedLimit=-1)

        # module-level callers: containers, and whether every call is in `if __name__ == "__main__":`
        helper = await blast_radius(lc, symbol="lib.helper")
        items = {i["qualifiedName"]: i for i in helper["items"]}
        assert items["demo"]["kind"] == int(T.SymbolKind.Module) and items["demo"]["inMainGuard"] is True
        assert not items["script"].get("inMainGuard")  # one of its two calls runs on import
        assert items["script.tool"]["container"] == "script" and "inMainGuard" not in items["script.tool"]
        assert items["demo"]["container"] is None and items["use.known"]["container"] == "use"
        assert helper["targets"][0]["container"] == "lib"


async def test_main_guard_follows_unsaved_edits(hw: Path) -> None:
    """The buffer's text decides: moving script.py's module-level call into its main block makes it
    a script entry point before the file is saved."""
    async with lsp_session(hw) as lc:
        text = FILES["script.py"]
        lc.text_document_did_open(
            T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(uri=uri(hw, "script.py"), language_id="python", version=1, text=text))
        )
        new = text.replace("\n\nhelper()\n\nif", "\n\nif")
        lc.text_document_did_change(
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri(hw, "script.py"), version=2),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=new)],
            )
        )
        items = {i["qualifiedName"]: i for i in (await blast_radius(lc, symbol="lib.helper"))["items"]}
        assert items["script"]["inMainGuard"] is True
        assert items["script"]["callSites"][0]["range"]["start"]["line"] == 8


@pytest.mark.parametrize("client", CLIENTS)
async def test_call_hierarchy_items_name_container_and_file(hw: Path, client: str) -> None:
    async with lsp_session(hw, client) as lc:
        [speak] = await prepare(lc, hw, "lib.py", position_of(hw, "lib.py", "def speak", client=client, offset=4))
        assert speak.name == "speak" and speak.detail == "Cat · lib.py"
        [helper] = await prepare(lc, hw, "lib.py", position_of(hw, "lib.py", "def helper", client=client, offset=4))
        assert helper.detail == "lib · lib.py"
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=helper))
        details = {c.from_.name: c.from_.detail for c in calls}
        assert details == {
            "known": "use · use.py", "tool": "script · script.py", "script": "module · script.py", "demo": "__main__ block · demo.py",
        }
        by_name = {c.from_.name: c.from_ for c in calls}
        # module-level code runs on import: its callers are its importers (ranges: the imports)
        script_in = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=by_name["script"]))
        assert [(c.from_.name, c.from_.detail, [r.start.line for r in c.from_ranges]) for c in script_in] == [("demo", "module · demo.py", [1])]
        # a script entry point has no callers, and its detail said so
        assert not await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=by_name["demo"]))
        # outgoing items carry the detail too
        out = await lc.call_hierarchy_outgoing_calls_async(T.CallHierarchyOutgoingCallsParams(item=by_name["known"]))
        assert {c.to.name: c.to.detail for c in out} == {"Cat": "lib · lib.py", "speak": "Cat · lib.py", "helper": "lib · lib.py"}


async def test_incoming_calls_include_possible_callers_on_request(hw: Path) -> None:
    async with lsp_session(hw) as lc:
        [dog] = await prepare(lc, hw, "lib.py", position_of(hw, "lib.py", "def speak", occurrence=1, offset=4))
        assert not await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=dog))
        lc.workspace_did_change_configuration(
            T.DidChangeConfigurationParams(settings={"graphmind": {"callHierarchy": {"includePossible": True}}})
        )
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=dog))
        assert [(c.from_.name, c.from_.detail) for c in calls] == [("unknown", "possible · use · use.py")]
        [cat] = await prepare(lc, hw, "lib.py", position_of(hw, "lib.py", "def speak", offset=4))
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=cat))
        assert sorted((c.from_.name, c.from_.detail) for c in calls) == [("known", "use · use.py"), ("unknown", "possible · use · use.py")]

    async with lsp_session(hw, init_options={"callHierarchy": {"includePossible": True}}) as lc:
        [dog] = await prepare(lc, hw, "lib.py", position_of(hw, "lib.py", "def speak", occurrence=1, offset=4))
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=dog))
        assert [c.from_.name for c in calls] == ["unknown"]
