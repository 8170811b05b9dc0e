/**
 * "GraphMind: Impact of my changes" in the Blast Radius view: a `graphmind/changes` result ->
 * rows. The changed symbols first, then their callers grouped by depth, then the tests in the
 * radius. Warning and message rows are the view's own (blastTree.ts draws them).
 */
import * as vscode from 'vscode';
import type { BlastNode, RelativePath } from './blastTree';
import type { AffectedSymbol, AffectedTest, ChangedSymbol, ChangesResult, LspLocation } from './protocol';

export type ChangesNode =
  | { type: 'chBase'; id: string; result: ChangesResult }
  | { type: 'chSection'; id: string; section: 'changed' | 'affected' | 'tests'; result: ChangesResult; affected: AffectedSymbol[] }
  | { type: 'chChanged'; id: string; symbol: ChangedSymbol; rootUri?: string }
  | { type: 'chDepth'; id: string; depth: number; items: AffectedSymbol[]; rootUri?: string }
  | { type: 'chAffected'; id: string; item: AffectedSymbol; rootUri?: string }
  | { type: 'chTest'; id: string; test: AffectedTest; rootUri?: string };

/** What was asked, kept to ask again (after edits, the toggle, Refresh). */
export interface ChangesQuery {
  /** A document of the workspace folder to compare (the active editor's). */
  uri?: string;
}

export function isChangesNode(node: BlastNode): node is ChangesNode {
  return node.type.startsWith('ch');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function shortName(qualifiedName: string): string {
  return qualifiedName.slice(qualifiedName.lastIndexOf('.') + 1);
}

/** The URI of a workspace-relative path: the entry's own when it has one, else under the root. */
export function uriOf(path: string, rootUri: string | undefined, own?: string): string {
  if (own) {
    return own;
  }
  const root = (rootUri ?? '').replace(/\/+$/, '');
  return `${root}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** A 1-based line (and column) as an LSP location (0-based). */
function locationOf(uri: string, line: number, column = 1): LspLocation {
  const pos = { line: Math.max(0, line - 1), character: Math.max(0, column - 1) };
  return { uri, range: { start: pos, end: pos } };
}

/** Where a click on an affected caller goes: its first call site, else its definition. */
export function affectedLocation(item: AffectedSymbol, rootUri?: string): LspLocation {
  const site = item.callSites[0];
  return site
    ? locationOf(uriOf(site.path, rootUri), site.line, site.column)
    : locationOf(uriOf(item.path, rootUri, item.uri), item.startLine);
}

/** Callers that are tests are listed under Tests only. */
function callersOnly(result: ChangesResult): AffectedSymbol[] {
  const tests = new Set(result.tests.map((t) => t.qualifiedName));
  return result.affected.filter((a) => !tests.has(a.qualifiedName));
}

/** The rows of a result: what it was compared with, warnings, then Changed / Affected callers / Tests. */
export function changesRootNodes(result: ChangesResult, gen = 0): BlastNode[] {
  const p = `${gen}:changes:`;
  const nodes: BlastNode[] = [{ type: 'chBase', id: p + 'base', result }];
  if (result.truncated) {
    nodes.push({
      type: 'warning',
      id: p + 'truncated',
      text: `Truncated: showing ${result.shown ?? '?'} of ${result.total ?? '?'} entries`,
      detail: 'The answer hit the server\'s limit. "graphmind changes --json" lists everything.',
    });
  }
  if (!result.complete) {
    const parts = [
      result.unresolvedSites ? plural(result.unresolvedSites, 'unresolved call') : '',
      result.weakEdges ? plural(result.weakEdges, 'weaker edge') : '',
    ].filter(Boolean);
    nodes.push({
      type: 'warning',
      id: p + 'incomplete',
      text: `May be incomplete${parts.length ? `: ${parts.join(' and ')} could add callers` : ''}`,
      detail:
        'Calls the graph could not resolve (or below the asked confidence, or to removed code) could reach the changed code. ' +
        'The view\'s "Include Possible Callers" toggle includes the ambiguous ones.',
    });
  }
  if (result.changed.length === 0) {
    nodes.push({
      type: 'message',
      id: p + 'none',
      text: `No changed definitions against ${result.base.ref}`,
      detail: result.files.length ? `${plural(result.files.length, 'file')} changed outside any definition.` : 'Nothing changed.',
    });
    return nodes;
  }
  const affected = callersOnly(result);
  nodes.push({ type: 'chSection', id: p + 'changed', section: 'changed', result, affected });
  nodes.push({ type: 'chSection', id: p + 'affected', section: 'affected', result, affected });
  nodes.push({ type: 'chSection', id: p + 'tests', section: 'tests', result, affected });
  return nodes;
}

export function changesChildNodes(node: ChangesNode): BlastNode[] {
  if (node.type === 'chSection') {
    const rootUri = node.result.rootUri;
    if (node.section === 'changed') {
      return node.result.changed.map((symbol, i) => ({ type: 'chChanged', id: `${node.id}/${i}:${symbol.qualifiedName}`, symbol, rootUri }));
    }
    if (node.section === 'tests') {
      return node.result.tests.map((test, i) => ({ type: 'chTest', id: `${node.id}/${i}:${test.qualifiedName}`, test, rootUri }));
    }
    const depths = new Map<number, AffectedSymbol[]>();
    for (const a of node.affected) {
      depths.set(a.depth, [...(depths.get(a.depth) ?? []), a]);
    }
    return [...depths.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([depth, items]) => ({ type: 'chDepth', id: `${node.id}/depth:${depth}`, depth, items, rootUri }));
  }
  if (node.type === 'chDepth') {
    return node.items.map((item, i) => ({ type: 'chAffected', id: `${node.id}/${i}:${item.qualifiedName}`, item, rootUri: node.rootUri }));
  }
  return [];
}

function openCommand(loc: LspLocation, title: string): vscode.Command {
  const r = loc.range;
  return {
    command: 'vscode.open',
    title,
    arguments: [
      vscode.Uri.parse(loc.uri),
      { selection: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character) },
    ],
  };
}

const CHANGE_ICONS: Record<string, string> = {
  added: 'diff-added',
  removed: 'diff-removed',
  modified: 'diff-modified',
  signature: 'symbol-parameter',
};

export function changesTreeItem(node: ChangesNode, rel: RelativePath): vscode.TreeItem {
  const None = vscode.TreeItemCollapsibleState.None;
  const Expanded = vscode.TreeItemCollapsibleState.Expanded;
  switch (node.type) {
    case 'chBase': {
      const r = node.result;
      const label = `Changes against ${r.base.ref}${r.staged ? ' (staged)' : ''}`;
      const t = new vscode.TreeItem(label, None);
      t.id = node.id;
      // `files` are the files git sees changed; a changed definition may be in an unsaved buffer only
      const files = [...new Set([...r.files, ...r.changed.map((c) => c.path)])].sort();
      const unsaved = r.buffers?.length ? ' (unsaved text included)' : '';
      t.description = `${r.base.commit.slice(0, 7)} · ${plural(files.length, 'file')} changed${unsaved}`;
      const buffers = r.buffers?.length ? [`Open buffers compared: ${r.buffers.join(', ')}`] : [];
      t.tooltip = [r.base.how ?? r.base.ref, ...files.map((f) => `• ${f}`), ...buffers].join('\n');
      t.iconPath = new vscode.ThemeIcon('git-compare');
      t.contextValue = 'graphmind.changesBase';
      t.accessibilityInformation = { label: `${label}, ${t.description}` };
      return t;
    }
    case 'chSection': {
      const n =
        node.section === 'changed' ? node.result.changed.length : node.section === 'tests' ? node.result.tests.length : node.affected.length;
      const label = node.section === 'changed' ? 'Changed' : node.section === 'tests' ? 'Tests' : 'Affected callers';
      const what = node.section === 'changed' ? plural(n, 'definition') : node.section === 'tests' ? plural(n, 'test') : plural(n, 'caller');
      const t = new vscode.TreeItem(label, n ? Expanded : None);
      t.id = node.id;
      t.description = what;
      t.iconPath = new vscode.ThemeIcon(node.section === 'changed' ? 'diff' : node.section === 'tests' ? 'beaker' : 'references');
      t.contextValue = 'graphmind.changesSection';
      t.tooltip =
        node.section === 'changed'
          ? 'Definitions whose text differs from the base (unsaved buffers included).'
          : node.section === 'tests'
            ? 'Test functions within the blast radius of the changed definitions: run these.'
            : 'Callers of the changed definitions, by hops from them.';
      t.accessibilityInformation = { label: `${label}, ${what}` };
      return t;
    }
    case 'chChanged': {
      const s = node.symbol;
      const uri = uriOf(s.path, node.rootUri, s.uri);
      const where = `${rel(uri)}:${s.startLine}`;
      const t = new vscode.TreeItem(shortName(s.qualifiedName), None);
      t.id = node.id;
      t.description = `${s.change} · ${where}`;
      t.iconPath = new vscode.ThemeIcon(CHANGE_ICONS[s.change] ?? 'diff-modified');
      t.tooltip = [s.signature ?? '', s.qualifiedName, `${s.change} (${s.kind}) at ${where}`].filter(Boolean).join('\n');
      t.contextValue = 'graphmind.changed';
      if (s.change !== 'removed') {
        t.command = openCommand(locationOf(uri, s.startLine), 'Open definition');
      }
      t.accessibilityInformation = { label: `Changed ${shortName(s.qualifiedName)}, ${s.change}, ${where}` };
      return t;
    }
    case 'chDepth': {
      const t = new vscode.TreeItem(`Depth ${node.depth}`, Expanded);
      t.id = node.id;
      t.description = node.depth === 1 ? plural(node.items.length, 'direct caller') : plural(node.items.length, 'caller');
      t.iconPath = new vscode.ThemeIcon('list-tree');
      t.contextValue = 'graphmind.depth';
      t.accessibilityInformation = { label: `Depth ${node.depth}, ${plural(node.items.length, 'caller')}` };
      return t;
    }
    case 'chAffected': {
      const it = node.item;
      const loc = affectedLocation(it, node.rootUri);
      const where = `${rel(loc.uri)}:${loc.range.start.line + 1}`;
      const confidence = it.confidence === 'ambiguous' ? 'possible' : it.confidence === 'unresolved' ? 'calls removed code' : it.confidence;
      const module = it.kind === 'module';
      const t = new vscode.TreeItem(module ? `module level of ${it.path}` : it.name, None);
      t.id = node.id;
      t.description = [where, module ? '' : it.container ?? '', confidence].filter(Boolean).join(' · ');
      t.iconPath = new vscode.ThemeIcon(
        it.confidence === 'unresolved' ? 'warning' : it.confidence === 'ambiguous' ? 'question' : module ? 'symbol-module' : 'symbol-function',
      );
      t.tooltip = [it.signature ?? '', it.qualifiedName, `Path: ${it.chain.join(' ← ')}`].filter(Boolean).join('\n');
      t.contextValue = 'graphmind.affected';
      t.command = openCommand(loc, 'Open call site');
      t.accessibilityInformation = { label: `${module ? `module level of ${it.path}` : it.name}, depth ${it.depth}, ${where}, ${confidence}` };
      return t;
    }
    case 'chTest': {
      const test = node.test;
      const uri = uriOf(test.path, node.rootUri, test.uri);
      const where = `${rel(uri)}:${test.startLine}`;
      const t = new vscode.TreeItem(shortName(test.qualifiedName), None);
      t.id = node.id;
      t.description = `${test.kind} · ${where} · ${test.depth === 0 ? 'changed' : `depth ${test.depth}`}`;
      t.iconPath = new vscode.ThemeIcon('beaker');
      t.tooltip = [test.qualifiedName, `Path: ${test.chain.join(' ← ')}`].join('\n');
      t.contextValue = 'graphmind.test';
      t.command = openCommand(locationOf(uri, test.startLine), 'Open test');
      t.accessibilityInformation = { label: `Test ${shortName(test.qualifiedName)}, ${test.kind}, ${where}, depth ${test.depth}` };
      return t;
    }
  }
}

/** The view's description for a result: "Impact of changes · 1 changed, 2 callers, 1 test". */
export function changesSummary(result: ChangesResult): string {
  return `Impact of changes · ${result.changed.length} changed, ${plural(callersOnly(result).length, 'caller')}, ${plural(result.tests.length, 'test')}`;
}
