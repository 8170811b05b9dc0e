import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import { BlastRadiusController, lensArguments, VIEW_ID } from './blastRadius';
import { BlastRadiusTreeProvider, type BlastNode } from './blastTree';
import { createClientFactory } from './client';
import { RecordingOutputChannel } from './outputChannel';
import { normalizeBlastRadiusSettings } from './protocol';
import { ServerManager, type ServerEnvironment } from './server';
import { DEFAULT_SERVER_COMMAND } from './serverCommand';

let manager: ServerManager | undefined;

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

export function serverEnvironment(): ServerEnvironment {
  const config = vscode.workspace.getConfiguration('graphmind');
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return {
    settings: {
      command: config.get<string>('server.command', DEFAULT_SERVER_COMMAND) ?? DEFAULT_SERVER_COMMAND,
      interpreter: config.get<string>('interpreter', '') ?? '',
    },
    ctx: {
      workspaceFolder: folder?.uri.fsPath,
      trusted: vscode.workspace.isTrusted,
      env: process.env,
      platform: process.platform,
      homedir: os.homedir(),
      isExecutable,
    },
  };
}

export function activate(context: vscode.ExtensionContext): void {
  const output = new RecordingOutputChannel(vscode.window.createOutputChannel('GraphMind'));
  context.subscriptions.push(output);

  manager = new ServerManager(createClientFactory(output), output, serverEnvironment);
  context.subscriptions.push(manager);

  const provider = new BlastRadiusTreeProvider((uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false));
  const treeView = vscode.window.createTreeView<BlastNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, treeView);

  const mgr = manager;
  const controller = new BlastRadiusController({
    provider,
    treeView,
    client: () => mgr.whenReady(),
    settings: () => {
      const c = vscode.workspace.getConfiguration('graphmind.blastRadius');
      return normalizeBlastRadiusSettings(c.get('depth'), c.get('minConfidence'));
    },
    showLog: () => output.show(true),
    restart: () => void mgr.restart(),
  });

  context.subscriptions.push(
    vscode.commands.registerCommand('graphmind.restartServer', async () => {
      output.appendLine('[GraphMind] Restarting the server (command).');
      if (await mgr.restart()) {
        void vscode.window.setStatusBarMessage('GraphMind server restarted', 3000);
      }
    }),
    vscode.commands.registerCommand('graphmind.showLog', () => output.show(true)),
    vscode.commands.registerCommand('graphmind.blastRadius', (...args: unknown[]) => {
      const lens = lensArguments(args);
      return lens ? controller.runAt(lens.uri, lens.position) : controller.run();
    }),
    vscode.commands.registerCommand('graphmind.blastRadius.refresh', () => controller.refresh()),
    vscode.commands.registerCommand('graphmind.blastRadius.clear', () => controller.clear()),
    vscode.commands.registerCommand('graphmind.blastRadius.peek', () => controller.peek()),
    vscode.commands.registerCommand('graphmind.blastRadius.openDefinition', (node?: BlastNode) => controller.openDefinition(node)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('graphmind.server.command') || e.affectsConfiguration('graphmind.interpreter')) {
        output.appendLine('[GraphMind] Server settings changed; restarting the server.');
        void mgr.restart();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void mgr.restart()),
  );

  // Not awaited: activation must not wait for the server (commands wait for it instead).
  void mgr.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
