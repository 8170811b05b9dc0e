/** "GraphMind: Blast radius of symbol" and the actions of its view. */
import * as vscode from 'vscode';
import { allCallSites, targetCount, type BlastNode, type BlastQuery, type BlastRadiusTreeProvider } from './blastTree';
import { changesSummary, type ChangesQuery } from './changesTree';
import { isSupportedDocument } from './languages';
import {
  BLAST_RADIUS_METHOD,
  buildBlastRadiusParams,
  buildChangesParams,
  CHANGES_METHOD,
  withPossibleCallers,
  type BlastRadiusResult,
  type BlastRadiusSettings,
  type ChangesResult,
  type LspLocation,
  type LspPosition,
  type LspRange,
} from './protocol';
import type { ManagedClient } from './server';
import type { StatusSnapshot } from './status';

export const VIEW_ID = 'graphmind.blastRadiusView';
export const HAS_RESULT_CONTEXT = 'graphmind.hasBlastRadius';
export const INCLUDE_POSSIBLE_CONTEXT = 'graphmind.blastRadius.includePossible';
export const HIDE_MAIN_CONTEXT = 'graphmind.blastRadius.hideMainBlocks';
export const SERVER_DOWN_MESSAGE =
  'The GraphMind server is not running, so this view can\'t follow edits. Run "GraphMind: Restart Server" (its log says why it stopped).';
export const STALE_MESSAGE = 'Out of date: files changed since this was computed. Refresh to update.';

export interface BlastRadiusDeps {
  provider: BlastRadiusTreeProvider;
  /** The running client, or undefined when the server isn't running. */
  client(): Promise<ManagedClient | undefined>;
  settings(): BlastRadiusSettings;
  treeView?: Partial<Pick<vscode.TreeView<BlastNode>, 'reveal' | 'visible'>> & Pick<vscode.TreeView<BlastNode>, 'description' | 'message'>;
  showLog(): void;
  restart(): void;
  /** Where the view's toggles are remembered (per workspace). */
  state?: Pick<vscode.Memento, 'get' | 'update'>;
  /** How long edits settle before the view asks again (ms). */
  liveDelayMs?: number;
  /** Log lines (the GraphMind output channel). */
  log?(line: string): void;
}

/** The parts of a TextDocumentChangeEvent the view follows. */
export interface DocumentChange {
  document: { uri: { scheme: string; path?: string; toString(): string }; languageId: string };
  contentChanges: readonly { range: LspRange; text: string }[];
}

/**
 * Where `pos` is after `changes` (applied in order, as LSP and VS Code do): lines inserted or
 * removed above move it; a change on its line before it moves it along the line; a change that
 * covers it moves it to the change's start.
 */
export function shiftPosition(pos: LspPosition, changes: readonly { range: LspRange; text: string }[]): LspPosition {
  let { line, character } = pos;
  for (const { range, text } of changes) {
    const { start, end } = range;
    const before = (p: LspPosition) => p.line < line || (p.line === line && p.character <= character);
    if (!before(start)) {
      continue; // entirely after the position
    }
    if (!before(end)) {
      // the change covers the position
      line = start.line;
      character = start.character;
      continue;
    }
    const added = text.split('\n');
    const lastLen = added[added.length - 1].length;
    if (end.line === line) {
      character = (added.length === 1 ? start.character + lastLen : lastLen) + (character - end.character);
    }
    line += added.length - 1 - (end.line - start.line);
  }
  return { line, character };
}

function sameTargets(a: BlastRadiusResult | null, b: BlastRadiusResult | null): boolean {
  const key = (r: BlastRadiusResult | null) => (r ? r.targets.map((t) => t.qualifiedName).join('\n') : '');
  return !!a && !!b && key(a) === key(b);
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

export class BlastRadiusController implements vscode.Disposable {
  private includePossible: boolean;
  private hideMainBlocks: boolean;
  /** Files changed since the rows were computed and they were not asked for again yet. */
  private stale = false;
  private serverDown = false;
  /** The index is still being built (from `graphmind/status`): counts may be low. */
  private indexing = false;
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
  private liveRequest: vscode.CancellationTokenSource | undefined;
  /** Bumped by every request; only the newest answer is shown. */
  private sequence = 0;

  constructor(private readonly deps: BlastRadiusDeps) {
    this.includePossible = deps.state?.get<boolean>(INCLUDE_POSSIBLE_CONTEXT, false) ?? false;
    this.hideMainBlocks = deps.state?.get<boolean>(HIDE_MAIN_CONTEXT, false) ?? false;
    deps.provider.setOptions({ includePossible: this.includePossible, hideMainBlocks: this.hideMainBlocks });
    void vscode.commands.executeCommand('setContext', INCLUDE_POSSIBLE_CONTEXT, this.includePossible);
    void vscode.commands.executeCommand('setContext', HIDE_MAIN_CONTEXT, this.hideMainBlocks);
  }

  /** The blast radius settings with the view's "include possible callers" toggle applied. */
  private settings(): BlastRadiusSettings {
    return withPossibleCallers(this.deps.settings(), this.includePossible);
  }

  get possibleIncluded(): boolean {
    return this.includePossible;
  }

  get mainBlocksHidden(): boolean {
    return this.hideMainBlocks;
  }

  /** The title-bar toggle: ask for possible (ambiguous) callers too, and ask again. */
  async setIncludePossible(on: boolean): Promise<void> {
    this.includePossible = on;
    this.deps.provider.setOptions({ includePossible: on });
    void this.deps.state?.update(INCLUDE_POSSIBLE_CONTEXT, on);
    void vscode.commands.executeCommand('setContext', INCLUDE_POSSIBLE_CONTEXT, on);
    if (this.deps.provider.query || this.deps.provider.changes) {
      await this.refresh();
    }
  }

  /** The title-bar filter: leave out module-level callers in `if __name__ == "__main__":` blocks. */
  setHideMainBlocks(on: boolean): void {
    this.hideMainBlocks = on;
    this.deps.provider.setOptions({ hideMainBlocks: on });
    void this.deps.state?.update(HIDE_MAIN_CONTEXT, on);
    void vscode.commands.executeCommand('setContext', HIDE_MAIN_CONTEXT, on);
  }

  /** Runs the command for the cursor in `editor`. Resolves to the result shown (undefined if none). */
  async run(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<BlastRadiusResult | null | undefined> {
    if (!editor) {
      void vscode.window.showWarningMessage(
        'GraphMind: open a file and put the cursor on a function to see its blast radius.',
      );
      return undefined;
    }
    const doc = editor.document;
    if (!isSupportedDocument(doc.languageId, doc.uri.path)) {
      void vscode.window.showWarningMessage(`GraphMind doesn't index "${doc.languageId}" files, so it has no blast radius here.`);
      return undefined;
    }
    const pos = editor.selection.active;
    const wordRange = doc.getWordRangeAtPosition(pos);
    const query: BlastQuery = {
      uri: doc.uri.toString(),
      position: { line: pos.line, character: pos.character },
      settings: this.settings(),
      word: wordRange ? doc.getText(wordRange) : undefined,
    };
    return this.execute(query);
  }

  /** Runs the command for a position given by URI (from a code lens). */
  async runAt(uri: string, position: LspPosition): Promise<BlastRadiusResult | null | undefined> {
    return this.execute({ uri, position, settings: this.settings() });
  }

  /** Runs the last query again (with the current settings). */
  async refresh(): Promise<BlastRadiusResult | ChangesResult | null | undefined> {
    const changes = this.deps.provider.changes;
    if (changes) {
      return this.runChanges(changes.query);
    }
    const last = this.deps.provider.query;
    if (!last) {
      return this.run();
    }
    return this.execute({ ...last, settings: this.settings() });
  }

  // ------------------------------------------------------------------ following edits
  /** A document changed: the rows' lines may be wrong now, so ask again once edits settle. */
  documentChanged(e: DocumentChange): void {
    const query = this.deps.provider.query;
    const changes = this.deps.provider.changes;
    if ((!changes && (!query || !this.deps.provider.result)) || e.contentChanges.length === 0) {
      return;
    }
    if (e.document.uri.scheme !== 'file' || !isSupportedDocument(e.document.languageId, e.document.uri.path)) {
      return;
    }
    if (query && e.document.uri.toString() === query.uri) {
      this.deps.provider.setQueryPosition(shiftPosition(query.position, e.contentChanges));
    }
    this.markStale();
  }

  /** The rows are out of date: ask again now if the view is visible, else when it shows. */
  private markStale(): void {
    this.stale = true;
    if (this.deps.treeView?.visible === false || this.serverDown) {
      this.updateMessage();
      return;
    }
    if (this.liveTimer) {
      clearTimeout(this.liveTimer);
    }
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      void this.requery();
    }, this.deps.liveDelayMs ?? 300);
  }

  /** The view was shown or hidden. */
  visibilityChanged(visible: boolean): void {
    if (visible && this.stale && !this.serverDown) {
      void this.requery();
    }
  }

  /** The server or its index changed state: say so in the view, and ask again when it's back or done. */
  serverStatusChanged(s: StatusSnapshot): void {
    const wasDown = this.serverDown;
    this.serverDown = s.server !== 'running';
    this.indexing = s.server === 'running' && s.index === 'indexing';
    if (this.serverDown) {
      this.updateMessage();
      return;
    }
    const result = this.deps.provider.result;
    const outdated = wasDown || this.stale || (s.index === 'ready' && !!result?.indexing);
    if (((this.deps.provider.query && result) || this.deps.provider.changes) && outdated) {
      this.stale = true;
      this.markStale();
    } else {
      this.updateMessage();
    }
  }

  /**
   * Asks again for what the view shows, quietly (no focus, no notification): after edits, when
   * the index is done, when the server is back. Resolves to true when the rows were updated.
   */
  async requery(): Promise<boolean> {
    const query = this.deps.provider.query;
    const changes = this.deps.provider.changes;
    if ((!query && !changes) || this.serverDown) {
      this.updateMessage();
      return false;
    }
    // numbered before waiting for the client (a restarted server may take seconds): a Clear or
    // another request meanwhile makes this one moot
    const seq = ++this.sequence;
    const client = await this.deps.client();
    if (!client || seq !== this.sequence) {
      this.updateMessage();
      return false;
    }
    this.liveRequest?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.liveRequest = cts;
    const settings = this.settings();
    try {
      if (changes) {
        const fresh = await client.sendRequest<ChangesResult>(CHANGES_METHOD, buildChangesParams(changes.query.uri, settings), cts.token);
        if (seq !== this.sequence) {
          return false;
        }
        this.stale = false;
        this.showChanges(changes.query, fresh, true);
        return true;
      }
      if (!query) {
        return false;
      }
      const result =
        (await client.sendRequest<BlastRadiusResult | null>(
          BLAST_RADIUS_METHOD,
          buildBlastRadiusParams(query.uri, query.position, settings),
          cts.token,
        )) ?? null;
      if (seq !== this.sequence) {
        return false;
      }
      this.stale = false;
      const previous = this.deps.provider.result;
      this.show({ ...query, settings }, result, sameTargets(previous, result));
      return true;
    } catch (err) {
      if (!isCancellation(err)) {
        this.deps.log?.(`[GraphMind] Updating the Blast Radius view failed: ${describeError(err)}`);
      }
      this.updateMessage();
      return false;
    } finally {
      if (this.liveRequest === cts) {
        this.liveRequest = undefined;
      }
    }
  }

  private updateMessage(): void {
    if (!this.deps.treeView) {
      return;
    }
    this.deps.treeView.message = this.serverDown
      ? SERVER_DOWN_MESSAGE
      : this.stale && (this.deps.provider.result || this.deps.provider.changes)
        ? STALE_MESSAGE
        : undefined;
  }

  dispose(): void {
    if (this.liveTimer) {
      clearTimeout(this.liveTimer);
    }
    this.liveRequest?.cancel();
  }

  /** The server is not running: say so, offering to restart it or to show its log. */
  private serverNotRunning(what: string): void {
    void Promise.resolve(
      vscode.window.showErrorMessage(
        `GraphMind: the server is not running, so ${what} can't be computed. Restart it, or see its log for why it stopped.`,
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
  }

  // ------------------------------------------------------------------ GraphMind: Impact of my changes
  /**
   * Asks `graphmind/changes` for the workspace folder of the active editor (or `query`'s) and
   * shows the changed definitions, their callers by depth and the tests in the radius.
   */
  async runChanges(query?: ChangesQuery, editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<ChangesResult | undefined> {
    const client = await this.deps.client();
    if (!client) {
      this.serverNotRunning('the impact of your changes');
      return undefined;
    }
    const doc = editor?.document;
    const q: ChangesQuery = query ?? { uri: doc && doc.uri.scheme === 'file' ? doc.uri.toString() : undefined };
    void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    this.liveRequest?.cancel();
    const seq = ++this.sequence;
    let result: ChangesResult | null;
    try {
      result = await vscode.window.withProgress(
        { location: { viewId: VIEW_ID }, title: 'Comparing with git…' },
        (_progress, token) => client.sendRequest<ChangesResult | null>(CHANGES_METHOD, buildChangesParams(q.uri, this.settings()), token),
      );
    } catch (err) {
      if (!isCancellation(err)) {
        void vscode.window.showErrorMessage(`GraphMind: impact of changes failed: ${describeError(err)}`);
      }
      return undefined;
    }
    if (!result) {
      void vscode.window.showErrorMessage('GraphMind: this server does not answer "graphmind/changes" (update GraphMind).');
      return undefined;
    }
    if (seq === this.sequence) {
      this.stale = false;
      this.showChanges(q, result);
      this.revealTarget();
    }
    return result;
  }

  showChanges(query: ChangesQuery, result: ChangesResult, sameRows = false): void {
    this.deps.provider.setChanges(query, result, sameRows);
    void vscode.commands.executeCommand('setContext', HAS_RESULT_CONTEXT, true);
    this.updateMessage();
    if (this.deps.treeView) {
      this.deps.treeView.description = changesSummary(result);
    }
  }

  private async execute(query: BlastQuery): Promise<BlastRadiusResult | null | undefined> {
    const client = await this.deps.client();
    if (!client) {
      this.serverNotRunning('the blast radius');
      return undefined;
    }
    void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    const params = buildBlastRadiusParams(query.uri, query.position, query.settings);
    this.liveRequest?.cancel();
    const seq = ++this.sequence;
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
    if (seq === this.sequence) {
      this.stale = false;
      this.show(query, result ?? null);
      this.revealTarget();
    }
    return result ?? null;
  }

  /** Scrolls the view to the target row (a new result may land below earlier scrolling). */
  private revealTarget(): void {
    const target = this.deps.provider.targetNode;
    if (target && this.deps.treeView?.reveal) {
      void Promise.resolve(this.deps.treeView.reveal(target, { select: false, focus: false })).catch(() => undefined);
    }
  }

  /**
   * Puts a result in the view. A single target becomes the query's anchor (its name's position),
   * so asking again after edits finds the same symbol wherever the cursor was.
   */
  show(query: BlastQuery, result: BlastRadiusResult | null, sameRows = false): void {
    if (result && result.indexing === undefined && this.indexing) {
      // A server that doesn't say so itself: its status said it is still indexing.
      result = { ...result, indexing: true };
    }
    const only = result?.targets.length === 1 ? result.targets[0] : undefined;
    const anchored: BlastQuery = only
      ? { ...query, uri: only.uri, position: { ...only.selectionRange.start }, word: only.name }
      : query;
    this.deps.provider.setResult(anchored, result, sameRows);
    void vscode.commands.executeCommand('setContext', HAS_RESULT_CONTEXT, true);
    this.updateMessage();
    if (this.deps.treeView) {
      const target = this.deps.provider.targetNode;
      this.deps.treeView.description =
        target?.type === 'target' ? `${target.symbol.name} · ${targetCount(target)}` : undefined;
    }
  }

  clear(): void {
    this.stale = false;
    this.sequence++; // an answer on its way is not shown
    if (this.liveTimer) {
      clearTimeout(this.liveTimer);
      this.liveTimer = undefined;
    }
    this.liveRequest?.cancel();
    this.deps.provider.clear();
    this.updateMessage();
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

  /** Shows the unresolved call sites of the current result in the references peek. */
  async peekUnresolved(): Promise<boolean> {
    const result = this.deps.provider.result;
    const target = result?.targets[0];
    const calls = result?.unresolvedCalls ?? [];
    if (!target || calls.length === 0) {
      void vscode.window.showInformationMessage('GraphMind: no unresolved calls to show.');
      return false;
    }
    const uri = vscode.Uri.parse(target.uri);
    const range = toRange(target.selectionRange);
    await vscode.window.showTextDocument(uri, { selection: range, preserveFocus: false });
    await vscode.commands.executeCommand('editor.action.peekLocations', uri, range.start, calls.map(toLocation), 'peek');
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
