import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import {
  BlastRadiusController,
  HIDE_MAIN_CONTEXT,
  INCLUDE_POSSIBLE_CONTEXT,
  SERVER_DOWN_MESSAGE,
  shiftPosition,
  STALE_MESSAGE,
} from '../src/blastRadius';
import { BlastRadiusTreeProvider, childNodes, quotedNames, rootNodes, toTreeItem, type BlastNode, type BlastQuery } from '../src/blastTree';
import type { BlastRadiusResult } from '../src/protocol';
import type { ManagedClient } from '../src/server';
import * as vscode from './vscode-stub';
import { item, range, sampleResult } from './fixtures';

const rel = (uri: string) => uri.replace('file:///ws/', '');
const query: BlastQuery = {
  uri: 'file:///ws/a.py',
  position: { line: 0, character: 5 },
  settings: { depth: 3, minConfidence: 'inferred' },
};

function labels(nodes: BlastNode[]): string[] {
  return nodes.map((n) => {
    const t = toTreeItem(n, rel);
    return t.description ? `${t.label} | ${t.description}` : String(t.label);
  });
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

function fakeClient(answer: (params: any) => BlastRadiusResult | null) {
  const requests: any[] = [];
  const client: ManagedClient = {
    start: async () => {},
    stop: async () => {},
    isRunning: () => true,
    sendRequest: async <R>(_method: string, params: unknown) => {
      requests.push(params);
      return answer(params) as R;
    },
  };
  return { client, requests };
}

function memento() {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string, def?: T) => (values.has(key) ? (values.get(key) as T) : def) as T,
    update: async (key: string, value: unknown) => void values.set(key, value),
  };
}

function setup(
  client: ManagedClient | undefined,
  extra: { visible?: boolean; state?: ReturnType<typeof memento>; clientFn?: () => Promise<ManagedClient | undefined> } = {},
) {
  const provider = new BlastRadiusTreeProvider(rel);
  const reveals: BlastNode[] = [];
  const treeView = {
    description: undefined as string | undefined,
    message: undefined as string | undefined,
    visible: extra.visible ?? true,
    reveal: async (node: BlastNode) => void reveals.push(node),
  };
  const controller = new BlastRadiusController({
    provider,
    treeView,
    client: extra.clientFn ?? (async () => client),
    settings: () => ({ depth: 3, minConfidence: 'inferred' }),
    restart: () => {},
    showLog: () => {},
    state: extra.state,
    liveDelayMs: 0,
  });
  return { provider, treeView, controller, reveals };
}

const editor = () => vscode.fakeEditor('file:///ws/b.py', 'python', ['', '', '', '    target()'], 3, 6);
const change = (uri: string, line: number, text: string, languageId = 'python') => ({
  document: { uri: vscode.Uri.parse(uri), languageId },
  contentChanges: [{ range: range(line, 0, 0), text }],
});

describe('honest counts in the Blast Radius view', () => {
  beforeEach(() => vscode.reset());

  it('the target row says what it counts: callers within N hops', () => {
    const [t] = rootNodes(sampleResult(), { ...query, settings: { depth: 1, minConfidence: 'inferred' } });
    assert.equal(toTreeItem(t, rel).description, '3 callers within 1 hop · a.py:1');
    assert.equal(toTreeItem(t, rel).accessibilityInformation?.label, 'Target target, 3 callers within 1 hop, a.py:1');
    // the server's own depth wins over the query's
    const [t2] = rootNodes(sampleResult({ maxDepth: 2 }), query);
    assert.match(String(toTreeItem(t2, rel).description), /^3 callers within 2 hops/);
  });

  it('possible callers left out: counted on the target row, and a row that includes them', () => {
    const roots = rootNodes(sampleResult({ possibleCallers: 65, complete: false }), query);
    assert.deepEqual(labels(roots).slice(0, 2), [
      'target | 3 callers within 3 hops · 65 more possible · a.py:1',
      '65 possible callers not shown',
    ]);
    const row = toTreeItem(roots[1], rel);
    assert.equal(row.command?.command, 'graphmind.blastRadius.includePossible');
    assert.ok(!labels(roots).some((l) => l.startsWith('May be incomplete')), 'the specific row replaces the vague one');
    // with the toggle on the row is gone
    const on = rootNodes(sampleResult({ possibleCallers: 65 }), query, 0, { includePossible: true, hideMainBlocks: false });
    assert.ok(!labels(on).some((l) => l.includes('not shown')));
  });

  it('possible callers shown: the target row splits known and possible, rows say "possible"', () => {
    const result = sampleResult({
      items: [item('caller1', 'b.py', 1, [3]), item('maybe', 'm.py', 1, [6], { confidence: 'ambiguous' })],
      total: 2,
    });
    const roots = rootNodes(result, query, 0, { includePossible: true, hideMainBlocks: false });
    assert.equal(labels(roots)[0], 'target | 2 callers within 3 hops (1 known, 1 possible) · a.py:1');
    const rows = labels(childNodes(roots[1]));
    assert.deepEqual(rows, ['caller1 | b.py:4 · inferred · def caller1()', 'maybe | m.py:7 · possible · def maybe()']);
  });

  it('no known callers but some possible or unresolved: never a bare "No callers found"', () => {
    const roots = rootNodes(sampleResult({ items: [], total: 0, possibleCallers: 12, complete: false }), query);
    assert.equal(labels(roots)[0], 'target | 0 callers within 3 hops · 12 more possible · a.py:1');
    assert.ok(labels(roots).some((l) => l.startsWith('No known callers')));
    const clean = rootNodes(sampleResult({ items: [], total: 0 }), query);
    assert.ok(labels(clean).some((l) => l.startsWith('No callers found')));
  });

  it('unresolved calls: a warning row with the count that lists the call sites when expanded', () => {
    const calls = [
      { uri: 'file:///ws/x.py', range: range(9, 4, 10), name: 'target', caller: 'x.run', text: 'obj.target()' },
      { uri: 'file:///ws/y.py', range: range(2, 0, 6), name: 'target', caller: null, text: null },
    ];
    const roots = rootNodes(sampleResult({ complete: false, unresolvedSites: 3, unresolvedCalls: calls }), query);
    const row = roots.find((n) => n.type === 'unresolved')!;
    const t = toTreeItem(row, rel);
    assert.equal(t.label, '3 unresolved calls named "target" may also call this');
    assert.equal(t.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(t.contextValue, 'graphmind.unresolved');
    const kids = childNodes(row);
    assert.deepEqual(labels(kids), ['x.py:10 | in x.run · obj.target()', 'y.py:3', '…and 1 more | The server lists the first ones only; "graphmind blast-radius --json" lists them all.']);
    const open = toTreeItem(kids[0], rel).command!;
    assert.equal(open.command, 'vscode.open');
    assert.equal(open.arguments![1].selection.start.line, 9);
  });

  it('unresolved calls named like callers in the radius: the row names them and says they may reach it', () => {
    const calls = [
      { uri: 'file:///ws/x.py', range: range(9, 4, 10), name: 'target', caller: 'x.run', text: 'obj.target()' },
      { uri: 'file:///ws/y.py', range: range(2, 0, 6), name: 'caller1', caller: null, text: null },
      { uri: 'file:///ws/z.py', range: range(2, 0, 6), name: 'caller1', caller: null, text: null },
    ];
    const roots = rootNodes(sampleResult({ complete: false, unresolvedSites: 3, unresolvedCalls: calls }), query);
    const row = roots.find((n) => n.type === 'unresolved')!;
    assert.equal(toTreeItem(row, rel).label, '3 unresolved calls named "target" or "caller1" may also reach this');
    assert.equal(quotedNames(['a', 'b', 'c', 'd']), '"a", "b", "c", …');
    assert.equal(quotedNames(['a', 'b', 'c']), '"a", "b" or "c"');
    assert.equal(quotedNames(['a']), '"a"');
  });

  it('an older server that sends only the count: the row shows it, without children', () => {
    const roots = rootNodes(sampleResult({ complete: false, unresolvedSites: 4 }), query);
    const row = roots.find((n) => n.type === 'unresolved')!;
    assert.equal(toTreeItem(row, rel).label, '4 unresolved calls named "target" may also call this');
    assert.equal(toTreeItem(row, rel).collapsibleState, vscode.TreeItemCollapsibleState.None);
  });

  it('still indexing: a warning row says the counts may be low', () => {
    assert.ok(labels(rootNodes(sampleResult({ indexing: true }), query)).includes('Still indexing: counts may be low'));
  });
});

describe('module-level callers and __main__ blocks', () => {
  const modules = () =>
    sampleResult({
      items: [
        item('caller1', 'b.py', 1, [3]),
        item('rich.align', 'rich/align.py', 1, [300], { kind: 2, qualifiedName: 'rich.align' }),
        item('rich.demo', 'rich/demo.py', 1, [40, 41], { kind: 2, qualifiedName: 'rich.demo', inMainGuard: true }),
        item('rich.box', 'rich/box.py', 1, [90], { kind: 2, qualifiedName: 'rich.box', inMainGuard: true }),
      ],
      total: 4,
    });

  it('group under "Module-level code" and "__main__ blocks", one row per file', () => {
    const roots = rootNodes(modules(), query);
    const depth = childNodes(roots[1]);
    assert.deepEqual(labels(depth), [
      'caller1 | b.py:4 · inferred · def caller1()',
      'Module-level code | 1 file',
      'if __name__ == "__main__" blocks | 2 files',
    ]);
    assert.equal(toTreeItem(depth[2], rel).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(labels(childNodes(depth[1])), ['rich/align.py | line 301 · inferred']);
    assert.deepEqual(labels(childNodes(depth[2])), ['rich/demo.py | line 41 (+1) · inferred', 'rich/box.py | line 91 · inferred']);
  });

  it('the filter hides __main__ blocks and the depth row says how many', () => {
    const roots = rootNodes(modules(), query, 0, { includePossible: false, hideMainBlocks: true });
    assert.equal(labels(roots)[1], 'Depth 1 | 2 direct callers (+2 in __main__ blocks, hidden)');
    assert.deepEqual(labels(childNodes(roots[1])), ['caller1 | b.py:4 · inferred · def caller1()', 'Module-level code | 1 file']);
  });

  it('the toggles are remembered per workspace and set their context keys', async () => {
    const state = memento();
    const { controller, provider } = setup(fakeClient(() => modules()).client, { state });
    await controller.run(editor());
    controller.setHideMainBlocks(true);
    assert.equal(state.values.get(HIDE_MAIN_CONTEXT), true);
    assert.deepEqual(vscode.recorded.commands.at(-1), { command: 'setContext', args: [HIDE_MAIN_CONTEXT, true] });
    assert.equal(provider.options.hideMainBlocks, true);
    const again = setup(undefined, { state });
    assert.equal(again.controller.mainBlocksHidden, true);
  });
});

describe('the "include possible callers" toggle', () => {
  beforeEach(() => vscode.reset());

  it('asks again with minConfidence "ambiguous", and back with the setting', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const state = memento();
    const { controller } = setup(client, { state });
    await controller.run(editor());
    await controller.setIncludePossible(true);
    assert.equal(requests[1].minConfidence, 'ambiguous');
    assert.equal(state.values.get(INCLUDE_POSSIBLE_CONTEXT), true);
    assert.ok(vscode.recorded.commands.some((c) => c.command === 'setContext' && c.args[0] === INCLUDE_POSSIBLE_CONTEXT && c.args[1] === true));
    await controller.runAt('file:///ws/a.py', { line: 0, character: 4 });
    assert.equal(requests[2].minConfidence, 'ambiguous', 'new queries use it too');
    await controller.setIncludePossible(false);
    assert.equal(requests[3].minConfidence, 'inferred');
  });

  it('without a result it only flips (no request)', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const { controller } = setup(client);
    await controller.setIncludePossible(true);
    assert.equal(requests.length, 0);
    assert.equal(controller.possibleIncluded, true);
  });
});

describe('the view follows edits', () => {
  beforeEach(() => vscode.reset());

  it('shiftPosition: lines inserted or removed above move it, edits after it do not', () => {
    const pos = { line: 5, character: 4 };
    assert.deepEqual(shiftPosition(pos, [{ range: range(1, 0, 0), text: 'a\nb\n' }]), { line: 7, character: 4 });
    assert.deepEqual(shiftPosition(pos, [{ range: { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } }, text: '' }]), {
      line: 3,
      character: 4,
    });
    assert.deepEqual(shiftPosition(pos, [{ range: range(5, 0, 0), text: '  ' }]), { line: 5, character: 6 });
    assert.deepEqual(shiftPosition(pos, [{ range: range(5, 8, 9), text: 'xyz' }]), pos);
    assert.deepEqual(shiftPosition(pos, [{ range: range(9, 0, 0), text: '\n\n' }]), pos);
    // a change covering it moves it to the change's start
    assert.deepEqual(shiftPosition(pos, [{ range: range(5, 2, 7), text: 'q' }]), { line: 5, character: 2 });
  });

  it('an edit asks again at the target (moved by the edit) and keeps the rows (same ids)', async () => {
    let shift = 0;
    const { client, requests } = fakeClient(() =>
      sampleResult({ items: [item('caller1', 'b.py', 1, [3 + shift])], total: 1 }),
    );
    const { controller, provider, treeView } = setup(client);
    await controller.run(editor());
    const before = childNodes(provider.getChildren()[1])[0];
    shift = 2;
    controller.documentChanged(change('file:///ws/a.py', 0, '\n\n'));
    assert.equal(treeView.message, undefined);
    await tick(20);
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[1].textDocument, { uri: 'file:///ws/a.py' });
    assert.deepEqual(requests[1].position, { line: 2, character: 4 }, 'the target moved down two lines');
    const after = childNodes(provider.getChildren()[1])[0];
    assert.equal(after.id, before.id, 'same row id: expansion and selection survive');
    assert.equal(toTreeItem(after, rel).command?.arguments?.[1].selection.start.line, 5, 'the row lands on the moved call');
    assert.equal(vscode.recorded.commands.filter((c) => c.command === 'graphmind.blastRadiusView.focus').length, 1, 'no focus stealing');
  });

  it('edits settle first (one request), other languages and non-files are ignored', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const { controller } = setup(client);
    await controller.run(editor());
    controller.documentChanged(change('output:extension-output', 0, 'log\n', 'log'));
    controller.documentChanged(change('file:///ws/notes.md', 0, 'x', 'markdown'));
    await tick(20);
    assert.equal(requests.length, 1);
    controller.documentChanged(change('file:///ws/b.py', 0, 'x'));
    controller.documentChanged(change('file:///ws/b.py', 0, 'y'));
    controller.documentChanged(change('file:///ws/c.py', 0, 'z'));
    await tick(20);
    assert.equal(requests.length, 2);
  });

  it('a hidden view is marked stale and asks again when it shows', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const { controller, treeView } = setup(client, { visible: false });
    await controller.run(editor());
    controller.documentChanged(change('file:///ws/b.py', 0, '\n'));
    await tick(20);
    assert.equal(requests.length, 1);
    assert.equal(treeView.message, STALE_MESSAGE);
    controller.visibilityChanged(true);
    await tick(20);
    assert.equal(requests.length, 2);
    assert.equal(treeView.message, undefined);
  });

  it('re-running scrolls to the target row', async () => {
    const { client } = fakeClient(() => sampleResult());
    const { controller, reveals } = setup(client);
    await controller.run(editor());
    assert.equal(reveals.length, 1);
    assert.equal(reveals[0].type, 'target');
  });
});

describe('the view and the server state', () => {
  beforeEach(() => vscode.reset());

  it('server down: the view says so; back up: it asks again', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const { controller, treeView } = setup(client);
    await controller.run(editor());
    controller.serverStatusChanged({ server: 'stopped', index: 'unknown' });
    assert.equal(treeView.message, SERVER_DOWN_MESSAGE);
    controller.documentChanged(change('file:///ws/b.py', 0, '\n'));
    await tick(20);
    assert.equal(requests.length, 1, 'no request to a stopped server');
    controller.serverStatusChanged({ server: 'running', index: 'ready' });
    await tick(20);
    assert.equal(requests.length, 2);
    assert.equal(treeView.message, undefined);
  });

  it('cleared while the restarted server is still starting: the old rows do not come back', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    let ready: (c: ManagedClient) => void = () => {};
    let starting: Promise<ManagedClient> | undefined;
    const { controller, provider } = setup(client, { clientFn: async () => starting ?? client });
    await controller.run(editor());
    assert.ok(provider.result);
    controller.serverStatusChanged({ server: 'stopped', index: 'unknown' });
    starting = new Promise((r) => (ready = r)); // the next client() waits for the new server
    controller.serverStatusChanged({ server: 'running', index: 'ready' });
    await tick(20); // the view asks again: it waits for the client
    controller.clear();
    ready(client);
    await tick(20);
    assert.equal(provider.result, null, 'Clear holds');
    assert.deepEqual(provider.getChildren(), []);
    assert.equal(requests.length, 1, 'nothing asked for a cleared view');
  });

  it('computed while indexing: says so, and asks again when the index is ready', async () => {
    const { client, requests } = fakeClient(() => sampleResult());
    const { controller, provider } = setup(client);
    controller.serverStatusChanged({ server: 'running', index: 'indexing' });
    await controller.run(editor());
    assert.equal(provider.result?.indexing, true, 'an older server: the status says it is indexing');
    assert.ok(labels(provider.getChildren()).includes('Still indexing: counts may be low'));
    controller.serverStatusChanged({ server: 'running', index: 'ready' });
    await tick(20);
    assert.equal(requests.length, 2);
    assert.ok(!labels(provider.getChildren()).includes('Still indexing: counts may be low'));
  });
});

describe('doc notes (issue 12) at the top of the view', () => {
  const notes = [
    {
      path: 'docs/adr/0001-idempotent.md',
      uri: 'file:///ws/docs/adr/0001-idempotent.md',
      title: 'ADR 1: Charges must be idempotent',
      line: 5,
      symbols: ['a.target', 'b.caller1', 'c.caller2', 'd.more'],
    },
    { path: 'README.md', title: 'Shop', line: 12, symbols: ['a.target'] },
  ];

  it('a Notes group right after the target, one row per note that opens it at its mention', () => {
    const roots = rootNodes(sampleResult({ notes }), query);
    assert.deepEqual(labels(roots).slice(0, 2), [
      'target | 3 callers within 3 hops · a.py:1',
      'Notes | 2 documents name this code',
    ]);
    const rows = childNodes(roots[1]);
    assert.deepEqual(labels(rows), [
      'ADR 1: Charges must be idempotent | docs/adr/0001-idempotent.md:5 · target, caller1, caller2, …',
      'Shop | README.md:12 · target',
    ]);
    const open = toTreeItem(rows[0], rel).command!;
    assert.equal(open.command, 'vscode.open');
    assert.equal(open.arguments![0].toString(), 'file:///ws/docs/adr/0001-idempotent.md');
    assert.equal(open.arguments![1].selection.start.line, 4);
    assert.equal(toTreeItem(rows[1], rel).command, undefined, 'no uri (not an LSP answer): nowhere to open');
    assert.match(String(toTreeItem(rows[0], rel).tooltip), /• d\.more/);
    assert.equal(toTreeItem(rows[0], rel).accessibilityInformation?.label, 'Note ADR 1: Charges must be idempotent, docs/adr/0001-idempotent.md:5');
  });

  it('no notes (or an older server): no group', () => {
    assert.ok(!labels(rootNodes(sampleResult({ notes: [] }), query)).some((l) => l.startsWith('Notes')));
    assert.ok(!labels(rootNodes(sampleResult(), query)).some((l) => l.startsWith('Notes')));
  });
});
