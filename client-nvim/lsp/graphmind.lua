-- GraphMind for Neovim 0.11+ (nvim-lspconfig's `lsp/` form).
-- Put this folder on 'runtimepath' (or copy the file to ~/.config/nvim/lsp/graphmind.lua), then:
--   vim.lsp.enable('graphmind')
if vim.fn.executable('graphmind') == 0 then
  vim.schedule(function()
    vim.notify('GraphMind: `graphmind` is not on PATH (pip install graphmind, or set cmd in vim.lsp.config)',
      vim.log.levels.WARN)
  end)
end
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
    'Gemfile',
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
