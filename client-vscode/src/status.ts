/** The server's state (process and index) for the status bar and the views. */
import * as vscode from 'vscode';
import { STATUS_METHOD, STATUS_NOTIFICATION, type ServerStatus, type StoreStatus } from './protocol';
import type { ManagedClient, ServerState } from './server';

/** `unknown` until the server has answered `graphmind/status` (or while it is not running). */
export type IndexState = 'unknown' | 'indexing' | 'ready';

export interface StatusSnapshot {
  server: ServerState;
  index: IndexState;
  /** Files indexed so far / in total, when the server says. */
  indexed?: number;
  totalFiles?: number;
  /** With a shared store: what answers call questions (the first folder on a store). */
  store?: StoreSummary;
}

/** The status bar's words for a shared store's status. */
export interface StoreSummary {
  /** "snapshot 9faf80d", "snapshot 9faf80d, 2 behind", or "local index". */
  text: string;
  /** The server's summary line (which snapshot and its local layer, or why the local index answers). */
  detail: string;
  local: boolean;
}

/** The store of the first folder that has one; undefined when no folder is on a shared store. */
export function storeSummaryOf(status: ServerStatus | null | undefined): StoreSummary | undefined {
  const store: StoreStatus | undefined = Object.values(status?.folders ?? {}).find((f) => f?.store)?.store;
  if (!store) {
    return undefined;
  }
  if (store.answeredFrom !== 'snapshot' || !store.commit) {
    return { text: 'local index', detail: store.summary ?? `local index: ${store.reason ?? 'no snapshot'}`, local: true };
  }
  const behind = store.commitsBehind ? `, ${store.commitsBehind} behind` : '';
  return { text: `snapshot ${store.commit.slice(0, 7)}${behind}`, detail: store.summary ?? '', local: false };
}

export interface StatusSource {
  readonly state: ServerState;
  readonly running: ManagedClient | undefined;
  readonly onDidChangeState: vscode.Event<ServerState>;
}

/** With a shared store, status is polled this many times slower once the index is ready. */
const STORE_POLL_FACTOR = 5;

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
      prev.totalFiles !== next.totalFiles ||
      prev.store?.text !== next.store?.text ||
      prev.store?.detail !== next.store?.detail
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
    } else if (this.snapshot.store) {
      // a shared store's snapshot moves with HEAD (git checkout) and may fail: keep following it, slowly
      this.timer = setTimeout(() => void this.poll(client, session), this.pollMs * STORE_POLL_FACTOR);
    }
  }

  private apply(status: ServerStatus): void {
    const index = indexStateOf(status);
    // (a statusChanged notification names no folders: the store seen last stands)
    const store = status.folders ? storeSummaryOf(status) : this.snapshot.store;
    this.set({
      server: this.source.state,
      index,
      indexed: index === 'indexing' ? status.indexed : undefined,
      totalFiles: index === 'indexing' ? status.totalFiles : undefined,
      ...(store ? { store } : {}),
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
      if (s.index === 'ready' && s.store) {
        const icon = s.store.local ? '$(warning)' : '$(check)';
        return {
          text: `${icon} GraphMind: ${s.store.text}`,
          tooltip: `GraphMind: ready. Call hierarchy and blast radius: ${s.store.detail}${server}`,
          command: 'graphmind.showLog',
        };
      }
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
