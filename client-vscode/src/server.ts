/** Starting, stopping and restarting the GraphMind server, with actionable errors. */
import * as vscode from 'vscode';
import type { RecordingOutputChannel } from './outputChannel';
import {
  describeOrigin,
  describeStartFailure,
  resolveServerCommand,
  ServerCommandError,
  type ResolveContext,
  type ResolvedCommand,
  type ServerSettings,
} from './serverCommand';

export interface ManagedClient {
  start(): Promise<void>;
  stop(timeout?: number): Promise<void>;
  isRunning(): boolean;
  sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R>;
  /** Listens to a notification from the server (optional: unit-test fakes may leave it out). */
  onNotification?(method: string, handler: (params: unknown) => void): vscode.Disposable;
}

export interface ClientHooks {
  /** The server kept crashing and won't be restarted automatically. */
  onGaveUp(message: string): void;
  /** The connection went up (true) or down (false), e.g. a crash and the automatic restart. */
  onRunningChanged?(running: boolean): void;
}

/**
 * What the views and the status bar show about the server:
 * `starting`, `running`, `stopped` (on purpose, or crashed for good) or `failed` (could not start).
 */
export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export type ClientFactory = (resolved: ResolvedCommand, cwd: string | undefined, hooks: ClientHooks) => ManagedClient;

export interface ServerEnvironment {
  settings: ServerSettings;
  ctx: ResolveContext;
}

export const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';
export const RESTART = 'Restart Server';

/**
 * Identifies what a start would run: the resolved command line and folder, or the error that
 * stops it. Two equal fingerprints start the same server, so a settings event between them
 * needs no restart (code-server fires configuration events when another window opens).
 */
export function startFingerprint(environment: ServerEnvironment): string {
  try {
    const r = resolveServerCommand(environment.settings, environment.ctx);
    return JSON.stringify(['run', r.command, r.args, environment.ctx.workspaceFolder ?? null]);
  } catch (err) {
    return JSON.stringify(['error', err instanceof Error ? err.message : String(err)]);
  }
}

export class ServerManager implements vscode.Disposable {
  private client: ManagedClient | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private _resolved: ResolvedCommand | undefined;
  private _state: ServerState = 'stopped';
  /** The fingerprint of the last start attempt (successful or not). */
  private startedWith: string | undefined;
  private readonly stateChanged = new vscode.EventEmitter<ServerState>();
  /** Fires when `state` changes. */
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly factory: ClientFactory,
    private readonly output: RecordingOutputChannel,
    private readonly environment: () => ServerEnvironment,
  ) {}

  /** The command the current (or last) server was started with. */
  get resolved(): ResolvedCommand | undefined {
    return this._resolved;
  }

  get state(): ServerState {
    return this._state;
  }

  private setState(state: ServerState): void {
    if (state !== this._state) {
      this._state = state;
      this.stateChanged.fire(state);
    }
  }

  /** The running client right now (no waiting), or undefined. */
  get running(): ManagedClient | undefined {
    return this._state === 'running' && this.client?.isRunning() ? this.client : undefined;
  }

  /**
   * Settings (or trust) changed: restarts the server only if that changes what a start would run
   * (`startFingerprint`). Resolves to true when it restarted.
   */
  reconcile(reason: string): Promise<boolean> {
    return this.enqueue(async () => {
      const fingerprint = startFingerprint(this.environment());
      if (fingerprint === this.startedWith) {
        this.output.appendLine(`[GraphMind] ${reason}, but the server command is unchanged: not restarting.`);
        return false;
      }
      this.output.appendLine(`[GraphMind] ${reason} and the server command changed: restarting the server.`);
      await this.doStop();
      await this.doStart();
      return true;
    });
  }

  /** The running client, once any start/stop in progress has finished. */
  async whenReady(): Promise<ManagedClient | undefined> {
    await this.queue.catch(() => undefined);
    return this.client?.isRunning() ? this.client : undefined;
  }

  start(): Promise<boolean> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  restart(): Promise<boolean> {
    return this.enqueue(async () => {
      await this.doStop();
      return this.doStart();
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(task);
    this.queue = next;
    return next;
  }

  private async doStart(): Promise<boolean> {
    if (this.client?.isRunning()) {
      return true;
    }
    const environment = this.environment();
    const { settings, ctx } = environment;
    this.startedWith = startFingerprint(environment);
    let resolved: ResolvedCommand;
    try {
      resolved = resolveServerCommand(settings, ctx);
    } catch (err) {
      if (err instanceof ServerCommandError) {
        this.output.appendLine(`[GraphMind] Can't start the server: ${err.message} ${err.fix}`);
        this.notify(`GraphMind: ${err.message} ${err.fix}`, err.setting);
        this.setState('failed');
        return false;
      }
      throw err;
    }
    this._resolved = resolved;
    this.output.appendLine(
      `[GraphMind] Starting ${resolved.display} (from ${describeOrigin(resolved)}) in ${ctx.workspaceFolder ?? process.cwd()}`,
    );
    this.output.mark();
    this.setState('starting');
    const client = this.factory(resolved, ctx.workspaceFolder, {
      onGaveUp: (message) => {
        this.setState('stopped');
        this.notify(`GraphMind: ${message} (server: ${resolved.display})`, resolved.setting);
      },
      onRunningChanged: (running) => {
        if (this.client === client && this._state !== 'starting') {
          this.setState(running ? 'running' : 'stopped');
        }
      },
    });
    this.client = client;
    try {
      await client.start();
      // vscode-languageclient resolves start() without error when the process exits during
      // initialize and the connection closes first: check that it really runs.
      if (!client.isRunning()) {
        throw new Error('the server exited while starting');
      }
      this.setState('running');
      return true;
    } catch (err) {
      // Give the process a moment to flush what it printed on stderr before quoting it.
      await new Promise((r) => setTimeout(r, 200));
      const failure = describeStartFailure(resolved, err, this.output.tail());
      this.output.appendLine(`[GraphMind] ${failure.message} ${failure.fix}`);
      this.notify(`${failure.message} ${failure.fix}`, resolved.setting);
      try {
        await client.stop(2000);
      } catch {
        // already stopped
      }
      this.client = undefined;
      this.setState('failed');
      return false;
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      this.setState('stopped');
      try {
        await client.stop(5000);
      } catch (err) {
        this.output.appendLine(`[GraphMind] Stopping the server failed: ${(err as Error)?.message ?? err}`);
      }
    }
  }

  /** An error notification with the actions that fix it. Never awaited by callers. */
  notify(text: string, setting?: string): void {
    const actions = setting ? [OPEN_SETTINGS, SHOW_LOG, RESTART] : [SHOW_LOG, RESTART];
    void Promise.resolve(vscode.window.showErrorMessage(text, ...actions)).then((choice) => {
      if (choice === OPEN_SETTINGS && setting) {
        void vscode.commands.executeCommand('workbench.action.openSettings', setting);
      } else if (choice === SHOW_LOG) {
        this.output.show(true);
      } else if (choice === RESTART) {
        void this.restart();
      }
    });
  }

  dispose(): void {
    void this.stop();
    this.stateChanged.dispose();
  }
}
