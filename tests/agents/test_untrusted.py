"""An agent's arguments are untrusted: refs are refs (never options), paths stay inside the
root, and no tool writes anything but the index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from graphmind.agents import tools as T
from graphmind.agents.args import ArgumentError
from graphmind.mcp.server import TOOLS

BAD_REFS = [
    "--output={out}", "--output", "-p", "HEAD --output={out}", "$(touch {out})", "HEAD;touch {out}",
    "`touch {out}`", "HEAD\n--output={out}", "x" * 300, "--exec=touch {out}", "@{{-1}}--output={out}",
]


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime) of every file under root but the index's folder, .git included."""
    out: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".graphmind"]
        for f in filenames:
            p = Path(dirpath) / f
            st = p.lstat()
            out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def test_refs_paths_and_no_writes(shop_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "pwned"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def secret():\n    pass\n")
    (shop_repo / "src" / "link").symlink_to(outside)
    subprocess.run(["git", "-C", str(shop_repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(shop_repo), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "link"],
                   check=True)
    # a change in the working tree, so that `changes` has work to do
    gw = shop_repo / "src/shop/payments/gateway.py"
    gw.write_text(gw.read_text().replace("helper(tx_id)", "helper(tx_id * 3)"))
    tools = T.Tools(shop_repo)
    with tools.view():
        pass  # the first index
    before = snapshot(shop_repo)
    budget = tools.budget(None)
    with tools.view() as v:
        for ref in BAD_REFS:
            with pytest.raises(ArgumentError):
                T.changes(v, base=ref.format(out=out), budget=budget)
        for path in ("../", "..", "/etc", str(outside), "src/link", "src/link/secret.py", "src/../../outside"):
            with pytest.raises(ArgumentError, match="outside the workspace"):
                T.dead_code(v, path=path, budget=budget)
        for spec in ("../outside/secret.py:1", f"{outside}/secret.py:1", "/etc/passwd:1", "src/link/secret.py:1"):
            with pytest.raises(ArgumentError, match="outside the workspace"):
                T.callers(v, spec, budget=budget)
        for bad in (-1, 11, "3", True, None):
            with pytest.raises(ArgumentError, match="depth"):
                T.blast_radius(v, "shop.orders.cancel", depth=bad, budget=budget)
        with pytest.raises(ArgumentError, match="cursor"):
            T.callers(v, "shop.orders.cancel", budget=budget, cursor="--output=x")
        # what works: every tool, nothing written
        T.changes(v, budget=budget)
        T.changes(v, base="HEAD", staged=True, budget=budget)
        T.dead_code(v, path="src", budget=budget)
        T.blast_radius(v, "shop.payments.repo.Repo.save", budget=budget)
        T.call_path(v, "shop.orders.cancel", "shop.payments.repo.Repo.save", budget=budget)
        T.status(v, budget=budget)
        with pytest.raises(ArgumentError, match="no symbol"):  # the link out of the root is never followed
            T.find_symbol(v, "secret", budget=budget)
    assert not out.exists()
    assert snapshot(shop_repo) == before


def test_cli_base_is_never_an_option(shop_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "pwned.txt"
    for ref in (f"--output={out}", "-o", f"--output {out}"):
        r = subprocess.run([sys.executable, "-m", "graphmind", "changes", f"--base={ref}"], cwd=shop_repo,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and "does not name a commit" in r.stderr
    assert not out.exists()


def test_schemas_close_every_tool() -> None:
    for t in TOOLS:
        assert t.inputSchema.get("additionalProperties") is False
        for name, prop in t.inputSchema["properties"].items():
            if prop.get("type") == "string":
                assert prop.get("maxLength") or prop.get("enum"), (t.name, name)
            if prop.get("type") == "integer":
                assert "minimum" in prop and "maximum" in prop, (t.name, name)
