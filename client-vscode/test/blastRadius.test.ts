import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { BlastRadiusController, HAS_RESULT_CONTEXT, lensArguments, VIEW_ID } from '../src/blastRadius';
import { BlastRadiusTreeProvider } from '../src/blastTree';
import { normalizeBlastRadiusSettings } from '../src/protocol';
import type { ManagedClient } from '../src/server';
import * as vscode from './vscode-stub';
import { sampleResult } from './fixtures';

const rel = (uri: string) => uri.replace('file:///ws/', '');
const lines = ['from a import target', '', 'def caller1():', '    target()'];
const editor = () => vscode.fakeEditor('file:///ws/b.py', 'python', lines, 3, 6);

function fakeClient(answer: (method: string, params: any) => Promise<unknown>) {
  const requests: { method: string; params: any }[] = [];
  const client: ManagedClient = {
    start: async () => {},
    stop: async () => {},
    isRunning: () => true,
    sendRequest: <R>(method: string, params: unknown) => {
      requests.push({ method, params });
      return answer(method, params) as Promise<R>;
    },
  };
  return { client, requests };
}

function setup(client: ManagedClient | undefined, settings = { depth: 3, minConfidence: 'inferred' as const }) {
  const provider = new BlastRadiusTreeProvider(rel);
  const treeView = { description: undefined as string | undefined, message: undefined as string | undefined };
  const calls = { restart: 0, showLog: 0 };
  const controller = new BlastRadiusController({
    provider,
    treeView,
    client: async () => client,
    settings: () => settings,
    restart: () => calls.restart++,
    showLog: () => calls.showLog++,
  });
  return { provider, treeView, controller, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GraphMind: Blast radius of symbol', () => {
  beforeEach(() => vscode.reset());

  it('sends graphmind/blastRadius for the cursor with the settings and fills the view', async () => {
    const { client, requests } = fakeClient(async () => sampleResult());
    const { controller, provider, treeView } = setup(client, { depth: 5, minConfidence: 'extracted' as any });
    const res = await controller.run(editor());
    assert.equal(res?.total, 3);
    assert.deepEqual(requests, [
      {
        method: 'graphmind/blastRadius',
        params: {
          textDocument: { uri: 'file:///ws/b.py' },
          position: { line: 3, character: 6 },
          maxDepth: 5,
          direction: 'incoming',
          minConfidence: 'extracted',
        },
      },
    ]);
    assert.equal(provider.getChildren().length, 3);
    assert.equal(treeView.description, 'target · 3 callers within 5 hops');
    const cmds = vscode.recorded.commands.map((c) => c.command);
    assert.ok(cmds.includes(`${VIEW_ID}.focus`));
    assert.deepEqual(
      vscode.recorded.commands.find((c) => c.command === 'setContext' && c.args[0] === HAS_RESULT_CONTEXT)?.args,
      [HAS_RESULT_CONTEXT, true],
    );
    assert.deepEqual(vscode.recorded.progress[0].location, { viewId: VIEW_ID });
    assert.deepEqual(vscode.recorded.messages, []);
  });

  it('null result: the view says no symbol is at the cursor', async () => {
    const { client } = fakeClient(async () => null);
    const { controller, provider } = setup(client);
    assert.equal(await controller.run(vscode.fakeEditor('file:///ws/b.py', 'python', lines, 1, 0)), null);
    const roots = provider.getChildren();
    assert.equal(roots.length, 1);
    assert.equal(provider.getTreeItem(roots[0]).label, 'No symbol found at the cursor.');
  });

  it('InvalidParams from the server: error notification with its message, view unchanged', async () => {
    const { client } = fakeClient(async () => {
      throw Object.assign(new Error('unknown symbol: nope'), { code: -32602 });
    });
    const { controller, provider } = setup(client);
    assert.equal(await controller.run(editor()), undefined);
    assert.deepEqual(vscode.recorded.messages, [
      { level: 'error', text: 'GraphMind: blast radius failed: unknown symbol: nope', actions: [] },
    ]);
    assert.equal(provider.hasContent, false);
  });

  it('a cancelled request is silent', async () => {
    const { client } = fakeClient(async () => {
      throw Object.assign(new Error('Request cancelled'), { code: -32800 });
    });
    const { controller } = setup(client);
    await controller.run(editor());
    assert.deepEqual(vscode.recorded.messages, []);
  });

  it('server not running: error with Restart Server / Show Log that work', async () => {
    const { controller, calls } = setup(undefined);
    vscode.answers.push('Restart Server');
    assert.equal(await controller.run(editor()), undefined);
    await tick();
    assert.equal(vscode.recorded.messages[0].level, 'error');
    assert.match(vscode.recorded.messages[0].text, /server is not running/);
    assert.deepEqual(vscode.recorded.messages[0].actions, ['Restart Server', 'Show Log']);
    assert.equal(calls.restart, 1);
    vscode.answers.push('Show Log');
    await controller.run(editor());
    await tick();
    assert.equal(calls.showLog, 1);
  });

  it('no editor, or a language GraphMind does not index: a warning, no request', async () => {
    const { client, requests } = fakeClient(async () => sampleResult());
    const { controller } = setup(client);
    await controller.run(undefined);
    await controller.run(vscode.fakeEditor('file:///ws/x.md', 'markdown', ['# hi'], 0, 0));
    assert.equal(requests.length, 0);
    assert.deepEqual(
      vscode.recorded.messages.map((m) => m.level),
      ['warning', 'warning'],
    );
    assert.match(vscode.recorded.messages[1].text, /doesn't index "markdown"/);
  });

  it('refresh re-runs the last query with the current settings, at the target it found', async () => {
    const { client, requests } = fakeClient(async () => sampleResult());
    const settings = { depth: 3, minConfidence: 'inferred' as const };
    const { controller } = setup(client, settings);
    await controller.run(editor());
    settings.depth = 1;
    await controller.refresh();
    assert.equal(requests.length, 2);
    assert.equal(requests[1].params.maxDepth, 1);
    // The single target anchors the query: asking at its name finds it wherever the cursor was.
    assert.deepEqual(requests[1].params.textDocument, { uri: 'file:///ws/a.py' });
    assert.deepEqual(requests[1].params.position, { line: 0, character: 4 });
  });

  it('peek shows all call sites in the references peek at the target', async () => {
    const { client } = fakeClient(async () => sampleResult());
    const { controller } = setup(client);
    await controller.run(editor());
    vscode.recorded.commands.length = 0;
    assert.equal(await controller.peek(), true);
    assert.equal(vscode.recorded.shownDocuments[0].uri, 'file:///ws/a.py');
    const peek = vscode.recorded.commands.find((c) => c.command === 'editor.action.peekLocations')!;
    const [uri, pos, locations, mode] = peek.args;
    assert.equal(uri.toString(), 'file:///ws/a.py');
    assert.deepEqual(pos, new vscode.Position(0, 4));
    assert.equal(mode, 'peek');
    assert.deepEqual(
      locations.map((l: vscode.Location) => `${rel(l.uri.toString())}:${l.range.start.line + 1}`),
      ['b.py:4', 'b.py:8', 'b.py:10', 'c.py:5'],
    );
  });

  it('peek without a result, or without callers, explains instead', async () => {
    const { client } = fakeClient(async () => sampleResult({ items: [], total: 0 }));
    const { controller } = setup(client);
    assert.equal(await controller.peek(), false);
    await controller.run(editor());
    assert.equal(await controller.peek(), false);
    assert.deepEqual(
      vscode.recorded.messages.map((m) => m.text),
      ['GraphMind: run "Blast radius of symbol" first.', 'GraphMind: target has no callers to show.'],
    );
  });

  it('clear empties the view and the context key', async () => {
    const { client } = fakeClient(async () => sampleResult());
    const { controller, provider, treeView } = setup(client);
    await controller.run(editor());
    controller.clear();
    assert.equal(provider.hasContent, false);
    assert.equal(treeView.description, undefined);
    assert.deepEqual(vscode.recorded.commands.at(-1), { command: 'setContext', args: [HAS_RESULT_CONTEXT, false] });
  });

  it('settings are normalised', () => {
    assert.deepEqual(normalizeBlastRadiusSettings(undefined, undefined), { depth: 3, minConfidence: 'inferred' });
    assert.deepEqual(normalizeBlastRadiusSettings(0, 'bogus'), { depth: 1, minConfidence: 'inferred' });
    assert.deepEqual(normalizeBlastRadiusSettings(4.7, 'ambiguous'), { depth: 4, minConfidence: 'ambiguous' });
  });
});

describe('code lens arguments', () => {
  beforeEach(() => vscode.reset());

  it('recognises [uri, position] from the server\'s "N callers" lens, nothing else', async () => {
    assert.deepEqual(lensArguments(['file:///ws/a.py', { line: 0, character: 4 }]), {
      uri: 'file:///ws/a.py',
      position: { line: 0, character: 4 },
    });
    assert.equal(lensArguments([]), undefined);
    assert.equal(lensArguments([vscode.Uri.parse('file:///ws/a.py')]), undefined);
    assert.equal(lensArguments(['file:///ws/a.py', { line: '0' }]), undefined);
  });

  it('runAt queries the lens position', async () => {
    const { client, requests } = fakeClient(async () => sampleResult());
    const { controller, provider } = setup(client);
    await controller.runAt('file:///ws/a.py', { line: 0, character: 4 });
    assert.deepEqual(requests[0].params.textDocument, { uri: 'file:///ws/a.py' });
    assert.deepEqual(requests[0].params.position, { line: 0, character: 4 });
    assert.equal(provider.getChildren().length, 3);
  });
});
