/** VS Code language ids the GraphMind server indexes (keep in sync with package.json; a test checks both against
 * the server's languages.PLUGINS). */
export const LANGUAGES: readonly string[] = [
  'python',
  'typescript',
  'typescriptreact',
  'javascript',
  'javascriptreact',
  'go',
  'rust',
  'java',
  'c',
  'cpp',
  'csharp',
  'ruby',
  'php',
  'kotlin',
  'swift',
  'scala',
  'lua',
  'shellscript',
  'elixir',
  'perl',
  'r',
  'julia',
  'zig',
  'haskell',
  'ocaml',
  'clojure',
  'erlang',
  'fsharp',
  'objective-c',
  'elisp',
  'commonlisp',
  'lisp',
  'd',
  'nim',
  'odin',
  'gleam',
  'hack',
  'fortran',
  'pascal',
  'objectpascal',
  'powershell',
  'cuda-cpp',
  'solidity',
  'tcl',
  'starlark',
  'luau',
  'gdscript',
  'elm',
  'purescript',
  'ada',
  'racket',
  'scheme',
  'fennel',
  'janet',
  'apex',
  'vim',
  'viml',
  'squirrel',
  'glsl',
  'hlsl',
  'pony',
];

/**
 * The file extensions the server indexes (every language of the server's languages.PLUGINS but doc notes and
 * go.mod, which reach it through file watching). A file is sent by its extension too, whatever language id an
 * installed extension gives it: Modern Fortran's `FortranFreeForm`, a Lisp mode's `lisp`, none at all (`plaintext`).
 */
export const EXTENSIONS: readonly string[] = [
  'py', 'pyi', 'ts', 'mts', 'cts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'go', 'rs', 'java', 'c', 'cpp', 'cc',
  'cxx', 'c++', 'h', 'hpp', 'hh', 'hxx', 'h++', 'ipp', 'tpp', 'inl', 'php', 'cs', 'kt', 'kts', 'rb', 'rake',
  'gemspec', 'ru', 'swift', 'scala', 'sc', 'lua', 'sh', 'bash', 'ex', 'exs', 'pl', 'pm', 'r', 'jl', 'zig',
  'hs', 'ml', 'mli', 'clj', 'cljs', 'cljc', 'erl', 'hrl', 'fs', 'fsi', 'fsx', 'm', 'el', 'lisp', 'lsp', 'd',
  'nim', 'nims', 'odin', 'gleam', 'hack', 'hhi', 'f90', 'f95', 'f03', 'f08', 'pas', 'dpr', 'lpr', 'ps1',
  'psm1', 'cu', 'cuh', 'sol', 'tcl', 'bzl', 'star', 'luau', 'gd', 'elm', 'purs', 'adb', 'ads', 'rkt', 'scm',
  'ss', 'sld', 'fnl', 'janet', 'cls', 'trigger', 'vim', 'nut', 'glsl', 'vert', 'frag', 'geom', 'comp',
  'tesc', 'tese', 'hlsl', 'hlsli', 'pony',
];

/**
 * The language client's document selector: the language ids, the files of those extensions whatever their id, and
 * Markdown, whose doc notes follow an open note's unsaved edits (synchronised only: a note neither activates the
 * extension nor offers the blast radius).
 */
export const DOCUMENT_SELECTOR: readonly ({ scheme: string; language: string } | { scheme: string; pattern: string })[] = [
  ...LANGUAGES.map((language) => ({ scheme: 'file', language })),
  { scheme: 'file', pattern: `**/*.{${EXTENSIONS.join(',')}}` },
  { scheme: 'file', language: 'markdown' },
];

export function isSupportedLanguage(languageId: string): boolean {
  return LANGUAGES.includes(languageId);
}

/** Whether the server indexes a document: by its language id, else by its file's extension (lower case, as the server). */
export function isSupportedDocument(languageId: string, path: string | undefined): boolean {
  if (isSupportedLanguage(languageId)) {
    return true;
  }
  const name = (path ?? '').slice((path ?? '').lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.includes(name.slice(dot + 1).toLowerCase());
}
