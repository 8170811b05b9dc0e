"""Fixtures of the agent-facing tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_repos import FIXTURES, TESTS_PY, make_repo


@pytest.fixture
def shop_repo(tmp_path: Path) -> Path:
    """The Python shop fixture plus a test file, committed in a git repository."""
    return make_repo(tmp_path / "shop", {"tests/test_orders.py": TESTS_PY}, FIXTURES / "python" / "shop")
