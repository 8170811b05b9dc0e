"""The graphmind command line, run as a user would (a subprocess in the workspace)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

G = "shop.payments.gateway"


def gm(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "graphmind", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_index_summary_and_skips(shop: Path) -> None:
    (shop / "blob.py").write_bytes(b"\x00\x01binary")
    (shop / "latin.py").write_bytes("s = 'caf\xe9'\n".encode("latin-1"))
    (shop / "huge.py").write_text("x = 1\n" * 300_000)
    (shop / "node_modules" / "dep").mkdir(parents=True)
    (shop / "node_modules" / "dep" / "index.py").write_text("def vendored():\n    pass\n")
    (shop / ".gitignore").write_text("generated/\n")
    (shop / "generated").mkdir()
    (shop / "generated" / "gen.py").write_text("def generated():\n    pass\n")
    r = gm("index", "--json", cwd=shop)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    skipped = {d["path"]: d["reason"] for d in s["skippedFiles"]}
    assert skipped["blob.py"] == "binary"
    assert skipped["latin.py"].startswith("not UTF-8")
    assert skipped["huge.py"].startswith("too large")
    assert not any("node_modules" in p or "generated" in p for p in skipped)
    assert s["files"] == 9 and s["edges"]["extracted"] > 20 and s["unresolvedSites"] >= 1
    assert s["languages"]["python"]["files"] == 9
    # human summary
    r = gm("index", cwd=shop)
    assert "Skipped 3 files" in r.stdout and "Call edges:" in r.stdout
    assert (shop / ".graphmind" / "index.db").exists()


def test_blast_radius_json_contract(shop: Path) -> None:
    r = gm("blast-radius", "shop.payments.repo.Repo.save", "--json", cwd=shop)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) >= {"targets", "items", "total", "truncated", "complete"}
    items = {i["qualifiedName"]: i for i in out["items"]}
    charge = items[f"{G}.Gateway.charge"]
    assert charge == {
        "qualifiedName": f"{G}.Gateway.charge", "name": "charge", "kind": "method",
        "path": "src/shop/payments/gateway.py", "startLine": 16, "endLine": 21,
        "signature": "def charge(self, amount)", "container": "Gateway", "depth": 1, "confidence": "inferred",
        "chain": ["shop.payments.repo.Repo.save", f"{G}.Gateway.charge"],
        "callSites": [{"path": "src/shop/payments/gateway.py", "line": 18, "column": 19, "kind": "call"}],
    }
    assert items["shop.orders.cancel"]["depth"] == 2
    # what the answer may miss, and how it was asked (issue 15)
    assert out["maxDepth"] == 3 and out["minConfidence"] == "inferred"
    assert out["possibleCallers"] == 1  # shop.orders.unknown's obj.save(1) is ambiguous
    assert out["unresolvedCalls"] == [] and out["unresolvedSites"] == 0
    assert out["targets"][0]["container"] == "Repo"
    deep = json.loads(gm("blast-radius", "shop.payments.repo.Repo.save", "--json", "--depth", "1", cwd=shop).stdout)
    assert {i["depth"] for i in deep["items"]} == {1}
    strict = json.loads(gm("blast-radius", "Repo.save", "--json", "--min-confidence", "extracted", cwd=shop).stdout)
    assert f"{G}.Gateway.charge" not in {i["qualifiedName"] for i in strict["items"]}
    out_dir = json.loads(gm("blast-radius", f"{G}.ping", "--direction", "outgoing", "--json", cwd=shop).stdout)
    assert [i["qualifiedName"] for i in out_dir["items"]] == [f"{G}.pong"]  # cycle-safe
    limited = json.loads(gm("blast-radius", "Repo.save", "--json", "--limit", "2", cwd=shop).stdout)
    assert limited["truncated"] is True and len(limited["items"]) == 2 and limited["total"] == out["total"]


@pytest.mark.parametrize("spec", [f"{G}.process_refund", "process_refund", "src/shop/payments/gateway.py:37", "gateway.process_refund"])
def test_symbol_specs(shop: Path, spec: str) -> None:
    r = gm("callers", spec, "--json", cwd=shop)
    assert r.returncode == 0, r.stderr
    [res] = json.loads(r.stdout)["results"]
    assert res["symbol"]["qualifiedName"] == f"{G}.process_refund"
    assert {c["qualifiedName"] for c in res["callers"]} == {"shop.orders.cancel", f"{G}.outer.inner", G}


def test_short_name_lists_every_match(shop: Path) -> None:
    r = gm("callers", "save", cwd=shop)
    assert r.returncode == 0
    assert "shop.payments.repo.Repo.save" in r.stdout and "shop.payments.repo.Cache.save" in r.stdout


def test_callees_refs_stats(shop: Path) -> None:
    callees = json.loads(gm("callees", f"{G}.Gateway.charge", "--json", cwd=shop).stdout)["results"][0]["callees"]
    assert {c["qualifiedName"] for c in callees} >= {f"{G}.Gateway.validate", "shop.payments.base.Base.log"}
    refs = json.loads(gm("refs", f"{G}.process_refund", "--json", cwd=shop).stdout)["results"][0]["refs"]
    assert "shop" in {c["qualifiedName"] for c in refs}  # the re-export import
    st = json.loads(gm("stats", "--json", cwd=shop).stdout)
    assert st["languages"]["python"]["files"] == 9


def test_unknown_symbol_and_usage_errors(shop: Path) -> None:
    r = gm("blast-radius", "proces_refund", cwd=shop)
    assert r.returncode == 1 and "process_refund" in r.stderr
    assert gm("blast-radius", cwd=shop).returncode == 2
    assert gm("blast-radius", "x", "--direction", "up", cwd=shop).returncode == 2
    assert gm("frobnicate", cwd=shop).returncode == 2


def test_answers_are_never_stale(shop: Path) -> None:
    gm("index", cwd=shop)
    (shop / "src/shop/late.py").write_text("from shop.payments.gateway import process_refund\n\n\ndef late():\n    process_refund(9)\n")
    r = gm("callers", f"{G}.process_refund", "--json", cwd=shop)
    assert "shop.late.late" in {c["qualifiedName"] for c in json.loads(r.stdout)["results"][0]["callers"]}
    (shop / "src/shop/late.py").unlink()
    r = gm("callers", f"{G}.process_refund", "--json", cwd=shop)
    assert "shop.late.late" not in {c["qualifiedName"] for c in json.loads(r.stdout)["results"][0]["callers"]}
