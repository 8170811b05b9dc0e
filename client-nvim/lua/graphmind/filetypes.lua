-- Filetypes for the extensions GraphMind indexes that Neovim does not detect, or detects as another
-- format: without them such a buffer has no filetype in lsp/graphmind.lua's list and no client
-- attaches. HLSL (.hlsl .hlsli), Hack's .hhi, C++'s .h++ have none; Apex's .trigger none, its .cls
-- is read as Smalltalk (or Rexx after a /* comment); C++'s .tpp as the tpp presenter's. Loaded once
-- by lua/graphmind.lua (plugin/graphmind.lua requires it at startup).

local detect_ok, detect = pcall(require, 'vim.filetype.detect')

-- the first lines of a buffer, lower case (Apex is case-insensitive)
local function head(bufnr, n)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, n, false)
  return vim.tbl_map(string.lower, lines)
end

-- Apex: a trigger's header, a test annotation, a sharing keyword, or an access modifier before
-- class/interface/enum (a Visual Basic class module's `Public Sub` has no `class`)
local function is_apex(bufnr)
  for _, l in ipairs(head(bufnr, 200)) do
    if l:find('^%s*trigger%s+[%w_]+%s+on%s') or l:find('^%s*@istest') or l:find('%f[%w]with%s+sharing')
      or l:find('%f[%w]without%s+sharing') or l:find('%f[%w]inherited%s+sharing') then
      return true
    end
    if (l:find('^%s*public%s') or l:find('^%s*global%s') or l:find('^%s*private%s'))
      and (l:find('%sclass%s') or l:find('%sinterface%s') or l:find('%senum%s')) then
      return true
    end
  end
  return false
end

-- a .tpp of the tpp presenter: its first line that is not blank is a `--` directive (`--author`,
-- `--title`); anything else is C++ (a template implementation)
local function is_presentation(bufnr)
  for _, l in ipairs(head(bufnr, 50)) do
    if l:find('%S') then
      return l:find('^%-%-%a') ~= nil
    end
  end
  return false
end

vim.filetype.add({
  extension = {
    hlsl = 'hlsl',
    hlsli = 'hlsl',
    hhi = 'hack',
    ['h++'] = 'cpp',
    trigger = 'apex',
    cls = function(path, bufnr)
      if not vim.g.filetype_cls and is_apex(bufnr) then -- a user's g:filetype_cls decides first
        return 'apex'
      end
      return detect_ok and detect.cls and detect.cls(path, bufnr) or nil
    end,
    tpp = function(_, bufnr)
      return is_presentation(bufnr) and 'tpp' or 'cpp'
    end,
  },
})
