"""scripts/bench.py keeps working: its smoke mode runs end to end and the JSON holds every figure.

Timings are not checked (this is not a timed test); only that each figure was measured.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The figures every corpus reports; a figure dropped from bench.py fails here.
EXPECTED = [
    "python_files", "python_lines", "files_indexed", "indexed_lines", "symbols", "call_edges",
    "cold_index_s", "cold_index_lines_per_s", "cold_index_process_s",
    "cold_index_parallel_s", "cold_index_parallel_lines_per_s",
    "index_peak_rss_mb", "index_parallel_peak_rss_mb", "db_size_mb",
    "warm_start_s", "warm_start_process_s", "warm_start_server_s",
    "server_first_incoming_s", "server_ready_s", "server_rss_after_index_mb", "server_peak_rss_mb",
    "server_rss_after_queries_mb", "server_initialize_s", "server_first_answer_s", "server_cpu_at_ready_s",
    "keystroke_file_lines", "keystroke_inprocess_ms", "keystroke_stdio_ms", "typing_stall_ms",
    "prepare_ms", "prepare_incoming_ms",
    "incoming_calls_ms", "outgoing_calls_ms", "references_ms",
    "blast_radius_d1_ms", "blast_radius_d3_ms", "blast_radius_d5_ms",
    "inproc_incoming_calls_ms", "inproc_outgoing_calls_ms", "inproc_references_ms",
    "inproc_blast_radius_d1_ms", "inproc_blast_radius_d3_ms", "inproc_blast_radius_d5_ms",
]
# Present but null when the engine has no parallel index mode.
OPTIONAL = {"cold_index_parallel_s", "cold_index_parallel_lines_per_s", "index_parallel_peak_rss_mb"}


def test_bench_smoke(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench.py"), "--smoke", "--out", str(out), "--workdir", str(tmp_path / "work"),
         "--profile", str(tmp_path / "prof")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "| figure | goal | ours | met? | basedpyright | ours ÷ bp | bp ÷ ours | graphify | ours ÷ gfy | gfy ÷ ours |" in proc.stdout
    data = json.loads(out.read_text())
    assert data["errors"] == []
    assert {"cpu", "cores", "ram_gb", "python", "os"} <= set(data["machine"])
    assert data["command"].startswith("python scripts/bench.py")
    assert data["options"]["smoke"] is True and data["options"]["peer"] is False
    assert list(data["corpora"]) == ["synth-2k"]
    figures = data["corpora"]["synth-2k"]["figures"]
    assert set(EXPECTED) <= set(figures), sorted(set(EXPECTED) - set(figures))
    missing = [k for k in EXPECTED if figures[k] is None and k not in OPTIONAL]
    assert not missing, missing
    if data["corpora"]["synth-2k"]["parallel_mode"] is not None:
        assert figures["cold_index_parallel_s"] is not None
    for key in ("keystroke_inprocess_ms", "keystroke_stdio_ms", "typing_stall_ms"):
        assert {"p50", "p95", "p99", "max"} <= set(figures[key])
    # --profile: one cProfile profile per phase
    phases = {p.name.removeprefix("synth-2k-").removesuffix(".prof") for p in (tmp_path / "prof").iterdir()}
    assert {"cold-index", "warm-start", "in-process", "server-cold", "server-warm"} <= phases, phases
    for key in ("incoming_calls_ms", "outgoing_calls_ms", "references_ms", "blast_radius_d3_ms", "inproc_blast_radius_d5_ms"):
        assert {"p50", "p95"} <= set(figures[key])
