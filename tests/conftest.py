from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

from profiles import PROFILE, THOROUGH_EXAMPLES  # noqa: E402

# GRAPHMIND_HYPOTHESIS=thorough: every property test runs with at least THOROUGH_EXAMPLES examples
# (see tests/profiles.py); the default keeps each test's own count
settings.register_profile(
    "thorough", max_examples=THOROUGH_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
    print_blob=True,
)
# CI (CI=true) runs the default counts with a fixed seed: a submission's checks do not change
# from run to run; local and thorough runs keep exploring new examples
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile("ci" if PROFILE == "default" and os.environ.get("CI") == "true" else PROFILE)

from graph_util import FIXTURES  # noqa: E402  (one definition; test modules import it from graph_util)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A writable copy of the Python fixture workspace."""
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", dst)
    return dst
