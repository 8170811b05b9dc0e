-- GraphMind for Neovim 0.11+ (nvim-lspconfig's `lsp/` form).
-- Put this folder on 'runtimepath' (or copy the file to ~/.config/nvim/lsp/graphmind.lua), then:
--   vim.lsp.enable('graphmind')

-- the user commands, when client-nvim joined the runtimepath after the plugins were loaded (a copy
-- of this file alone has no lua/graphmind.lua beside it: no commands, the config still works)
pcall(require, 'graphmind')

-- Neovim starts no client when the command is not executable, and says nothing: say it, about the
-- command in use (a user's vim.lsp.config may give its full path), once this file is read
vim.schedule(function()
  local cmd = vim.lsp.config.graphmind and vim.lsp.config.graphmind.cmd
  if type(cmd) == 'table' and vim.fn.executable(cmd[1]) == 0 then
    vim.notify(('GraphMind: `%s` is not executable (pip install graphmind, or set cmd in vim.lsp.config)'):format(cmd[1]),
      vim.log.levels.WARN)
  end
end)

---@type vim.lsp.Config
return {
  cmd = { 'graphmind', 'serve' },
  filetypes = {
    'python', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'go', 'rust', 'java',
    'c', 'cpp', 'cs', 'ruby', 'php', 'kotlin', 'swift', 'scala', 'lua', 'sh', 'bash', 'elixir',
    'perl', 'r', 'julia', 'zig', 'haskell', 'ocaml', 'clojure', 'erlang', 'fsharp', 'objc', 'lisp', 'd',
    'nim', 'odin', 'gleam', 'hack', 'fortran', 'pascal', 'ps1', 'cuda', 'solidity', 'tcl', 'bzl',
    'starlark', 'luau', 'gdscript', 'elm', 'purescript', 'ada', 'racket', 'scheme', 'fennel', 'janet',
    'apex', 'vim', 'squirrel', 'glsl', 'hlsl', 'pony',
  },
  root_markers = {
    '.graphmind', 'pyproject.toml', 'setup.py', 'setup.cfg', 'package.json', 'tsconfig.json', 'go.mod',
    'compile_commands.json', 'CMakeLists.txt',
    'Cargo.toml', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle.kts', '.git',
    'Gemfile', 'composer.json',
  },
  -- Sent as initializationOptions and answered to workspace/configuration (section "graphmind").
  init_options = {
    exclude = {},
    maxFileSize = 1048576,
    blastRadius = { depth = 3 },
  },
  settings = {
    graphmind = {
      exclude = {},
      maxFileSize = 1048576,
      blastRadius = { depth = 3 },
    },
  },
}
