import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { BlastRadiusController, HAS_RESULT_CONTEXT, STALE_MESSAGE, VIEW_ID } from '../src/blastRadius';
import { BlastRadiusTreeProvider, childNodes, toTreeItem, type BlastNode } from '../src/blastTree';
import { affectedLocation, changesRootNodes, uriOf } from '../src/changesTree';
import type { ChangesResult } from '../src/protocol';
import type { ManagedClient } from '../src/server';
import * as vscode from './vscode-stub';
import { sampleResult } from './fixtures';

const rel = (uri: string) => uri.replace('file:///ws/', '');

/** What `graphmind/changes` answers for a.py's target() edited in the e2e fixture (s11-agents). */
function changesResult(over: Partial<ChangesResult> = {}): ChangesResult {
  const chain = ['a.target', 'b.caller1', 'c.caller2', 'tests.test_c.test_caller2'];
  return {
    base: { ref: 'HEAD', commit: 'b2affa2df5ee339eb78cca0d54bfbe0181760be4', how: 'HEAD (no upstream or main branch to compare with)' },
    staged: false,
    depth: 3,
    files: ['a.py'],
    buffers: ['a.py'],
    root: '/ws',
    rootUri: 'file:///ws',
    changed: [
      { qualifiedName: 'a.target', kind: 'function', path: 'a.py', uri: 'file:///ws/a.py', startLine: 1, endLine: 2, change: 'modified', signature: 'def target()' },
    ],
    tests: [
      { qualifiedName: 'tests.test_c.test_caller2', path: 'tests/test_c.py', uri: 'file:///ws/tests/test_c.py', startLine: 4, kind: 'pytest', depth: 3, chain },
    ],
    affected: [
      {
        qualifiedName: 'b.caller1', name: 'caller1', kind: 'function', path: 'b.py', uri: 'file:///ws/b.py', startLine: 4, endLine: 5,
        signature: 'def caller1()', container: 'b', depth: 1, confidence: 'extracted', chain: chain.slice(0, 2),
        callSites: [{ path: 'b.py', line: 5, column: 12, kind: 'call' }],
      },
      {
        qualifiedName: 'c.caller2', name: 'caller2', kind: 'function', path: 'c.py', uri: 'file:///ws/c.py', startLine: 4, endLine: 5,
        signature: 'def caller2()', container: 'c', depth: 2, confidence: 'ambiguous', chain: chain.slice(0, 3),
        callSites: [{ path: 'c.py', line: 5, column: 12, kind: 'call' }],
      },
      {
        qualifiedName: 'tests.test_c.test_caller2', name: 'test_caller2', kind: 'function', path: 'tests/test_c.py', startLine: 4,
        depth: 3, confidence: 'extracted', chain, callSites: [{ path: 'tests/test_c.py', line: 5, column: 12, kind: 'call' }],
      },
    ],
    complete: true,
    unresolvedSites: 0,
    weakEdges: 0,
    total: 5,
    shown: 5,
    truncated: false,
    ...over,
  };
}

/** Every row, depth first, as "label | description" with its indentation. */
function flatten(nodes: BlastNode[], indent = ''): string[] {
  return nodes.flatMap((n) => {
    const t = toTreeItem(n, rel);
    const line = `${indent}${t.label}${t.description ? ` | ${t.description}` : ''}`;
    return [line, ...flatten(childNodes(n), indent + '  ')];
  });
}

describe('Impact of my changes: the rows', () => {
  it('changed definitions, then their callers by depth, then the tests in the radius', () => {
    assert.deepEqual(flatten(changesRootNodes(changesResult())), [
      'Changes against HEAD | b2affa2 · 1 file changed (unsaved text included)',
      'Changed | 1 definition',
      '  target | modified · a.py:1',
      'Affected callers | 2 callers',
      '  Depth 1 | 1 direct caller',
      '    caller1 | b.py:5 · b · extracted',
      '  Depth 2 | 1 caller',
      '    caller2 | c.py:5 · c · possible',
      'Tests | 1 test',
      '  test_caller2 | pytest · tests/test_c.py:4 · depth 3',
    ]);
  });

  it('a definition changed in an unsaved buffer only counts as a changed file', () => {
    const [base] = changesRootNodes(changesResult({ files: [] }));
    assert.equal(toTreeItem(base, rel).description, 'b2affa2 · 1 file changed (unsaved text included)');
  });

  it('rows open what they name: a call site at its line and column, a definition, a test', () => {
    const roots = changesRootNodes(changesResult());
    const [changed, affected, tests] = roots.slice(1).map((n) => childNodes(n));
    const open = (n: BlastNode) => toTreeItem(n, rel).command!;
    assert.equal(open(changed[0]).command, 'vscode.open');
    assert.equal(open(changed[0]).arguments![1].selection.start.line, 0);
    const caller1 = childNodes(affected[0])[0];
    assert.equal(open(caller1).arguments![0].toString(), 'file:///ws/b.py');
    assert.deepEqual({ ...open(caller1).arguments![1].selection.start }, { line: 4, character: 11 });
    assert.equal(open(tests[0]).arguments![1].selection.start.line, 3);
    assert.equal(toTreeItem(tests[0], rel).accessibilityInformation?.label, 'Test test_caller2, pytest, tests/test_c.py:4, depth 3');
    assert.equal(toTreeItem(caller1, rel).accessibilityInformation?.label, 'caller1, depth 1, b.py:5, extracted');
  });

  it('call sites carry a path only: the URI is made under the root', () => {
    assert.equal(uriOf('src/my file.py', 'file:///ws/'), 'file:///ws/src/my%20file.py');
    assert.equal(uriOf('a.py', 'file:///ws', 'file:///elsewhere/a.py'), 'file:///elsewhere/a.py');
    const noSites = { ...changesResult().affected[0], callSites: [] };
    assert.deepEqual(affectedLocation(noSites, 'file:///ws').range.start, { line: 3, character: 0 });
  });

  it('removed code, incomplete and truncated answers say so', () => {
    const removed = changesResult({
      changed: [{ qualifiedName: 'a.gone', kind: 'function', path: 'a.py', startLine: 7, change: 'removed' }],
      affected: [{ ...changesResult().affected[0], confidence: 'unresolved' }],
      tests: [],
      complete: false,
      unresolvedSites: 2,
      weakEdges: 1,
      truncated: true,
      shown: 3,
      total: 9,
    });
    const rows = flatten(changesRootNodes(removed));
    assert.ok(rows.includes('Truncated: showing 3 of 9 entries'));
    assert.ok(rows.includes('May be incomplete: 2 unresolved calls and 1 weaker edge could add callers'));
    assert.ok(rows.includes('  gone | removed · a.py:7'));
    assert.ok(rows.includes('    caller1 | b.py:5 · b · calls removed code'));
    assert.ok(rows.includes('Tests | 0 tests'));
    const gone = childNodes(changesRootNodes(removed)[3])[0];
    assert.equal(toTreeItem(gone, rel).command, undefined, 'a removed definition has nowhere to go');
  });

  it('nothing changed: one message', () => {
    const rows = flatten(changesRootNodes(changesResult({ changed: [], affected: [], tests: [], files: [] })));
    assert.deepEqual(rows.slice(1), ['No changed definitions against HEAD | Nothing changed.']);
  });
});

function fakeClient(answer: (method: string, params: any) => unknown) {
  const requests: { method: string; params: any }[] = [];
  const client: ManagedClient = {
    start: async () => {},
    stop: async () => {},
    isRunning: () => true,
    sendRequest: async <R>(method: string, params: unknown) => {
      requests.push({ method, params });
      return (await answer(method, params)) as R;
    },
  };
  return { client, requests };
}

function setup(client: ManagedClient | undefined) {
  const provider = new BlastRadiusTreeProvider(rel);
  const treeView = { description: undefined as string | undefined, message: undefined as string | undefined, visible: true };
  const calls = { restart: 0, showLog: 0 };
  const controller = new BlastRadiusController({
    provider,
    treeView,
    client: async () => client,
    settings: () => ({ depth: 2, minConfidence: 'inferred' }),
    restart: () => calls.restart++,
    showLog: () => calls.showLog++,
    liveDelayMs: 1,
  });
  return { provider, treeView, controller, calls };
}

const editor = () => vscode.fakeEditor('file:///ws/b.py', 'python', ['def caller1():', '    target()'], 1, 4);
const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

describe('GraphMind: Impact of my changes', () => {
  beforeEach(() => vscode.reset());

  it('asks graphmind/changes for the active editor\'s folder with the view\'s depth and confidence, and fills the view', async () => {
    const { client, requests } = fakeClient(async () => changesResult());
    const { controller, provider, treeView } = setup(client);
    const res = await controller.runChanges(undefined, editor());
    assert.equal(res?.changed.length, 1);
    assert.deepEqual(requests, [
      { method: 'graphmind/changes', params: { textDocument: { uri: 'file:///ws/b.py' }, depth: 2, minConfidence: 'inferred' } },
    ]);
    assert.equal(provider.changes?.result, res);
    assert.equal(provider.result, null);
    assert.equal(treeView.description, 'Impact of changes · 1 changed, 2 callers, 1 test');
    assert.equal(provider.getTreeItem(provider.getChildren()[0]).label, 'Changes against HEAD');
    const cmds = vscode.recorded.commands.map((c) => c.command);
    assert.ok(cmds.includes(`${VIEW_ID}.focus`));
    assert.ok(vscode.recorded.commands.some((c) => c.command === 'setContext' && c.args[0] === HAS_RESULT_CONTEXT && c.args[1] === true));
    assert.deepEqual(vscode.recorded.messages, []);
  });

  it('no editor: the server picks the first folder; the possible-callers toggle asks for ambiguous edges', async () => {
    const { client, requests } = fakeClient(async () => changesResult());
    const { controller } = setup(client);
    await controller.runChanges(undefined, undefined);
    await controller.setIncludePossible(true);
    assert.deepEqual(
      requests.map((r) => r.params),
      [
        { depth: 2, minConfidence: 'inferred' },
        { depth: 2, minConfidence: 'ambiguous' },
      ],
    );
  });

  it('not a git repository (InvalidParams): an error naming it, the view unchanged', async () => {
    const { client } = fakeClient(async () => {
      throw Object.assign(new Error('graphmind/changes: /ws is not in a git repository'), { code: -32602 });
    });
    const { controller, provider } = setup(client);
    assert.equal(await controller.runChanges(undefined, editor()), undefined);
    assert.deepEqual(vscode.recorded.messages, [
      { level: 'error', text: 'GraphMind: impact of changes failed: graphmind/changes: /ws is not in a git repository', actions: [] },
    ]);
    assert.equal(provider.hasContent, false);
  });

  it('server not running: the same error as the blast radius, with Restart Server', async () => {
    const { controller, calls } = setup(undefined);
    vscode.answers.push('Restart Server');
    await controller.runChanges(undefined, editor());
    await tick();
    assert.match(vscode.recorded.messages[0].text, /server is not running, so the impact of your changes can't be computed/);
    assert.equal(calls.restart, 1);
  });

  it('edits ask again (unsaved text counts); rows keep their ids; Refresh asks again too', async () => {
    let n = 0;
    const { client, requests } = fakeClient(async () => changesResult({ files: n++ ? ['a.py', 'b.py'] : ['a.py'], buffers: [] }));
    const { controller, provider, treeView } = setup(client);
    await controller.runChanges(undefined, editor());
    const before = provider.getChildren().map((r) => r.id);
    controller.documentChanged({
      document: { uri: { scheme: 'file', toString: () => 'file:///ws/b.py' }, languageId: 'python' },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n' }],
    });
    await tick(30);
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[1].params, requests[0].params);
    assert.deepEqual(provider.getChildren().map((r) => r.id), before);
    assert.match(String(provider.getTreeItem(provider.getChildren()[0]).description), /2 files changed/);
    assert.equal(treeView.message, undefined);
    await controller.refresh();
    assert.equal(requests.length, 3);
    assert.equal(requests[2].method, 'graphmind/changes');
  });

  it('a hidden view is marked out of date and asks when it shows', async () => {
    const { client, requests } = fakeClient(async () => changesResult());
    const { controller, treeView } = setup(client);
    await controller.runChanges(undefined, editor());
    treeView.visible = false;
    controller.documentChanged({
      document: { uri: { scheme: 'file', toString: () => 'file:///ws/a.py' }, languageId: 'python' },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }],
    });
    assert.equal(treeView.message, STALE_MESSAGE);
    controller.visibilityChanged(true);
    await tick(30);
    assert.equal(requests.length, 2);
    assert.equal(treeView.message, undefined);
  });

  it('a blast radius afterwards replaces the changes', async () => {
    const { client } = fakeClient(async (method) => (method === 'graphmind/changes' ? changesResult() : sampleResult()));
    const { controller, provider } = setup(client);
    await controller.runChanges(undefined, editor());
    await controller.run(editor());
    assert.equal(provider.changes, undefined);
    assert.equal(provider.getTreeItem(provider.getChildren()[0]).label, 'target');
  });
});
