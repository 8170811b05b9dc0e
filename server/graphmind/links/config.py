"""The workspace's configuration: ``.graphmind/config.toml``, else ``[tool.graphmind]`` in
``pyproject.toml`` at the workspace root. Read when an engine starts."""

from __future__ import annotations

import hashlib
import json
import logging
import tomllib
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def load(root: Path) -> dict[str, Any]:
    """The configuration table ({} when there is none or it does not parse)."""
    own = root / ".graphmind" / "config.toml"
    try:
        if own.is_file():
            return tomllib.loads(own.read_text(encoding="utf-8"))
        py = root / "pyproject.toml"
        if py.is_file():
            tool = tomllib.loads(py.read_text(encoding="utf-8")).get("tool", {})
            got = tool.get("graphmind", {}) if isinstance(tool, dict) else {}
            return got if isinstance(got, dict) else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("ignoring the GraphMind configuration of %s: %s", root, exc)
    return {}


def fingerprint(table: dict[str, Any]) -> str:
    """A short hash of the configuration (stored in the index: a change re-links every file)."""
    return hashlib.blake2b(json.dumps(table, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()
