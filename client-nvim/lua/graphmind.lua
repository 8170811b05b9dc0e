-- The GraphMind commands, defined once by whichever loads this module first: plugin/graphmind.lua
-- at startup, or lsp/graphmind.lua when the config is first resolved (client-nvim put on the
-- runtimepath after the plugins were loaded: `nvim -l`, a `-c` command, a script).
--
-- :GraphmindBlastRadius [depth] [direction] [minConfidence]
-- Asks the GraphMind server for the blast radius of the symbol under the cursor and puts every
-- affected caller (at its call site) in the quickfix list, nearest first.
require('graphmind.filetypes') -- the filetypes Neovim lacks for GraphMind's extensions

local M = {}

local function client_for(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'graphmind' })[1]
end

--- Turn a graphmind/blastRadius result into quickfix entries.
---@param result table
---@param encoding string the client's offset encoding
---@return table[]
function M.to_qf(result, encoding)
  local items = {}
  for _, item in ipairs(result.items or {}) do
    local loc = (item.callSites and item.callSites[1]) or { uri = item.uri, range = item.selectionRange }
    local fname = vim.uri_to_fname(loc.uri)
    local bufnr = vim.fn.bufadd(fname)
    vim.fn.bufload(bufnr)
    local line = loc.range.start.line
    local ok, col = pcall(vim.lsp.util._get_line_byte_from_position, bufnr, loc.range.start, encoding)
    table.insert(items, {
      filename = fname,
      lnum = line + 1,
      col = (ok and col or loc.range.start.character) + 1,
      text = string.format('[%d %s] %s  %s', item.depth, item.confidence, item.qualifiedName, item.signature or ''),
    })
  end
  return items
end

function M.blast_radius(opts)
  opts = opts or {}
  local buf = vim.api.nvim_get_current_buf()
  local client = client_for(buf)
  if not client then
    vim.notify('GraphMind is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  params.maxDepth = tonumber(opts.depth) or 3
  params.direction = opts.direction or 'incoming'
  params.minConfidence = opts.minConfidence or 'inferred'
  client:request('graphmind/blastRadius', params, function(err, result)
    if err then
      vim.notify('GraphMind: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    if result == vim.NIL or result == nil then
      vim.notify('GraphMind: no symbol at the cursor', vim.log.levels.INFO)
      return
    end
    local target = result.targets[1] and result.targets[1].qualifiedName or '?'
    local cut = type(result.truncatedBy) == 'table' and #result.truncatedBy > 0
      and (' by ' .. table.concat(result.truncatedBy, ', ')) or ''
    local title = string.format('Blast radius of %s: %d%s%s', target, result.total,
      result.truncated and (' (truncated' .. cut .. ')') or '', result.complete and '' or ' (incomplete)')
    vim.fn.setqflist({}, ' ', { title = title, items = M.to_qf(result, client.offset_encoding) })
    vim.cmd('copen')
  end, buf)
end

vim.api.nvim_create_user_command('GraphmindBlastRadius', function(cmd)
  M.blast_radius({ depth = cmd.fargs[1], direction = cmd.fargs[2], minConfidence = cmd.fargs[3] })
end, { nargs = '*', desc = 'GraphMind: blast radius of the symbol under the cursor (quickfix)' })

--- Turn a graphmind/changes result into quickfix entries: changed symbols, then the tests to
--- run, then the affected callers by depth (each at its first call site).
---@param result table
---@return table[]
function M.changes_to_qf(result)
  local items = {}
  local function add(path, line, col, text)
    table.insert(items, { filename = result.root .. '/' .. path, lnum = line, col = col or 1, text = text })
  end
  for _, c in ipairs(result.changed or {}) do
    if c.change ~= 'removed' then
      add(c.path, c.startLine, 1, string.format('[%s] %s', c.change, c.qualifiedName))
    end
  end
  for _, t in ipairs(result.tests or {}) do
    add(t.path, t.startLine, 1, string.format('[test %s] %s', t.kind, t.qualifiedName))
  end
  for _, a in ipairs(result.affected or {}) do
    local site = a.callSites and a.callSites[1]
    add(site and site.path or a.path, site and site.line or a.startLine, site and site.column or 1,
      string.format('[%d %s] %s', a.depth, a.confidence, a.qualifiedName))
  end
  return items
end

--- :GraphmindChanges [base] — the impact of the working tree's changes (unsaved buffers included).
function M.changes(opts)
  opts = opts or {}
  local buf = vim.api.nvim_get_current_buf()
  local client = client_for(buf) or vim.lsp.get_clients({ name = 'graphmind' })[1]
  if not client then
    vim.notify('GraphMind is not running', vim.log.levels.WARN)
    return
  end
  local params = { depth = tonumber(opts.depth) or 3 }
  if vim.api.nvim_buf_get_name(buf) ~= '' then
    params.textDocument = { uri = vim.uri_from_bufnr(buf) }
  end
  if opts.base and opts.base ~= '' then
    params.base = opts.base
  end
  client:request('graphmind/changes', params, function(err, result)
    if err then
      vim.notify('GraphMind: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    local title = string.format('Changes vs %s: %d changed, %d tests, %d affected%s', result.base.ref,
      #(result.changed or {}), #(result.tests or {}), #(result.affected or {}), result.complete and '' or ' (incomplete)')
    vim.fn.setqflist({}, ' ', { title = title, items = M.changes_to_qf(result) })
    vim.cmd('copen')
  end, buf)
end

vim.api.nvim_create_user_command('GraphmindChanges', function(cmd)
  M.changes({ base = cmd.fargs[1], depth = cmd.fargs[2] })
end, { nargs = '*', desc = 'GraphMind: changed symbols, tests and affected callers (quickfix)' })

return M
