/** VS Code language ids the GraphMind server indexes (keep in sync with package.json). */
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
];

export function isSupportedLanguage(languageId: string): boolean {
  return LANGUAGES.includes(languageId);
}
