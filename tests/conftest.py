from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A writable copy of the Python fixture workspace."""
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", dst)
    return dst
