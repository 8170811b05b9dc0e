/** The "Blast Radius" tree view: a `graphmind/blastRadius` result -> tree rows. */
import * as vscode from 'vscode';
import type { BlastItem, BlastRadiusResult, BlastRadiusSettings, BlastSymbol, LspLocation, LspRange } from './protocol';

export type BlastNode =
  | { type: 'target'; id: string; symbol: BlastSymbol; total: number; showTotal: boolean }
  | { type: 'total'; id: string; total: number; targets: number }
  | { type: 'warning'; id: string; text: string; detail: string }
  | { type: 'message'; id: string; text: string; detail?: string }
  | { type: 'depth'; id: string; depth: number; items: BlastItem[] }
  | { type: 'item'; id: string; item: BlastItem }
  | { type: 'callSite'; id: string; item: BlastItem; site: LspLocation; index: number };

/** What was asked, kept so the view can be refreshed and explained. */
export interface BlastQuery {
  uri: string;
  position: { line: number; character: number };
  settings: BlastRadiusSettings;
  /** Short name of the word at the cursor, for messages. */
  word?: string;
}

const SYMBOL_KIND_ICONS: Record<number, string> = {
  1: 'symbol-file',
  2: 'symbol-module',
  3: 'symbol-namespace',
  4: 'symbol-package',
  5: 'symbol-class',
  6: 'symbol-method',
  7: 'symbol-property',
  8: 'symbol-field',
  9: 'symbol-constructor',
  10: 'symbol-enum',
  11: 'symbol-interface',
  12: 'symbol-function',
  13: 'symbol-variable',
  14: 'symbol-constant',
  15: 'symbol-string',
  16: 'symbol-number',
  17: 'symbol-boolean',
  18: 'symbol-array',
  19: 'symbol-object',
  20: 'symbol-key',
  21: 'symbol-null',
  22: 'symbol-enum-member',
  23: 'symbol-struct',
  24: 'symbol-event',
  25: 'symbol-operator',
  26: 'symbol-type-parameter',
};

export function symbolKindIcon(kind: number): string {
  return SYMBOL_KIND_ICONS[kind] ?? 'symbol-misc';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Groups items by depth, ascending, keeping the server's order inside a depth. */
export function groupByDepth(items: readonly BlastItem[]): Map<number, BlastItem[]> {
  const groups = new Map<number, BlastItem[]>();
  for (const item of items) {
    const list = groups.get(item.depth);
    if (list) {
      list.push(item);
    } else {
      groups.set(item.depth, [item]);
    }
  }
  return new Map([...groups.entries()].sort((a, b) => a[0] - b[0]));
}

/** The top level rows for a result: target(s) with the total, warnings, then one group per depth. */
export function rootNodes(result: BlastRadiusResult | null, query?: BlastQuery, gen = 0): BlastNode[] {
  const p = `${gen}:`;
  if (!result) {
    const at = query?.word ? ` "${query.word}"` : '';
    return [
      {
        type: 'message',
        id: p + 'none',
        text: `No symbol found at the cursor${at}.`,
        detail: 'Put the cursor on a function, method or class name (or inside its body) and run "GraphMind: Blast radius of symbol" again.',
      },
    ];
  }
  const nodes: BlastNode[] = [];
  const single = result.targets.length <= 1;
  result.targets.forEach((symbol, i) => {
    nodes.push({ type: 'target', id: `${p}target:${i}`, symbol, total: result.total, showTotal: single });
  });
  if (!single) {
    nodes.push({ type: 'total', id: p + 'total', total: result.total, targets: result.targets.length });
  }
  if (result.truncated) {
    const shown = result.items.length;
    nodes.push({
      type: 'warning',
      id: p + 'truncated',
      text:
        shown < result.total
          ? `Truncated: showing ${shown} of ${result.total} callers`
          : `Truncated: the server stopped at its limit (${shown} shown)`,
      detail: 'The result hit the server\'s limit. Lower "graphmind.blastRadius.depth" to see a complete answer.',
    });
  }
  if (!result.complete) {
    nodes.push({
      type: 'warning',
      id: p + 'incomplete',
      text: 'May be incomplete: unresolved calls could also reach this symbol',
      detail:
        'Some call sites in the workspace could not be resolved and might call the target. ' +
        'Setting "graphmind.blastRadius.minConfidence" to "ambiguous" includes more of them.',
    });
  }
  if (result.items.length === 0) {
    const s = query?.settings;
    nodes.push({
      type: 'message',
      id: p + 'nocallers',
      text: 'No callers found',
      detail: s ? `Searched ${plural(s.depth, 'level')} deep, confidence ≥ ${s.minConfidence}.` : undefined,
    });
    return nodes;
  }
  for (const [depth, items] of groupByDepth(result.items)) {
    nodes.push({ type: 'depth', id: `${p}depth:${depth}`, depth, items });
  }
  return nodes;
}

export function childNodes(node: BlastNode): BlastNode[] {
  if (node.type === 'depth') {
    return node.items.map((item, i) => ({ type: 'item', id: `${node.id}/item:${i}`, item }));
  }
  if (node.type === 'item' && node.item.callSites.length > 1) {
    return node.item.callSites.map((site, index) => ({
      type: 'callSite',
      id: `${node.id}/site:${index}`,
      item: node.item,
      site,
      index,
    }));
  }
  return [];
}

export type RelativePath = (uri: string) => string;

function fileLine(uri: string, range: LspRange, rel: RelativePath): string {
  return `${rel(uri)}:${range.start.line + 1}`;
}

/** Where a click on an item goes: its (first) call site, else its definition. */
export function itemLocation(item: BlastItem): LspLocation {
  return item.callSites[0] ?? { uri: item.uri, range: item.selectionRange };
}

function compactSignature(signature: string | null | undefined): string {
  if (!signature) {
    return '';
  }
  const oneLine = signature.replace(/\s+/g, ' ').trim();
  return oneLine.length > 120 ? oneLine.slice(0, 117) + '...' : oneLine;
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

function tooltipFor(sym: BlastSymbol, rel: RelativePath, extra: string[]): vscode.MarkdownString {
  const lines: string[] = [];
  if (sym.signature) {
    lines.push('```', sym.signature.trim(), '```', '');
  }
  lines.push(`**${escapeMd(sym.qualifiedName || sym.name)}**  `);
  lines.push(`Defined at ${escapeMd(fileLine(sym.uri, sym.selectionRange, rel))}  `);
  lines.push(...extra);
  const md = new vscode.MarkdownString(lines.join('\n'));
  md.supportThemeIcons = false;
  return md;
}

function escapeMd(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+!|<>])/g, '\\$1');
}

/** One tree row for a node. */
export function toTreeItem(node: BlastNode, rel: RelativePath): vscode.TreeItem {
  const None = vscode.TreeItemCollapsibleState.None;
  switch (node.type) {
    case 'target': {
      const s = node.symbol;
      const where = fileLine(s.uri, s.selectionRange, rel);
      const t = new vscode.TreeItem(s.name, None);
      t.id = node.id;
      t.description = node.showTotal ? `${plural(node.total, 'caller')} · ${where}` : where;
      t.iconPath = new vscode.ThemeIcon('target');
      t.contextValue = 'graphmind.target';
      t.tooltip = tooltipFor(s, rel, node.showTotal ? [`${plural(node.total, 'caller')} in total`] : []);
      t.command = openCommand({ uri: s.uri, range: s.selectionRange }, 'Open definition');
      t.accessibilityInformation = {
        label: `Target ${s.name}, ${node.showTotal ? plural(node.total, 'caller') + ', ' : ''}${where}`,
      };
      return t;
    }
    case 'total': {
      const t = new vscode.TreeItem(`Total: ${plural(node.total, 'caller')}`, None);
      t.id = node.id;
      t.description = `of ${node.targets} targets`;
      t.iconPath = new vscode.ThemeIcon('symbol-number');
      t.contextValue = 'graphmind.total';
      return t;
    }
    case 'warning': {
      const t = new vscode.TreeItem(node.text, None);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      t.tooltip = node.detail;
      t.contextValue = 'graphmind.warning';
      t.accessibilityInformation = { label: `Warning: ${node.text}` };
      return t;
    }
    case 'message': {
      const t = new vscode.TreeItem(node.text, None);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon('info');
      t.tooltip = node.detail;
      t.description = node.detail;
      t.contextValue = 'graphmind.message';
      t.accessibilityInformation = { label: node.detail ? `${node.text} ${node.detail}` : node.text };
      return t;
    }
    case 'depth': {
      const t = new vscode.TreeItem(`Depth ${node.depth}`, vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.description = node.depth === 1 ? `${plural(node.items.length, 'direct caller')}` : plural(node.items.length, 'caller');
      t.iconPath = new vscode.ThemeIcon('list-tree');
      t.contextValue = 'graphmind.depth';
      t.accessibilityInformation = { label: `Depth ${node.depth}, ${plural(node.items.length, 'caller')}` };
      return t;
    }
    case 'item': {
      const it = node.item;
      const loc = itemLocation(it);
      const where = fileLine(loc.uri, loc.range, rel);
      const sig = compactSignature(it.signature);
      const multi = it.callSites.length > 1;
      const t = new vscode.TreeItem(
        it.name,
        multi ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      t.id = node.id;
      t.description = [where + (multi ? ` (+${it.callSites.length - 1})` : ''), it.confidence, sig]
        .filter(Boolean)
        .join(' · ');
      t.iconPath = new vscode.ThemeIcon(symbolKindIcon(it.kind));
      t.contextValue = 'graphmind.item';
      const chain = it.chain.length ? [`Path: ${escapeMd(it.chain.join(' ← '))}  `] : [];
      t.tooltip = tooltipFor(it, rel, [
        `Depth ${it.depth} · confidence **${escapeMd(String(it.confidence))}**  `,
        ...chain,
        `${plural(it.callSites.length, 'call site')}: ${it.callSites.map((c) => escapeMd(fileLine(c.uri, c.range, rel))).join(', ')}`,
      ]);
      t.command = openCommand(loc, 'Open call site');
      t.accessibilityInformation = {
        label: `${it.name}, depth ${it.depth}, ${where}, ${it.confidence}${sig ? ', ' + sig : ''}`,
      };
      return t;
    }
    case 'callSite': {
      const where = fileLine(node.site.uri, node.site.range, rel);
      const t = new vscode.TreeItem(where, None);
      t.id = node.id;
      t.description = `call ${node.index + 1} of ${node.item.callSites.length}`;
      t.iconPath = new vscode.ThemeIcon('call-incoming');
      t.contextValue = 'graphmind.callSite';
      t.command = openCommand(node.site, 'Open call site');
      return t;
    }
  }
}

/** Every call site in a result, de-duplicated, in tree order (for the references peek). */
export function allCallSites(result: BlastRadiusResult | null): LspLocation[] {
  if (!result) {
    return [];
  }
  const seen = new Set<string>();
  const out: LspLocation[] = [];
  for (const items of groupByDepth(result.items).values()) {
    for (const item of items) {
      for (const site of item.callSites.length ? item.callSites : [itemLocation(item)]) {
        const key = `${site.uri}#${site.range.start.line}:${site.range.start.character}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.push(site);
        }
      }
    }
  }
  return out;
}

export class BlastRadiusTreeProvider implements vscode.TreeDataProvider<BlastNode> {
  private readonly changed = new vscode.EventEmitter<BlastNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private generation = 0;
  private roots: BlastNode[] = [];
  private _result: BlastRadiusResult | null = null;
  private _query: BlastQuery | undefined;

  constructor(private readonly rel: RelativePath) {}

  get result(): BlastRadiusResult | null {
    return this._result;
  }

  get query(): BlastQuery | undefined {
    return this._query;
  }

  get hasContent(): boolean {
    return this.roots.length > 0;
  }

  setResult(query: BlastQuery, result: BlastRadiusResult | null): void {
    this.generation++;
    this._query = query;
    this._result = result;
    this.roots = rootNodes(result, query, this.generation);
    this.changed.fire(undefined);
  }

  clear(): void {
    this.generation++;
    this._query = undefined;
    this._result = null;
    this.roots = [];
    this.changed.fire(undefined);
  }

  getTreeItem(node: BlastNode): vscode.TreeItem {
    return toTreeItem(node, this.rel);
  }

  getChildren(node?: BlastNode): BlastNode[] {
    return node ? childNodes(node) : this.roots;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
