/**
 * A small stand-in for the `vscode` module, bundled into the unit tests in its
 * place (see scripts/build.mjs). It implements just what the extension uses and
 * records what the extension asks the editor to do.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

export const recorded = {
  messages: [] as { level: 'error' | 'warning' | 'info'; text: string; actions: string[] }[],
  commands: [] as { command: string; args: any[] }[],
  shownDocuments: [] as { uri: string; options: any }[],
  progress: [] as any[],
};

/** Answers for the next notifications, in order (an action title or undefined). */
export const answers: (string | undefined)[] = [];
/** Handlers for executeCommand, by command id. */
export const commandHandlers = new Map<string, (...args: any[]) => any>();
export const configuration = new Map<string, any>();

export function reset(): void {
  recorded.messages.length = 0;
  recorded.commands.length = 0;
  recorded.shownDocuments.length = 0;
  recorded.progress.length = 0;
  answers.length = 0;
  commandHandlers.clear();
  configuration.clear();
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}

  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/[^/]*)?(.*)$/.exec(value);
    if (!m) {
      throw new Error(`not a URI: ${value}`);
    }
    return new Uri(m[1], decodeURIComponent(m[2]));
  }

  static file(path: string): Uri {
    return new Uri('file', path);
  }

  get fsPath(): string {
    return this.path;
  }

  toString(): string {
    return `${this.scheme}://${this.path.split('/').map(encodeURIComponent).join('/')}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export class Selection extends Range {
  get active(): Position {
    return this.start;
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  supportThemeIcons = false;
  constructor(public value = '') {}
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: any[] };
  accessibilityInformation?: { label: string };
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (listener: (e: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) {
      l(e);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class CancellationTokenSource {
  token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}

function message(level: 'error' | 'warning' | 'info') {
  return (text: string, ...actions: any[]): Promise<string | undefined> => {
    recorded.messages.push({ level, text, actions: actions.filter((a) => typeof a === 'string') });
    return Promise.resolve(answers.shift());
  };
}

export class OutputChannelStub {
  text = '';
  shown = 0;
  constructor(readonly name: string) {}
  append(v: string): void {
    this.text += v;
  }
  appendLine(v: string): void {
    this.text += v + '\n';
  }
  replace(v: string): void {
    this.text = v;
  }
  clear(): void {
    this.text = '';
  }
  show(): void {
    this.shown++;
  }
  hide(): void {}
  dispose(): void {}
}

export const window = {
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  activeTextEditor: undefined as any,
  createOutputChannel: (name: string) => new OutputChannelStub(name),
  async withProgress<R>(options: any, task: (progress: any, token: any) => Promise<R>): Promise<R> {
    recorded.progress.push(options);
    return task({ report() {} }, new CancellationTokenSource().token);
  },
  async showTextDocument(uri: Uri, options?: any): Promise<any> {
    recorded.shownDocuments.push({ uri: uri.toString(), options });
    return {};
  },
};

export const commands = {
  async executeCommand(command: string, ...args: any[]): Promise<any> {
    recorded.commands.push({ command, args });
    return commandHandlers.get(command)?.(...args);
  },
  registerCommand(command: string, handler: (...args: any[]) => any) {
    commandHandlers.set(command, handler);
    return { dispose: () => commandHandlers.delete(command) };
  },
};

export const workspace = {
  getConfiguration(section?: string) {
    return {
      get<T>(key: string, defaultValue?: T): T | undefined {
        const full = section ? `${section}.${key}` : key;
        return configuration.has(full) ? configuration.get(full) : defaultValue;
      },
    };
  },
  asRelativePath(uri: Uri | string): string {
    return typeof uri === 'string' ? uri : uri.path.replace(/^\/ws\//, '');
  },
  workspaceFolders: undefined as any,
  isTrusted: true,
};

/** A minimal TextEditor for a document with the given lines and cursor. */
export function fakeEditor(uri: string, languageId: string, lines: string[], line: number, character: number): any {
  const document = {
    uri: Uri.parse(uri),
    languageId,
    getWordRangeAtPosition(pos: Position) {
      const text = lines[pos.line] ?? '';
      const re = /\w+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text))) {
        if (m.index <= pos.character && pos.character <= m.index + m[0].length) {
          return new Range(pos.line, m.index, pos.line, m.index + m[0].length);
        }
      }
      return undefined;
    },
    getText(range: Range) {
      return (lines[range.start.line] ?? '').slice(range.start.character, range.end.character);
    },
  };
  return { document, selection: new Selection(line, character, line, character) };
}
