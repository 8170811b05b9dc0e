import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import { BlastRadiusController, lensArguments, VIEW_ID } from './blastRadius';
import { BlastRadiusTreeProvider, type BlastNode } from './blastTree';
import { createClientFactory } from './client';
import { RecordingOutputChannel } from './outputChannel';
import { normalizeBlastRadiusSettings } from './protocol';
import { ServerManager, type ServerEnvironment } from './server';
import { DEFAULT_SERVER_COMMAND, effectiveSetting } from './serverCommand';
import { statusBarContent, StatusTracker } from './status';

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
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  // Read per scope (and for the folder), the same way on every start and restart.
  const config = vscode.workspace.getConfiguration('graphmind', folder?.uri);
  const trusted = vscode.workspace.isTrusted;
  const command = effectiveSetting(config.inspect<string>('server.command'), trusted, DEFAULT_SERVER_COMMAND);
  const interpreter = effectiveSetting(config.inspect<string>('interpreter'), trusted, '');
  return {
    settings: {
      command: command.value,
      interpreter: interpreter.value,
      commandSource: command.source,
      interpreterSource: interpreter.source,
    },
    ctx: {
      workspaceFolder: folder?.uri.fsPath,
      trusted,
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

  const mgr = manager;
  const tracker = new StatusTracker(mgr);
  const statusBar = vscode.window.createStatusBarItem('graphmind.status', vscode.StatusBarAlignment.Left, 0);
  statusBar.name = 'GraphMind';
  context.subscriptions.push(tracker, statusBar);

  const provider = new BlastRadiusTreeProvider((uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false));
  const treeView = vscode.window.createTreeView<BlastNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, treeView);

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
    state: context.workspaceState,
    log: (line) => output.appendLine(line),
  });
  context.subscriptions.push(controller);

  const showStatus = () => {
    const snapshot = tracker.current;
    const content = statusBarContent(snapshot, mgr.resolved?.display);
    statusBar.text = content.text;
    statusBar.tooltip = content.tooltip;
    statusBar.command = content.command;
    statusBar.show();
    void vscode.commands.executeCommand('setContext', 'graphmind.serverRunning', snapshot.server === 'running');
    controller.serverStatusChanged(snapshot);
  };
  showStatus();

  context.subscriptions.push(
    tracker.onDidChange(showStatus),
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
    vscode.commands.registerCommand('graphmind.changes', () => controller.runChanges()),
    vscode.commands.registerCommand('graphmind.blastRadius.clear', () => controller.clear()),
    vscode.commands.registerCommand('graphmind.blastRadius.peek', () => controller.peek()),
    vscode.commands.registerCommand('graphmind.blastRadius.peekUnresolved', () => controller.peekUnresolved()),
    vscode.commands.registerCommand('graphmind.blastRadius.includePossible', () => controller.setIncludePossible(true)),
    vscode.commands.registerCommand('graphmind.blastRadius.excludePossible', () => controller.setIncludePossible(false)),
    vscode.commands.registerCommand('graphmind.blastRadius.hideMainBlocks', () => controller.setHideMainBlocks(true)),
    vscode.commands.registerCommand('graphmind.blastRadius.showMainBlocks', () => controller.setHideMainBlocks(false)),
    vscode.commands.registerCommand('graphmind.blastRadius.openDefinition', (node?: BlastNode) => controller.openDefinition(node)),
    vscode.workspace.onDidChangeTextDocument((e) => controller.documentChanged(e)),
    treeView.onDidChangeVisibility((e) => controller.visibilityChanged(e.visible)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Other windows (code-server) fire configuration events too: restart only on a real change.
      if (e.affectsConfiguration('graphmind.server.command') || e.affectsConfiguration('graphmind.interpreter')) {
        void mgr.reconcile('Server settings changed');
      } else if (e.affectsConfiguration('graphmind.blastRadius')) {
        void controller.requery();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void mgr.reconcile('The workspace is now trusted')),
  );

  // Not awaited: activation must not wait for the server (commands wait for it instead).
  void mgr.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
