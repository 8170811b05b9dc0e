"""Fixtures of the LSP tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_util import FIXTURES


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A writable copy of the Python shop, plus a file with non-ASCII text before a call."""
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", dst)
    (dst / "src/shop/intl.py").write_text(
        'from shop.payments.gateway import ping, pong\n\n\ndef greet():\n    s = "é😀中"; ping(1)\n', encoding="utf-8"
    )
    return dst
