/** "GraphMind: Blast radius of symbol" and the actions of its view. */
import * as vscode from 'vscode';
import { allCallSites, type BlastNode, type BlastQuery, type BlastRadiusTreeProvider } from './blastTree';
import { isSupportedLanguage } from './languages';
import {
  BLAST_RADIUS_METHOD,
  buildBlastRadiusParams,
  type BlastRadiusResult,
  type BlastRadiusSettings,
  type LspLocation,
  type LspPosition,
  type LspRange,
} from './protocol';
import type { ManagedClient } from './server';

export const VIEW_ID = 'graphmind.blastRadiusView';
export const HAS_RESULT_CONTEXT = 'graphmind.hasBlastRadius';

export interface BlastRadiusDeps {
  provider: BlastRadiusTreeProvider;
  /** The running client, or undefined when the server isn't running. */
  client(): Promise<ManagedClient | undefined>;
  settings(): BlastRadiusSettings;
  treeView?: Pick<vscode.TreeView<BlastNode>, 'description' | 'message'>;
  showLog(): void;
  restart(): void;
}

/** JSON-RPC error code for a request cancelled by the client. */
const REQUEST_CANCELLED = -32800;

function toRange(r: LspRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function toLocation(l: LspLocation): vscode.Location {
  return new vscode.Location(vscode.Uri.parse(l.uri), toRange(l.range));
}

function describeError(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof (err as Error).message === 'string') {
    return (err as Error).message;
  }
  return String(err);
}

function isCancellation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: number }).code === REQUEST_CANCELLED;
}

/**
 * The server's code lenses ("N callers") call `graphmind.blastRadius` with `[uri, position]`.
 * Returns those, or undefined for a plain invocation (palette, keybinding, context menu).
 */
export function lensArguments(args: readonly unknown[]): { uri: string; position: LspPosition } | undefined {
  const [uri, pos] = args;
  if (typeof uri !== 'string' || !pos || typeof pos !== 'object') {
    return undefined;
  }
  const { line, character } = pos as { line?: unknown; character?: unknown };
  if (typeof line !== 'number' || typeof character !== 'number') {
    return undefined;
  }
  return { uri, position: { line, character } };
}

export class BlastRadiusController {
  constructor(private readonly deps: BlastRadiusDeps) {}

  /** Runs the command for the cursor in `editor`. Resolves to the result shown (undefined if none). */
  async run(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<BlastRadiusResult | null | undefined> {
    if (!editor) {
      void vscode.window.showWarningMessage(
        'GraphMind: open a file and put the cursor on a function to see its blast radius.',
      );
      return undefined;
    }
    const doc = editor.document;
    if (!isSupportedLanguage(doc.languageId)) {
      void vscode.window.showWarningMessage(`GraphMind doesn't index "${doc.languageId}" files, so it has no blast radius here.`);
      return undefined;
    }
    const pos = editor.selection.active;
    const wordRange = doc.getWordRangeAtPosition(pos);
    const query: BlastQuery = {
      uri: doc.uri.toString(),
      position: { line: pos.line, character: pos.character },
      settings: this.deps.settings(),
      word: wordRange ? doc.getText(wordRange) : undefined,
    };
    return this.execute(query);
  }

  /** Runs the command for a position given by URI (from a code lens). */
  async runAt(uri: string, position: LspPosition): Promise<BlastRadiusResult | null | undefined> {
    return this.execute({ uri, position, settings: this.deps.settings() });
  }

  /** Runs the last query again (with the current settings). */
  async refresh(): Promise<BlastRadiusResult | null | undefined> {
    const last = this.deps.provider.query;
    if (!last) {
      return this.run();
    }
    return this.execute({ ...last, settings: this.deps.settings() });
  }

  private async execute(query: BlastQuery): Promise<BlastRadiusResult | null | undefined> {
    const client = await this.deps.client();
    if (!client) {
      void Promise.resolve(
        vscode.window.showErrorMessage(
          'GraphMind: the server is not running, so the blast radius can\'t be computed. Restart it, or see its log for why it stopped.',
          'Restart Server',
          'Show Log',
        ),
      ).then((choice) => {
        if (choice === 'Restart Server') {
          this.deps.restart();
        } else if (choice === 'Show Log') {
          this.deps.showLog();
        }
      });
      return undefined;
    }
    void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    const params = buildBlastRadiusParams(query.uri, query.position, query.settings);
    let result: BlastRadiusResult | null;
    try {
      result = await vscode.window.withProgress(
        { location: { viewId: VIEW_ID }, title: 'Computing blast radius…' },
        (_progress, token) => client.sendRequest<BlastRadiusResult | null>(BLAST_RADIUS_METHOD, params, token),
      );
    } catch (err) {
      if (!isCancellation(err)) {
        void vscode.window.showErrorMessage(`GraphMind: blast radius failed: ${describeError(err)}`);
      }
      return undefined;
    }
    this.show(query, result ?? null);
    return result ?? null;
  }

  /** Puts a result in the view. */
  show(query: BlastQuery, result: BlastRadiusResult | null): void {
    this.deps.provider.setResult(query, result);
    void vscode.commands.executeCommand('setContext', HAS_RESULT_CONTEXT, true);
    if (this.deps.treeView) {
      const target = result?.targets[0];
      this.deps.treeView.description = target
        ? `${target.name} · ${result.total} caller${result.total === 1 ? '' : 's'}`
        : undefined;
    }
  }

  clear(): void {
    this.deps.provider.clear();
    if (this.deps.treeView) {
      this.deps.treeView.description = undefined;
    }
    void vscode.commands.executeCommand('setContext', HAS_RESULT_CONTEXT, false);
  }

  /** Shows every call site of the current result in the references peek, anchored at the target. */
  async peek(): Promise<boolean> {
    const result = this.deps.provider.result;
    const target = result?.targets[0];
    const sites = allCallSites(result);
    if (!result || !target) {
      void vscode.window.showInformationMessage('GraphMind: run "Blast radius of symbol" first.');
      return false;
    }
    if (sites.length === 0) {
      void vscode.window.showInformationMessage(`GraphMind: ${target.name} has no callers to show.`);
      return false;
    }
    const uri = vscode.Uri.parse(target.uri);
    const range = toRange(target.selectionRange);
    await vscode.window.showTextDocument(uri, { selection: range, preserveFocus: false });
    await vscode.commands.executeCommand('editor.action.peekLocations', uri, range.start, sites.map(toLocation), 'peek');
    return true;
  }

  /** Opens the definition of a target or item row. */
  async openDefinition(node: BlastNode | undefined): Promise<void> {
    const sym = node?.type === 'target' ? node.symbol : node?.type === 'item' || node?.type === 'callSite' ? node.item : undefined;
    if (!sym) {
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.parse(sym.uri), { selection: toRange(sym.selectionRange) });
  }
}
