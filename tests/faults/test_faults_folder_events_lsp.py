"""Fault 2, the server's side: deleting ``pkg/`` or renaming ``lib/`` to ``lib2/`` with one
watched-file event per folder (as VS Code sends them) left a stale graph: the ``**/*.ext``
watchers did not match folder events and nothing rescanned. Now the server registers a watcher
that matches folders, and a folder event rescans that folder."""

from __future__ import annotations

from pathlib import Path

from jsonrpc_client import RawServer
from workspaces import recursion

CREATED, CHANGED, DELETED = 1, 2, 3
CAPS = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}


def callers_of_a(s: RawServer) -> set[str]:
    res = s.call("graphmind/blastRadius", {"symbol": "m.a", "maxDepth": 1, "limit": 100})["result"]
    return {i["qualifiedName"] for i in res["items"]}


def test_folder_events_rescan_the_folder(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    for pkg in ("pkg", "lib"):
        (root / pkg).mkdir()
        (root / pkg / "__init__.py").write_text("")
        (root / pkg / "m.py").write_text(f"from m import a\n\n\ndef in_{pkg}():\n    a(1)\n")
    s = RawServer.start(root)
    try:
        s.initialize(root, CAPS)
        registration = s.wait_for(lambda m: m.get("method") == "client/registerCapability", timeout=30)
        watchers = [w for r in registration["params"]["registrations"] for w in r["registerOptions"]["watchers"]]
        assert any(w["globPattern"] == "**/*" and w.get("kind", 7) & 4 for w in watchers), watchers  # folders, deletions
        s.wait_ready()
        assert callers_of_a(s) == {"m.b", "pkg.m.in_pkg", "lib.m.in_lib"}

        # delete pkg/: one event for the folder
        for p in sorted((root / "pkg").iterdir()):
            p.unlink()
        (root / "pkg").rmdir()
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (root / "pkg").as_uri(), "type": DELETED}]})
        assert callers_of_a(s) == {"m.b", "lib.m.in_lib"}

        # rename lib/ to lib2/: deleted + created, one event each
        (root / "lib").rename(root / "lib2")
        s.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": (root / "lib").as_uri(), "type": DELETED}, {"uri": (root / "lib2").as_uri(), "type": CREATED},
        ]})
        assert callers_of_a(s) == {"m.b", "lib2.m.in_lib"}
        assert {x["location"]["uri"] for x in s.call("workspace/symbol", {"query": "in_lib"})["result"]} == {
            (root / "lib2" / "m.py").as_uri()
        }

        # a folder created with files in it: one event for the folder
        (root / "new").mkdir()
        (root / "new" / "n.py").write_text("from m import b\n\n\ndef fresh():\n    b(1)\n")
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (root / "new").as_uri(), "type": CREATED}]})
        res = s.call("graphmind/blastRadius", {"symbol": "m.b", "maxDepth": 1})["result"]
        assert {i["qualifiedName"] for i in res["items"]} == {"m.a", "new.n.fresh"}
        # files no language reads are not indexed (the folder watcher reports them too)
        (root / "notes.txt").write_text("def nothing(): pass\n")
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (root / "notes.txt").as_uri(), "type": CREATED}]})
        assert s.call("workspace/symbol", {"query": "nothing"})["result"] == []
    finally:
        s.stop()
