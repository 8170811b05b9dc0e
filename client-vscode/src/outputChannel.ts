import type * as vscode from 'vscode';

/**
 * An output channel that also remembers the last lines the server printed on stderr, so an
 * error notification can quote them. vscode-languageclient writes the server's stderr with
 * `append()` and its own log and trace lines with `appendLine()`: only the former are kept.
 */
export class RecordingOutputChannel implements vscode.OutputChannel {
  private buffer = '';

  constructor(
    private readonly inner: vscode.OutputChannel,
    private readonly maxChars = 8192,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  private record(text: string): void {
    this.buffer += text;
    if (this.buffer.length > this.maxChars) {
      this.buffer = this.buffer.slice(this.buffer.length - this.maxChars);
    }
  }

  /** The last `n` lines written (or fewer). */
  tail(n = 20): string[] {
    const lines = this.buffer.split(/\r?\n/);
    if (lines.length && lines[lines.length - 1] === '') {
      lines.pop();
    }
    return lines.slice(-n);
  }

  /** Forgets what was recorded (the channel itself keeps its text). */
  mark(): void {
    this.buffer = '';
  }

  append(value: string): void {
    this.record(value);
    this.inner.append(value);
  }

  appendLine(value: string): void {
    this.inner.appendLine(value);
  }

  replace(value: string): void {
    this.buffer = '';
    this.record(value);
    this.inner.replace(value);
  }

  clear(): void {
    this.buffer = '';
    this.inner.clear();
  }

  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean' || columnOrPreserveFocus === undefined) {
      this.inner.show(columnOrPreserveFocus);
    } else {
      this.inner.show(columnOrPreserveFocus, preserveFocus);
    }
  }

  hide(): void {
    this.inner.hide();
  }

  dispose(): void {
    this.inner.dispose();
  }
}
