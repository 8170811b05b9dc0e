/** The "Blast Radius" tree view: a `graphmind/blastRadius` result -> tree rows. */
import * as vscode from 'vscode';
import {
  changesChildNodes,
  changesRootNodes,
  changesTreeItem,
  isChangesNode,
  type ChangesNode,
  type ChangesQuery,
} from './changesTree';
import {
  isModuleLevel,
  type BlastItem,
  type BlastRadiusResult,
  type BlastRadiusSettings,
  type BlastNote,
  type BlastSymbol,
  type ChangesResult,
  type LspLocation,
  type LspRange,
  type UnresolvedCall,
} from './protocol';

export type BlastNode =
  | { type: 'target'; id: string; symbol: BlastSymbol; total: number; showTotal: boolean; hops: number; possible: PossibleCount }
  | { type: 'total'; id: string; total: number; targets: number }
  | { type: 'warning'; id: string; text: string; detail: string; command?: { command: string; title: string } }
  | { type: 'unresolved'; id: string; count: number; names: string[]; direct: boolean; calls: UnresolvedCall[] }
  | { type: 'unresolvedCall'; id: string; call: UnresolvedCall }
  | { type: 'message'; id: string; text: string; detail?: string }
  | { type: 'depth'; id: string; depth: number; items: BlastItem[]; hiddenMain: number }
  | { type: 'modules'; id: string; depth: number; items: BlastItem[]; main: boolean }
  | { type: 'item'; id: string; item: BlastItem; moduleRow?: boolean }
  | { type: 'callSite'; id: string; item: BlastItem; site: LspLocation; index: number }
  | { type: 'notes'; id: string; notes: BlastNote[] }
  | { type: 'note'; id: string; note: BlastNote }
  | ChangesNode;

/** Possible (ambiguous) callers: shown among the rows, or counted by the server but left out. */
export type PossibleCount = { shown: number } | { hidden: number } | undefined;

/** What was asked, kept so the view can be refreshed and explained. */
export interface BlastQuery {
  uri: string;
  position: { line: number; character: number };
  settings: BlastRadiusSettings;
  /** Short name of the word at the cursor, for messages. */
  word?: string;
}

/** The view's own filters and toggles (title-bar actions). */
export interface ViewOptions {
  /** Possible (ambiguous) callers are asked for: `minConfidence: "ambiguous"`. */
  includePossible: boolean;
  /** Module-level callers inside `if __name__ == "__main__":` blocks are left out. */
  hideMainBlocks: boolean;
}

export const DEFAULT_VIEW_OPTIONS: ViewOptions = { includePossible: false, hideMainBlocks: false };

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

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`, `"a", "b", "c", …` */
export function quotedNames(names: readonly string[], most = 3): string {
  const q = names.slice(0, most).map((n) => `"${n}"`);
  if (names.length > most) {
    return `${q.join(', ')}, …`;
  }
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}` : q.join('');
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

function possibleCount(result: BlastRadiusResult): PossibleCount {
  const shown = result.items.filter((i) => i.confidence === 'ambiguous').length;
  if (shown > 0) {
    return { shown };
  }
  return result.possibleCallers ? { hidden: result.possibleCallers } : undefined;
}

/** Splits the module-level items of a depth into ordinary ones and `__main__` blocks. */
function splitItems(items: readonly BlastItem[]): { symbols: BlastItem[]; modules: BlastItem[]; main: BlastItem[] } {
  const out = { symbols: [] as BlastItem[], modules: [] as BlastItem[], main: [] as BlastItem[] };
  for (const item of items) {
    (isModuleLevel(item) ? (item.inMainGuard ? out.main : out.modules) : out.symbols).push(item);
  }
  return out;
}

/**
 * The top level rows for a result: target(s) with what they count, warnings (truncated, still
 * indexing, possible callers left out, unresolved calls), then one group per depth.
 */
export function rootNodes(
  result: BlastRadiusResult | null,
  query?: BlastQuery,
  gen = 0,
  options: ViewOptions = DEFAULT_VIEW_OPTIONS,
): BlastNode[] {
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
  const hops = result.maxDepth ?? query?.settings.depth ?? 1;
  const possible = possibleCount(result);
  result.targets.forEach((symbol, i) => {
    nodes.push({ type: 'target', id: `${p}target:${i}`, symbol, total: result.total, showTotal: single, hops, possible });
  });
  if (!single) {
    nodes.push({ type: 'total', id: p + 'total', total: result.total, targets: result.targets.length });
  }
  if (result.notes?.length) {
    // Design notes and ADRs that name the target or a caller: read these before changing it.
    nodes.push({ type: 'notes', id: p + 'notes', notes: result.notes });
  }
  if (result.indexing) {
    nodes.push({
      type: 'warning',
      id: p + 'indexing',
      text: 'Still indexing: counts may be low',
      detail: 'The workspace index was not complete when this was computed. The view refreshes when indexing is done.',
    });
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
  if (possible && 'hidden' in possible && !options.includePossible) {
    nodes.push({
      type: 'warning',
      id: p + 'possible',
      text: `${plural(possible.hidden, 'possible caller')} not shown`,
      detail:
        'Calls whose target is ambiguous (several symbols share the name) could also reach this symbol. ' +
        'Click to include them (the view\'s "Include Possible Callers" toggle).',
      command: { command: 'graphmind.blastRadius.includePossible', title: 'Include Possible Callers' },
    });
  }
  const calls = result.unresolvedCalls ?? [];
  const unresolved = Math.max(result.unresolvedSites ?? 0, calls.length);
  if (unresolved > 0) {
    // The server counts calls named like any symbol in the radius (a caller's caller too).
    const targetNames = new Set(result.targets.map((t) => t.name));
    const names = calls.length ? [...new Set(calls.map((c) => c.name))] : [...targetNames];
    nodes.push({
      type: 'unresolved',
      id: p + 'unresolved',
      count: unresolved,
      names,
      direct: names.every((n) => targetNames.has(n)),
      calls,
    });
  } else if (!result.complete && !(possible && 'hidden' in possible)) {
    nodes.push({
      type: 'warning',
      id: p + 'incomplete',
      text: 'May be incomplete: unresolved calls could also reach this symbol',
      detail:
        'Some call sites in the workspace could not be resolved and might call the target. ' +
        'The view\'s "Include Possible Callers" toggle includes more of them.',
    });
  }
  if (result.items.length === 0) {
    const s = query?.settings;
    nodes.push({
      type: 'message',
      id: p + 'nocallers',
      text: unresolved > 0 || possible ? 'No known callers' : 'No callers found',
      detail: s ? `Searched ${plural(hops, 'level')} deep, confidence ≥ ${result.minConfidence ?? s.minConfidence}.` : undefined,
    });
    return nodes;
  }
  for (const [depth, items] of groupByDepth(result.items)) {
    const hiddenMain = options.hideMainBlocks ? items.filter((i) => isModuleLevel(i) && i.inMainGuard).length : 0;
    nodes.push({
      type: 'depth',
      id: `${p}depth:${depth}`,
      depth,
      items: hiddenMain ? items.filter((i) => !(isModuleLevel(i) && i.inMainGuard)) : items,
      hiddenMain,
    });
  }
  return nodes;
}

/** Stable row ids within a result: the same caller keeps its row (and expansion) across refreshes. */
function itemIds(parentId: string, items: readonly BlastItem[]): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const key = item.qualifiedName || item.name;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${parentId}/item:${key}${n ? `#${n}` : ''}`;
  });
}

export function childNodes(node: BlastNode): BlastNode[] {
  if (isChangesNode(node)) {
    return changesChildNodes(node);
  }
  if (node.type === 'notes') {
    return node.notes.map((note) => ({ type: 'note', id: `${node.id}/${note.path}`, note }));
  }
  if (node.type === 'depth') {
    const { symbols, modules, main } = splitItems(node.items);
    const ids = itemIds(node.id, symbols);
    const out: BlastNode[] = symbols.map((item, i) => ({ type: 'item', id: ids[i], item }));
    if (modules.length) {
      out.push({ type: 'modules', id: `${node.id}/modules`, depth: node.depth, items: modules, main: false });
    }
    if (main.length) {
      out.push({ type: 'modules', id: `${node.id}/main`, depth: node.depth, items: main, main: true });
    }
    return out;
  }
  if (node.type === 'modules') {
    const ids = itemIds(node.id, node.items);
    return node.items.map((item, i) => ({ type: 'item', id: ids[i], item, moduleRow: true }));
  }
  if (node.type === 'unresolved') {
    const out: BlastNode[] = node.calls.map((call, i) => ({ type: 'unresolvedCall', id: `${node.id}/${i}`, call }));
    if (node.calls.length < node.count && node.calls.length > 0) {
      out.push({
        type: 'message',
        id: `${node.id}/more`,
        text: `…and ${node.count - node.calls.length} more`,
        detail: 'The server lists the first ones only; "graphmind blast-radius --json" lists them all.',
      });
    }
    return out;
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

/** What a target row counts: "3 callers within 2 hops", "+ 65 possible" when some are ambiguous. */
export function targetCount(node: Extract<BlastNode, { type: 'target' }>): string {
  const within = `within ${plural(node.hops, 'hop')}`;
  const p = node.possible;
  if (p && 'shown' in p) {
    const known = node.total - p.shown;
    return `${plural(node.total, 'caller')} ${within} (${known} known, ${p.shown} possible)`;
  }
  const base = `${plural(node.total, 'caller')} ${within}`;
  return p && 'hidden' in p ? `${base} · ${p.hidden} more possible` : base;
}

/** One tree row for a node. */
export function toTreeItem(node: BlastNode, rel: RelativePath): vscode.TreeItem {
  if (isChangesNode(node)) {
    return changesTreeItem(node, rel);
  }
  const None = vscode.TreeItemCollapsibleState.None;
  switch (node.type) {
    case 'target': {
      const s = node.symbol;
      const where = fileLine(s.uri, s.selectionRange, rel);
      const counted = targetCount(node);
      const t = new vscode.TreeItem(s.name, None);
      t.id = node.id;
      t.description = node.showTotal ? `${counted} · ${where}` : where;
      t.iconPath = new vscode.ThemeIcon('target');
      t.contextValue = 'graphmind.target';
      t.tooltip = tooltipFor(s, rel, node.showTotal ? [`${counted} (callers of callers included, up to ${node.hops} levels)`] : []);
      t.command = openCommand({ uri: s.uri, range: s.selectionRange }, 'Open definition');
      t.accessibilityInformation = {
        label: `Target ${s.name}, ${node.showTotal ? counted + ', ' : ''}${where}`,
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
      if (node.command) {
        t.command = node.command;
      }
      t.accessibilityInformation = { label: `Warning: ${node.text}` };
      return t;
    }
    case 'unresolved': {
      const listed = node.calls.length > 0;
      const what = node.names.length ? ` named ${quotedNames(node.names)}` : '';
      const text = `${plural(node.count, 'unresolved call')}${what} may also ${node.direct ? 'call' : 'reach'} this`;
      const t = new vscode.TreeItem(text, listed ? vscode.TreeItemCollapsibleState.Collapsed : None);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      t.description = listed ? 'click to list them' : undefined;
      t.tooltip =
        `${plural(node.count, 'call site')}${what} could not be resolved to a definition, so the graph ` +
        'cannot tell whether they call this symbol. They are not counted above.';
      t.contextValue = listed ? 'graphmind.unresolved' : 'graphmind.warning';
      t.accessibilityInformation = { label: `Warning: ${text}` };
      return t;
    }
    case 'unresolvedCall': {
      const c = node.call;
      const where = fileLine(c.uri, c.range, rel);
      const t = new vscode.TreeItem(where, None);
      t.id = node.id;
      t.description = [c.caller ? `in ${c.caller}` : '', c.text ?? ''].filter(Boolean).join(' · ');
      t.iconPath = new vscode.ThemeIcon('question');
      t.contextValue = 'graphmind.unresolvedCall';
      t.tooltip = `Unresolved call to ${c.name} at ${where}${c.caller ? ` in ${c.caller}` : ''}`;
      t.command = openCommand(c, 'Open call site');
      t.accessibilityInformation = { label: `Unresolved call ${c.name}, ${where}` };
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
      const n = node.depth === 1 ? plural(node.items.length, 'direct caller') : plural(node.items.length, 'caller');
      const hidden = node.hiddenMain ? ` (+${node.hiddenMain} in __main__ blocks, hidden)` : '';
      t.description = n + hidden;
      t.iconPath = new vscode.ThemeIcon('list-tree');
      t.contextValue = 'graphmind.depth';
      t.accessibilityInformation = { label: `Depth ${node.depth}, ${plural(node.items.length, 'caller')}${hidden}` };
      return t;
    }
    case 'modules': {
      const label = node.main ? 'if __name__ == "__main__" blocks' : 'Module-level code';
      const t = new vscode.TreeItem(
        label,
        node.main ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
      );
      t.id = node.id;
      t.description = plural(node.items.length, 'file');
      t.iconPath = new vscode.ThemeIcon(node.main ? 'run' : 'symbol-module');
      t.contextValue = node.main ? 'graphmind.mainBlocks' : 'graphmind.modules';
      t.tooltip = node.main
        ? 'Script entry points: calls at the top level of a file, inside `if __name__ == "__main__":`. Hide them with the view\'s filter.'
        : 'Calls at the top level of a file (run on import), one row per file.';
      t.accessibilityInformation = { label: `${label}, ${plural(node.items.length, 'file')}` };
      return t;
    }
    case 'item': {
      const it = node.item;
      const loc = itemLocation(it);
      const where = fileLine(loc.uri, loc.range, rel);
      const sig = node.moduleRow ? '' : compactSignature(it.signature);
      const multi = it.callSites.length > 1;
      const possible = it.confidence === 'ambiguous';
      const t = new vscode.TreeItem(
        node.moduleRow ? rel(it.uri) : it.name,
        multi ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      t.id = node.id;
      const at = node.moduleRow ? `line ${loc.range.start.line + 1}` : where;
      const container = node.moduleRow ? '' : it.container ?? '';
      t.description = [at + (multi ? ` (+${it.callSites.length - 1})` : ''), container, possible ? 'possible' : it.confidence, sig]
        .filter(Boolean)
        .join(' · ');
      t.iconPath = new vscode.ThemeIcon(possible ? 'question' : symbolKindIcon(it.kind));
      t.contextValue = 'graphmind.item';
      const chain = it.chain.length ? [`Path: ${escapeMd(it.chain.join(' ← '))}  `] : [];
      t.tooltip = tooltipFor(it, rel, [
        `Depth ${it.depth} · confidence **${escapeMd(String(it.confidence))}**${possible ? ' (a possible caller: the call is ambiguous)' : ''}  `,
        ...chain,
        `${plural(it.callSites.length, 'call site')}: ${it.callSites.map((c) => escapeMd(fileLine(c.uri, c.range, rel))).join(', ')}`,
      ]);
      t.command = openCommand(loc, 'Open call site');
      const name = node.moduleRow ? `module level of ${rel(it.uri)}` : it.name;
      t.accessibilityInformation = {
        label: `${name}, depth ${it.depth}, ${where}, ${possible ? 'possible' : it.confidence}${sig ? ', ' + sig : ''}`,
      };
      return t;
    }
    case 'notes': {
      const t = new vscode.TreeItem('Notes', vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.description = `${plural(node.notes.length, 'document')} name${node.notes.length === 1 ? 's' : ''} this code`;
      t.iconPath = new vscode.ThemeIcon('book');
      t.contextValue = 'graphmind.notes';
      t.tooltip = 'Markdown files (design notes, ADRs) that mention the target or one of its callers.';
      t.accessibilityInformation = { label: `Notes, ${t.description}` };
      return t;
    }
    case 'note': {
      const n = node.note;
      const where = `${n.path}:${n.line}`;
      const names = n.symbols.map((q) => q.slice(q.lastIndexOf('.') + 1));
      const t = new vscode.TreeItem(n.title, None);
      t.id = node.id;
      t.description = [where, names.slice(0, 3).join(', ') + (names.length > 3 ? ', …' : '')].filter(Boolean).join(' · ');
      t.iconPath = new vscode.ThemeIcon('note');
      t.contextValue = 'graphmind.note';
      t.tooltip = [n.title, where, ...n.symbols.map((q) => `• ${q}`)].join('\n');
      if (n.uri) {
        t.command = openCommand({ uri: n.uri, range: { start: { line: n.line - 1, character: 0 }, end: { line: n.line - 1, character: 0 } } }, 'Open note');
      }
      t.accessibilityInformation = { label: `Note ${n.title}, ${where}` };
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
  private readonly parents = new Map<string, BlastNode>();
  private _result: BlastRadiusResult | null = null;
  private _query: BlastQuery | undefined;
  /** "Impact of my changes" shows instead of a blast radius. */
  private _changes: { query: ChangesQuery; result: ChangesResult } | undefined;
  private _options: ViewOptions = { ...DEFAULT_VIEW_OPTIONS };

  constructor(private readonly rel: RelativePath) {}

  get result(): BlastRadiusResult | null {
    return this._result;
  }

  get query(): BlastQuery | undefined {
    return this._query;
  }

  /** The changes shown (and how they were asked), when the view shows the impact of changes. */
  get changes(): { query: ChangesQuery; result: ChangesResult } | undefined {
    return this._changes;
  }

  get options(): ViewOptions {
    return this._options;
  }

  get hasContent(): boolean {
    return this.roots.length > 0;
  }

  /** The first target row (what a new result scrolls to; the first row for changes). */
  get targetNode(): BlastNode | undefined {
    return this._changes ? this.roots[0] : this.roots.find((n) => n.type === 'target');
  }

  /**
   * Shows a result. `sameRows`: an update of the result already shown (after an edit): rows keep
   * their ids, so VS Code keeps what is expanded and selected; otherwise every row is new.
   */
  setResult(query: BlastQuery, result: BlastRadiusResult | null, sameRows = false): void {
    if (!sameRows) {
      this.generation++;
    }
    this._query = query;
    this._result = result;
    this._changes = undefined;
    this.render();
  }

  /** Shows the impact of changes (`sameRows`: an update of the one shown, rows keep their ids). */
  setChanges(query: ChangesQuery, result: ChangesResult, sameRows = false): void {
    if (!sameRows) {
      this.generation++;
    }
    this._query = undefined;
    this._result = null;
    this._changes = { query, result };
    this.render();
  }

  /** Moves the query's position (edits above it), without changing the rows. */
  setQueryPosition(position: { line: number; character: number }): void {
    if (this._query) {
      this._query = { ...this._query, position };
    }
  }

  setOptions(options: Partial<ViewOptions>): void {
    this._options = { ...this._options, ...options };
    if (this._query || this._changes) {
      this.render();
    }
  }

  private render(): void {
    this.parents.clear();
    this.roots = this._changes
      ? changesRootNodes(this._changes.result, this.generation)
      : rootNodes(this._result, this._query, this.generation, this._options);
    this.changed.fire(undefined);
  }

  clear(): void {
    this.generation++;
    this._query = undefined;
    this._result = null;
    this._changes = undefined;
    this.roots = [];
    this.parents.clear();
    this.changed.fire(undefined);
  }

  getTreeItem(node: BlastNode): vscode.TreeItem {
    return toTreeItem(node, this.rel);
  }

  getChildren(node?: BlastNode): BlastNode[] {
    if (!node) {
      return this.roots;
    }
    const children = childNodes(node);
    for (const c of children) {
      this.parents.set(c.id, node);
    }
    return children;
  }

  /** Needed by TreeView.reveal. */
  getParent(node: BlastNode): BlastNode | undefined {
    return this.parents.get(node.id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
