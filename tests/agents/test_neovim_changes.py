"""A real Neovim runs the shipped :GraphmindChanges on a git repository with an unsaved edit:
the quickfix list holds the changed symbol, the test to run and the affected callers."""

from __future__ import annotations

from pathlib import Path

from nvim_util import needs_nvim, run_nvim

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


@needs_nvim
def test_graphmind_changes_fills_quickfix(shop_repo: Path, tmp_path: Path) -> None:
    res = run_nvim(shop_repo, tmp_path, SCRIPT)
    assert res["errors"] == [], res
    assert res["title"].startswith("Changes vs HEAD: 1 changed, 1 tests,")
    texts = [t for _, _, t in res["qf"]]
    assert texts[0] == "[modified] shop.payments.gateway.process_refund"
    assert texts[1] == "[test pytest] tests.test_orders.test_cancel"
    assert ("orders.py", 7, "[1 extracted] shop.orders.cancel") in [tuple(e) for e in res["qf"]]
