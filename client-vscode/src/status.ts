/** The server's state (process and index) for the status bar and the views. */
import * as vscode from 'vscode';
import { STATUS_METHOD, STATUS_NOTIFICATION, type ServerStatus } from './protocol';
import type { ManagedClient, ServerState } from './server';

/** `unknown` until the server has answered `graphmind/status` (or while it is not running). */
export type IndexState = 'unknown' | 'indexing' | 'ready';

export interface StatusSnapshot {
  server: ServerState;
  index: IndexState;
  /** Files indexed so far / in total, when the server says. */
  indexed?: number;
  totalFiles?: number;
}

export interface StatusSource {
  readonly state: ServerState;
  readonly running: ManagedClient | undefined;
  readonly onDidChangeState: vscode.Event<ServerState>;
}

export function indexStateOf(status: ServerStatus | null | undefined): IndexState {
  if (!status || typeof status !== 'object') {
    return 'unknown';
  }
  // Not ready and not indexing yet: the first index is about to start.
  return status.ready && !status.indexing ? 'ready' : 'indexing';
}

/**
 * Follows the server: its process state from the ServerManager, its index state from
 * `graphmind/statusChanged` notifications, and from polling `graphmind/status` while it indexes
 * (a server without the notification still ends up "ready").
 */
export class StatusTracker implements vscode.Disposable {
  private snapshot: StatusSnapshot;
  private readonly changed = new vscode.EventEmitter<StatusSnapshot>();
  readonly onDidChange = this.changed.event;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private subscription: vscode.Disposable | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped whenever the client changes, so late answers from an old one are ignored. */
  private session = 0;

  constructor(
    private readonly source: StatusSource,
    private readonly pollMs = 1000,
  ) {
    this.snapshot = { server: source.state, index: 'unknown' };
    this.disposables.push(source.onDidChangeState(() => this.serverChanged()));
    this.serverChanged();
  }

  get current(): StatusSnapshot {
    return this.snapshot;
  }

  private set(next: StatusSnapshot): void {
    const prev = this.snapshot;
    this.snapshot = next;
    if (
      prev.server !== next.server ||
      prev.index !== next.index ||
      prev.indexed !== next.indexed ||
      prev.totalFiles !== next.totalFiles
    ) {
      this.changed.fire(next);
    }
  }

  private stopFollowing(): void {
    this.session++;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.subscription?.dispose();
    this.subscription = undefined;
  }

  private serverChanged(): void {
    this.stopFollowing();
    const client = this.source.state === 'running' ? this.source.running : undefined;
    this.set({ server: this.source.state, index: 'unknown' });
    if (!client) {
      return;
    }
    const session = this.session;
    this.subscription = client.onNotification?.(STATUS_NOTIFICATION, (params) => {
      if (session === this.session) {
        this.apply(params as ServerStatus);
      }
    });
    void this.poll(client, session);
  }

  private async poll(client: ManagedClient, session: number): Promise<void> {
    let status: ServerStatus | null = null;
    try {
      status = await client.sendRequest<ServerStatus | null>(STATUS_METHOD, null);
    } catch {
      // An old or busy server: try again later.
    }
    if (session !== this.session) {
      return;
    }
    if (status) {
      this.apply(status);
    }
    if (this.snapshot.index !== 'ready') {
      this.timer = setTimeout(() => void this.poll(client, session), this.pollMs);
    }
  }

  private apply(status: ServerStatus): void {
    const index = indexStateOf(status);
    this.set({
      server: this.source.state,
      index,
      indexed: index === 'indexing' ? status.indexed : undefined,
      totalFiles: index === 'indexing' ? status.totalFiles : undefined,
    });
  }

  dispose(): void {
    this.stopFollowing();
    this.disposables.forEach((d) => d.dispose());
    this.changed.dispose();
  }
}

export interface StatusBarContent {
  text: string;
  tooltip: string;
  command: string;
}

/** The status bar item for a snapshot: indexing / ready / stopped, and what a click does. */
export function statusBarContent(s: StatusSnapshot, serverDisplay?: string): StatusBarContent {
  const server = serverDisplay ? `\nServer: ${serverDisplay}` : '';
  switch (s.server) {
    case 'starting':
      return { text: '$(sync~spin) GraphMind: starting', tooltip: `GraphMind: the server is starting.${server}`, command: 'graphmind.showLog' };
    case 'failed':
      return {
        text: '$(error) GraphMind: stopped',
        tooltip: `GraphMind: the server could not start. Click to restart it; its log says why.${server}`,
        command: 'graphmind.restartServer',
      };
    case 'stopped':
      return {
        text: '$(circle-slash) GraphMind: stopped',
        tooltip: `GraphMind: the server is not running. Click to restart it.${server}`,
        command: 'graphmind.restartServer',
      };
    case 'running':
      if (s.index === 'ready') {
        return { text: '$(check) GraphMind', tooltip: `GraphMind: ready (index complete).${server}`, command: 'graphmind.showLog' };
      }
      if (s.index === 'indexing') {
        const n = s.indexed !== undefined && s.totalFiles ? ` ${s.indexed}/${s.totalFiles}` : '';
        return {
          text: `$(sync~spin) GraphMind: indexing${n}`,
          tooltip: `GraphMind: indexing the workspace; caller counts may be low until it is done.${server}`,
          command: 'graphmind.showLog',
        };
      }
      return { text: '$(sync~spin) GraphMind', tooltip: `GraphMind: the server is running.${server}`, command: 'graphmind.showLog' };
  }
}
