/** The real language client (vscode-languageclient, stdio). Kept apart so unit tests don't load it. */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type CloseHandlerResult,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR } from './languages';
import { RestartPolicy } from './restartPolicy';
import type { ClientFactory } from './server';

/**
 * Commands the extension implements itself. The server advertises `graphmind.blastRadius`
 * (its code lenses use it, for clients that run commands on the server); VS Code would refuse
 * a second registration of the same id, so the client must not proxy it: our command accepts
 * the lens's arguments and shows the result in the Blast Radius view instead.
 */
export const CLIENT_COMMANDS: ReadonlySet<string> = new Set(['graphmind.blastRadius']);

interface CommandRegistration {
  id: string;
  registerOptions: { commands?: string[] };
}

type AnyFeature = Parameters<LanguageClient['registerFeature']>[0];


/** Our own notifications replace the client's generic ones while starting. */
class GraphMindLanguageClient extends LanguageClient {
  quiet = true;

  /** Keeps the executeCommand feature from registering commands the extension owns. */
  override registerFeature(feature: AnyFeature): void {
    const method = (feature as { registrationType?: { method?: string } }).registrationType?.method;
    const withRegister = feature as unknown as { register?: (data: CommandRegistration) => void };
    if (method === 'workspace/executeCommand' && typeof withRegister.register === 'function') {
      const register = withRegister.register.bind(feature);
      withRegister.register = (data: CommandRegistration) =>
        register({
          ...data,
          registerOptions: {
            ...data.registerOptions,
            commands: (data.registerOptions.commands ?? []).filter((c) => !CLIENT_COMMANDS.has(c)),
          },
        });
    }
    super.registerFeature(feature);
  }

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.quiet ? false : showNotification);
  }
}

/** The settings the server itself uses, as it expects them in initializationOptions. */
export function serverSettings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('graphmind');
  return {
    exclude: c.get<string[]>('exclude', []),
    maxFileSize: c.get<number>('maxFileSize', 1048576),
    blastRadius: { depth: c.get<number>('blastRadius.depth', 3) },
    // a shared store's URL (empty: the server's environment or the workspace's configuration decides)
    ...(c.get<string>('store') ? { store: c.get<string>('store') } : {}),
  };
}

export function createClientFactory(output: vscode.OutputChannel): ClientFactory {
  return (resolved, cwd, hooks) => {
    const serverOptions: ServerOptions = {
      command: resolved.command,
      args: resolved.args,
      options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: '1' } },
    };
    let started = false;
    const policy = new RestartPolicy();
    const clientOptions: LanguageClientOptions = {
      documentSelector: [...DOCUMENT_SELECTOR],
      outputChannel: output,
      traceOutputChannel: output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      // The server reads the `graphmind` section (exclude, maxFileSize, blastRadius.depth) at
      // start and on workspace/didChangeConfiguration.
      initializationOptions: serverSettings(),
      synchronize: { configurationSection: 'graphmind' },
      errorHandler: {
        error: (_error, _message, count): ErrorHandlerResult =>
          count !== undefined && count <= 3 ? { action: ErrorAction.Continue } : { action: ErrorAction.Shutdown },
        closed: (): CloseHandlerResult => {
          if (!started) {
            // Failed while starting: ServerManager explains it.
            return { action: CloseAction.DoNotRestart, handled: true };
          }
          if (policy.shouldRestart(Date.now())) {
            return { action: CloseAction.Restart, message: 'The GraphMind server stopped; restarting it.', handled: true };
          }
          hooks.onGaveUp(
            `the server crashed ${policy.count} times in 3 minutes and was not restarted. ` +
              'The GraphMind output channel has its log; fix the cause, then run "GraphMind: Restart Server".',
          );
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    const client = new GraphMindLanguageClient('graphmind', 'GraphMind', serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        hooks.onRunningChanged?.(true);
      } else if (e.oldState === State.Running) {
        hooks.onRunningChanged?.(false);
      }
    });
    return {
      start: async () => {
        client.quiet = true;
        await client.start();
        started = client.isRunning();
        client.quiet = !started;
      },
      stop: (timeout) => client.stop(timeout),
      isRunning: () => client.isRunning(),
      sendRequest: <R>(method: string, params: unknown, token?: vscode.CancellationToken) =>
        token ? client.sendRequest<R>(method, params, token) : client.sendRequest<R>(method, params),
      onNotification: (method, handler) => client.onNotification(method, handler),
    };
  };
}
