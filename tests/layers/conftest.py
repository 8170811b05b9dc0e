"""The layer tests use the LSP tests' helpers (lsp_util) for their end-to-end requests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "lsp"))
