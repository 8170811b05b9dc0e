"""A plain (non-editable) install ships the tree-sitter queries inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_ships_queries_and_loads_them(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(REPO)],
        check=True, capture_output=True, timeout=300,
    )
    [wheel] = list(tmp_path.glob("graphmind-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "graphmind/queries/python/tags.scm" in names
    assert "graphmind/cli.py" in names
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    # the unpacked wheel alone (not the source tree) finds its queries
    code = (
        "import graphmind.languages as L, sys; "
        "assert L.__file__.startswith(sys.argv[1]), L.__file__; "
        "print(len(L.query_text('python')))"
    )
    # -S: no .pth files, so the dev checkout's editable finder cannot stand in for the wheel
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    out = subprocess.run([sys.executable, "-S", "-c", code, str(unpacked)], cwd=tmp_path,
                         env={"PYTHONPATH": f"{unpacked}:{site_packages}"}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 100
