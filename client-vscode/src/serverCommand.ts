/**
 * Settings -> the command line that starts the GraphMind server.
 *
 * Pure logic (no `vscode` import) so it can be unit tested: everything it needs
 * from the machine comes in through `ResolveContext`.
 */
import * as path from 'path';

export const DEFAULT_SERVER_COMMAND = 'graphmind serve';

export interface ServerSettings {
  /** `graphmind.server.command`: a command line, e.g. `graphmind serve`. */
  command: string;
  /** `graphmind.interpreter`: a Python that has graphmind installed. Wins over `command`. */
  interpreter: string;
  /** Where each value came from ("User settings", "Workspace settings", "default"), for messages. */
  commandSource?: string;
  interpreterSource?: string;
}

/** `graphmind.server.command = "graphmind serve" (User settings)`: what was tried, for every error. */
export function describeSetting(setting: string, value: string, source?: string): string {
  return `${setting} = "${value}"${source ? ` (${source})` : ''}`;
}

export interface ResolveContext {
  /** First workspace folder (file system path), if any. */
  workspaceFolder?: string;
  /** Whether the workspace is trusted; an untrusted workspace's `.venv` is not used. */
  trusted: boolean;
  env: Record<string, string | undefined>;
  platform: string;
  homedir: string;
  /** True when `file` exists and can be executed. */
  isExecutable(file: string): boolean;
}

export interface ResolvedCommand {
  command: string;
  args: string[];
  /** Which setting produced it, for messages. */
  setting: 'graphmind.server.command' | 'graphmind.interpreter';
  /** The interpreter, when started through `graphmind.interpreter`. */
  interpreter?: string;
  /** Human readable command line. */
  display: string;
  /** The setting and value it came from, e.g. `graphmind.server.command = "graphmind serve" (User settings)`. */
  origin?: string;
  /** Where that setting's value came from ("User settings", "default", ...). */
  source?: string;
}

/** `graphmind.server.command in User settings`: where a resolved command came from. */
export function describeOrigin(resolved: Pick<ResolvedCommand, 'setting' | 'source'>): string {
  return `${resolved.setting}${resolved.source ? ` in ${resolved.source}` : ''}`;
}

/** A server that can't be started; `fix` tells the user what to do about it. */
export class ServerCommandError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    readonly setting: 'graphmind.server.command' | 'graphmind.interpreter',
    /** The setting and value that was tried (see `describeSetting`). */
    readonly tried?: string,
  ) {
    super(tried ? `${message.replace(/\.$/, '')} (tried ${tried}).` : message);
    this.name = 'ServerCommandError';
  }
}

/** Splits a command line into words: whitespace separates, '…' and "…" quote, \ escapes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) {
        quote = undefined;
      } else if (ch === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
        current += line[++i];
      } else {
        current += ch;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length && /[\s"'\\]/.test(line[i + 1])) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) {
        words.push(current);
        current = '';
        inWord = false;
      }
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) {
    throw new Error(`unterminated ${quote} quote`);
  }
  if (inWord) {
    words.push(current);
  }
  return words;
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`. */
export function expandVariables(value: string, ctx: ResolveContext): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (envName) {
      return ctx.env[envName] ?? '';
    }
    if (name === 'userHome') {
      return ctx.homedir;
    }
    return ctx.workspaceFolder ?? whole;
  });
  if (out === '~' || out.startsWith('~/') || out.startsWith('~\\')) {
    out = ctx.homedir + out.slice(1);
  }
  return out;
}

function pathApi(ctx: ResolveContext): typeof path.posix {
  return ctx.platform === 'win32' ? path.win32 : path.posix;
}

function isBareName(program: string): boolean {
  return !program.includes('/') && !program.includes('\\');
}

function executableNames(name: string, ctx: ResolveContext): string[] {
  if (ctx.platform !== 'win32' || path.win32.extname(name)) {
    return [name];
  }
  const exts = (ctx.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  return [name, ...exts.map((e) => name + e.toLowerCase())];
}

/** Where a bare program name is looked up, in order: the workspace's `.venv`, then `PATH`. */
export function searchDirectories(ctx: ResolveContext): string[] {
  const p = pathApi(ctx);
  const dirs: string[] = [];
  if (ctx.workspaceFolder && ctx.trusted) {
    dirs.push(p.join(ctx.workspaceFolder, '.venv', ctx.platform === 'win32' ? 'Scripts' : 'bin'));
  }
  const pathVar = ctx.env.PATH ?? ctx.env.Path ?? '';
  for (const dir of pathVar.split(ctx.platform === 'win32' ? ';' : ':')) {
    if (dir) {
      dirs.push(dir);
    }
  }
  return dirs;
}

/** Finds a bare program name in the workspace's `.venv` or on `PATH`. */
export function findExecutable(name: string, ctx: ResolveContext): string | undefined {
  const p = pathApi(ctx);
  for (const dir of searchDirectories(ctx)) {
    for (const candidate of executableNames(name, ctx)) {
      const full = p.join(dir, candidate);
      if (ctx.isExecutable(full)) {
        return full;
      }
    }
  }
  return undefined;
}

function quoteForDisplay(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function displayCommandLine(command: string, args: string[]): string {
  return [command, ...args].map(quoteForDisplay).join(' ');
}

/**
 * Resolves a program from a setting to an executable path, or throws a
 * ServerCommandError explaining what to change.
 */
function resolveProgram(
  program: string,
  setting: ServerCommandError['setting'],
  ctx: ResolveContext,
  notFoundFix: string,
  tried: string,
): string {
  const p = pathApi(ctx);
  if (isBareName(program)) {
    const found = findExecutable(program, ctx);
    if (!found) {
      const where = ctx.workspaceFolder && ctx.trusted ? "in this workspace's .venv or on PATH" : 'on PATH';
      throw new ServerCommandError(`Could not find "${program}" ${where}.`, notFoundFix, setting, tried);
    }
    return found;
  }
  let full = program;
  if (!p.isAbsolute(full)) {
    if (!ctx.workspaceFolder) {
      throw new ServerCommandError(
        `"${program}" (from ${setting}) is a relative path but no folder is open.`,
        `Use an absolute path in "${setting}".`,
        setting,
        tried,
      );
    }
    full = p.join(ctx.workspaceFolder, full);
  }
  if (!ctx.isExecutable(full)) {
    throw new ServerCommandError(
      `"${full}" (from ${setting}) does not exist or is not executable.`,
      setting === 'graphmind.server.command'
        ? `Fix the path in "${setting}", or reset it to "${DEFAULT_SERVER_COMMAND}" to use graphmind from the workspace's .venv or PATH.`
        : `Fix the path in "${setting}", or clear it to use "graphmind.server.command".`,
      setting,
      tried,
    );
  }
  return full;
}

const INSTALL_FIX =
  'Install GraphMind ("pip install graphmind", in the workspace\'s .venv or on PATH), ' +
  'or set "graphmind.server.command" to the full path of the graphmind program, ' +
  'or "graphmind.interpreter" to a Python that has it installed.';

/** Settings -> the command that starts the server. Throws ServerCommandError. */
export function resolveServerCommand(settings: ServerSettings, ctx: ResolveContext): ResolvedCommand {
  const interpreter = settings.interpreter.trim();
  if (interpreter) {
    const program = expandVariables(interpreter, ctx);
    const origin = describeSetting('graphmind.interpreter', interpreter, settings.interpreterSource);
    const command = resolveProgram(
      program,
      'graphmind.interpreter',
      ctx,
      'Set "graphmind.interpreter" to the path of a Python that has GraphMind installed, or clear it to use "graphmind.server.command".',
      origin,
    );
    const args = ['-m', 'graphmind', 'serve'];
    return {
      command,
      args,
      setting: 'graphmind.interpreter',
      interpreter: command,
      display: displayCommandLine(command, args),
      origin,
      source: settings.interpreterSource,
    };
  }

  const line = settings.command.trim() || DEFAULT_SERVER_COMMAND;
  const origin = describeSetting('graphmind.server.command', settings.command, settings.commandSource);
  let words: string[];
  try {
    words = splitCommandLine(line).map((w) => expandVariables(w, ctx));
  } catch (err) {
    throw new ServerCommandError(
      `"graphmind.server.command" can't be parsed: ${(err as Error).message}.`,
      'Fix the quoting in "graphmind.server.command", e.g. "/path with spaces/graphmind" serve.',
      'graphmind.server.command',
      origin,
    );
  }
  if (words.length === 0 || !words[0]) {
    throw new ServerCommandError(
      '"graphmind.server.command" is empty.',
      `Set it to "${DEFAULT_SERVER_COMMAND}" or clear it.`,
      'graphmind.server.command',
      origin,
    );
  }
  const command = resolveProgram(words[0], 'graphmind.server.command', ctx, INSTALL_FIX, origin);
  const args = words.slice(1);
  return { command, args, setting: 'graphmind.server.command', display: displayCommandLine(command, args), origin, source: settings.commandSource };
}

export interface StartFailure {
  message: string;
  fix: string;
}

/**
 * Explains a server that was found but failed to start (spawn error, or it
 * exited before answering `initialize`). `stderrTail` is the end of its log.
 */
export function describeStartFailure(resolved: ResolvedCommand, error: unknown, stderrTail: string[]): StartFailure {
  const err = errorMessage(error);
  const generic = !err || /connection got disposed|connection to server got closed|pending response rejected|connection is closed|stream was destroyed|exited while starting|EPIPE|ECONNRESET|write after end/i.test(err);
  const stderr = lastMeaningfulLine(stderrTail);
  const detail = generic ? (stderr ?? err) : err;
  const message = `The GraphMind server failed to start (${resolved.display}, from ${describeOrigin(resolved)})${detail ? `: ${detail}` : '.'}`;
  let fix: string;
  if (/No module named '?graphmind/i.test(stderrTail.join('\n') + ' ' + err)) {
    const python =
      resolved.interpreter ?? (/^python[\d.]*(\.exe)?$/i.test(path.basename(resolved.command)) ? resolved.command : undefined);
    fix = python
      ? `GraphMind is not installed in ${python}: run "${python} -m pip install graphmind", or change "${resolved.setting}".`
      : `GraphMind is not installed where "${resolved.display}" looks for it: install it ("pip install graphmind"), or change "${resolved.setting}".`;
  } else if (/ENOENT|EACCES/.test(err)) {
    fix = `Check the path in "${resolved.setting}".`;
  } else {
    fix = `Run "${resolved.display}" in a terminal to see why, then fix "${resolved.setting}" or reinstall GraphMind. The server's log is in the GraphMind output channel.`;
  }
  return { message, fix };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return error === undefined || error === null ? '' : String(error);
}

function lastMeaningfulLine(lines: string[]): string | undefined {
  const meaningful = lines.map((l) => l.trim()).filter(Boolean);
  // The exception at the end of a traceback beats log lines printed after it.
  const found =
    [...meaningful].reverse().find((l) => /(Error|Exception|No module named)\b|error:/.test(l)) ?? meaningful.at(-1);
  if (!found) {
    return undefined;
  }
  return found.length > 300 ? found.slice(0, 297) + '...' : found;
}

/** The scopes of a setting, as `WorkspaceConfiguration.inspect` returns them. */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * A setting's value and where it came from, decided the same way on every (re)start: Folder,
 * then Workspace, then User settings, then the default. An untrusted workspace's values are
 * skipped (they could name any program), as VS Code does for restricted settings.
 */
export function effectiveSetting<T>(
  inspected: InspectedSetting<T> | undefined,
  trusted: boolean,
  fallback: T,
): { value: T; source: string } {
  // A single-folder workspace reports its settings as both workspace and folder values.
  const folderOnly =
    inspected?.workspaceFolderValue !== undefined && inspected.workspaceFolderValue !== inspected.workspaceValue;
  const scopes: [T | undefined, string][] = [
    [trusted && folderOnly ? inspected?.workspaceFolderValue : undefined, 'Folder settings'],
    [trusted ? inspected?.workspaceValue : undefined, 'Workspace settings'],
    [inspected?.globalValue, 'User settings'],
  ];
  for (const [value, source] of scopes) {
    if (value !== undefined && value !== null) {
      return { value, source };
    }
  }
  return { value: inspected?.defaultValue ?? fallback, source: 'default' };
}
