"""The README's sample output comes from scripts/readme_samples.py, a real run: it still runs and
says what the README shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_readme_samples_script(tmp_path: Path) -> None:
    out = tmp_path / "samples.md"
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "readme_samples.py"), "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "7 symbols affected (incomplete: 1 weaker edge could reach these)" in text
    assert "Changes against HEAD @ <commit> — HEAD (no upstream or main branch to compare with)" in text
    assert "modified  shop.payments.gateway.process_refund (function) src/shop/payments/gateway.py:35" in text
    assert "**tools/list**" in text and "blast_radius: Everything that calls a symbol" in text
    assert "src/shop/payments/gateway.py  read 16-21, 35-49, 60" in text
    assert "/tmp/" not in text and "gm-samples" not in text
