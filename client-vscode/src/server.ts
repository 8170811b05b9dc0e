/** Starting, stopping and restarting the GraphMind server, with actionable errors. */
import * as vscode from 'vscode';
import type { RecordingOutputChannel } from './outputChannel';
import {
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
}

export interface ClientHooks {
  /** The server kept crashing and won't be restarted automatically. */
  onGaveUp(message: string): void;
}

export type ClientFactory = (resolved: ResolvedCommand, cwd: string | undefined, hooks: ClientHooks) => ManagedClient;

export interface ServerEnvironment {
  settings: ServerSettings;
  ctx: ResolveContext;
}

export const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';
export const RESTART = 'Restart Server';

export class ServerManager implements vscode.Disposable {
  private client: ManagedClient | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private _resolved: ResolvedCommand | undefined;

  constructor(
    private readonly factory: ClientFactory,
    private readonly output: RecordingOutputChannel,
    private readonly environment: () => ServerEnvironment,
  ) {}

  /** The command the current (or last) server was started with. */
  get resolved(): ResolvedCommand | undefined {
    return this._resolved;
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
    const { settings, ctx } = this.environment();
    let resolved: ResolvedCommand;
    try {
      resolved = resolveServerCommand(settings, ctx);
    } catch (err) {
      if (err instanceof ServerCommandError) {
        this.output.appendLine(`[GraphMind] Can't start the server: ${err.message} ${err.fix}`);
        this.notify(`GraphMind: ${err.message} ${err.fix}`, err.setting);
        return false;
      }
      throw err;
    }
    this._resolved = resolved;
    this.output.appendLine(`[GraphMind] Starting ${resolved.display} (from ${resolved.setting}) in ${ctx.workspaceFolder ?? process.cwd()}`);
    this.output.mark();
    const client = this.factory(resolved, ctx.workspaceFolder, {
      onGaveUp: (message) => this.notify(`GraphMind: ${message}`, resolved.setting),
    });
    this.client = client;
    try {
      await client.start();
      // vscode-languageclient resolves start() without error when the process exits during
      // initialize and the connection closes first: check that it really runs.
      if (!client.isRunning()) {
        throw new Error('the server exited while starting');
      }
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
      return false;
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
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
  }
}
