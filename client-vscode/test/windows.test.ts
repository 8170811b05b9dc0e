import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { RecordingOutputChannel } from '../src/outputChannel';
import { ServerManager, startFingerprint, type ManagedClient, type ServerEnvironment, type ServerState } from '../src/server';
import { effectiveSetting, resolveServerCommand } from '../src/serverCommand';
import { indexStateOf, statusBarContent, StatusTracker, storeSummaryOf } from '../src/status';
import * as vscode from './vscode-stub';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

function environment(over: Partial<ServerEnvironment['settings']> = {}, executables = ['/usr/bin/graphmind', '/opt/gm/bin/graphmind']) {
  const current = { settings: { command: 'graphmind serve', interpreter: '', ...over } };
  const env = (): ServerEnvironment => ({
    settings: current.settings,
    ctx: {
      workspaceFolder: '/ws',
      trusted: true,
      env: { PATH: '/usr/bin' },
      platform: 'linux',
      homedir: '/home/u',
      isExecutable: (f) => executables.includes(f),
    },
  });
  return { current, env };
}

function fakeFactory() {
  const started: string[] = [];
  let stops = 0;
  const hooks: { onRunningChanged?: (r: boolean) => void }[] = [];
  const factory = (resolved: { display: string }, _cwd: string | undefined, h: { onRunningChanged?: (r: boolean) => void }) => {
    let running = false;
    hooks.push(h);
    const client: ManagedClient = {
      start: async () => {
        started.push(resolved.display);
        running = true;
      },
      stop: async () => {
        stops++;
        running = false;
      },
      isRunning: () => running,
      sendRequest: async () => undefined as never,
    };
    return client;
  };
  return { factory, started, hooks, stops: () => stops };
}

function output() {
  const inner = new vscode.OutputChannelStub('GraphMind');
  return { inner, out: new RecordingOutputChannel(inner as never) };
}

describe('one extension, several windows', () => {
  beforeEach(() => vscode.reset());

  it('a settings event that changes nothing (another window opened) does not restart', async () => {
    const { env } = environment();
    const f = fakeFactory();
    const { out, inner } = output();
    const m = new ServerManager(f.factory as never, out, env);
    await m.start();
    assert.equal(await m.reconcile('Server settings changed'), false);
    assert.deepEqual(f.started, ['/usr/bin/graphmind serve']);
    assert.equal(f.stops(), 0);
    assert.match(inner.text, /Server settings changed, but the server command is unchanged: not restarting\./);
  });

  it('a real change of the resolved command restarts with the new one', async () => {
    const { env, current } = environment();
    const f = fakeFactory();
    const m = new ServerManager(f.factory as never, output().out, env);
    await m.start();
    current.settings = { ...current.settings, command: '/opt/gm/bin/graphmind serve' };
    assert.equal(await m.reconcile('Server settings changed'), true);
    assert.deepEqual(f.started, ['/usr/bin/graphmind serve', '/opt/gm/bin/graphmind serve']);
    // spelled differently, resolving the same: no restart
    current.settings = { ...current.settings, command: '/opt/gm/bin/graphmind  "serve"' };
    assert.equal(await m.reconcile('Server settings changed'), false);
  });

  it('a failing setting that stays the same is not retried (no repeated error)', async () => {
    const { env } = environment({}, []);
    const m = new ServerManager(fakeFactory().factory as never, output().out, env);
    assert.equal(await m.start(), false);
    assert.equal(vscode.recorded.messages.length, 1);
    assert.equal(await m.reconcile('Server settings changed'), false);
    assert.equal(vscode.recorded.messages.length, 1);
    assert.equal(m.state, 'failed');
  });

  it('startFingerprint: same command and folder -> same; an error is its own fingerprint', () => {
    const a = environment().env();
    const b = environment({ command: '  graphmind   serve ' }).env();
    assert.equal(startFingerprint(a), startFingerprint(b));
    assert.notEqual(startFingerprint(a), startFingerprint(environment({ command: 'graphmind serve --x' }).env()));
    assert.match(startFingerprint(environment({}, []).env()), /^\["error"/);
  });

  it('the state follows start, crash, automatic restart and stop', async () => {
    const { env } = environment();
    const f = fakeFactory();
    const m = new ServerManager(f.factory as never, output().out, env);
    const states: ServerState[] = [];
    m.onDidChangeState((s) => states.push(s));
    await m.start();
    assert.ok(m.running);
    f.hooks[0].onRunningChanged?.(false); // crashed
    assert.equal(m.running, undefined);
    f.hooks[0].onRunningChanged?.(true); // restarted by the client
    await m.stop();
    assert.deepEqual(states, ['starting', 'running', 'stopped', 'running', 'stopped']);
  });

  it('every start error names the command and the setting it came from', () => {
    const ctx = environment({}, []).env().ctx;
    assert.throws(
      () => resolveServerCommand({ command: 'graphmind serve', interpreter: '', commandSource: 'User settings' }, ctx),
      /Could not find "graphmind" in this workspace's \.venv or on PATH \(tried graphmind\.server\.command = "graphmind serve" \(User settings\)\)\./,
    );
    assert.throws(
      () => resolveServerCommand({ command: '', interpreter: '/nope/python', interpreterSource: 'Workspace settings' }, ctx),
      /"\/nope\/python" \(from graphmind\.interpreter\) does not exist or is not executable \(tried graphmind\.interpreter = "\/nope\/python" \(Workspace settings\)\)\./,
    );
  });

  it('effectiveSetting: Folder, Workspace, User, default; untrusted skips the workspace', () => {
    const all = { defaultValue: 'graphmind serve', globalValue: '/u/gm serve', workspaceValue: '/w/gm serve', workspaceFolderValue: '/f/gm serve' };
    assert.deepEqual(effectiveSetting(all, true, 'x'), { value: '/f/gm serve', source: 'Folder settings' });
    assert.deepEqual(effectiveSetting({ ...all, workspaceFolderValue: undefined }, true, 'x'), { value: '/w/gm serve', source: 'Workspace settings' });
    assert.deepEqual(effectiveSetting(all, false, 'x'), { value: '/u/gm serve', source: 'User settings' });
    assert.deepEqual(effectiveSetting({ defaultValue: 'graphmind serve' }, true, 'x'), { value: 'graphmind serve', source: 'default' });
    assert.deepEqual(effectiveSetting(undefined, true, 'x'), { value: 'x', source: 'default' });
    // a single-folder workspace: the same value in both scopes is the workspace's
    assert.deepEqual(effectiveSetting({ workspaceValue: 'a', workspaceFolderValue: 'a' }, true, 'x'), { value: 'a', source: 'Workspace settings' });
  });
});

describe('status: indexing / ready / stopped', () => {
  beforeEach(() => vscode.reset());

  function source(client: ManagedClient | undefined) {
    const emitter = new vscode.EventEmitter<ServerState>();
    const s = {
      state: (client ? 'running' : 'stopped') as ServerState,
      running: client,
      onDidChangeState: emitter.event,
      set(state: ServerState, c?: ManagedClient) {
        s.state = state;
        s.running = c;
        emitter.fire(state);
      },
    };
    return s;
  }

  it('polls graphmind/status while indexing, then reports ready', async () => {
    const answers = [
      { ready: false, indexing: true, indexed: 10, totalFiles: 100 },
      { ready: true, indexing: false },
    ];
    const asked: string[] = [];
    const client: ManagedClient = {
      start: async () => {},
      stop: async () => {},
      isRunning: () => true,
      sendRequest: async <R>(method: string) => {
        asked.push(method);
        return (answers.shift() ?? { ready: true, indexing: false }) as R;
      },
    };
    const t = new StatusTracker(source(client) as never, 1);
    const seen: string[] = [];
    t.onDidChange((s) => seen.push(`${s.server}/${s.index}`));
    await tick(30);
    assert.equal(t.current.index, 'ready');
    assert.ok(asked.every((m) => m === 'graphmind/status'));
    assert.equal(asked.length, 2, 'stops polling once ready');
    t.dispose();
  });

  it('the statusChanged notification is followed, and a stopped server resets the index state', async () => {
    let handler: ((p: unknown) => void) | undefined;
    const client: ManagedClient = {
      start: async () => {},
      stop: async () => {},
      isRunning: () => true,
      sendRequest: async <R>() => ({ ready: false, indexing: true }) as R,
      onNotification: (method, h) => {
        assert.equal(method, 'graphmind/statusChanged');
        handler = h;
        return { dispose: () => (handler = undefined) };
      },
    };
    const src = source(client);
    const t = new StatusTracker(src as never, 10_000);
    await tick();
    assert.equal(t.current.index, 'indexing');
    handler!({ ready: true, indexing: false });
    assert.equal(t.current.index, 'ready');
    src.set('stopped');
    assert.deepEqual(t.current, { server: 'stopped', index: 'unknown' });
    assert.equal(handler, undefined, 'unsubscribed from the old client');
    t.dispose();
  });

  it('indexStateOf and the status bar texts', () => {
    assert.equal(indexStateOf(null), 'unknown');
    assert.equal(indexStateOf({ ready: false, indexing: false }), 'indexing');
    assert.equal(indexStateOf({ ready: true, indexing: true }), 'indexing');
    assert.equal(indexStateOf({ ready: true, indexing: false }), 'ready');
    assert.equal(statusBarContent({ server: 'running', index: 'indexing', indexed: 3, totalFiles: 9 }).text, '$(sync~spin) GraphMind: indexing 3/9');
    assert.equal(statusBarContent({ server: 'running', index: 'ready' }).text, '$(check) GraphMind');
    const stopped = statusBarContent({ server: 'stopped', index: 'unknown' }, '/usr/bin/graphmind serve');
    assert.equal(stopped.text, '$(circle-slash) GraphMind: stopped');
    assert.equal(stopped.command, 'graphmind.restartServer');
    assert.match(stopped.tooltip, /Server: \/usr\/bin\/graphmind serve/);
    assert.equal(statusBarContent({ server: 'failed', index: 'unknown' }).command, 'graphmind.restartServer');
  });

  it('a folder on a shared store: the snapshot and its freshness, or the local index and why', async () => {
    const snapshot = {
      answeredFrom: 'snapshot', commit: '9faf80d39082aa', commitsBehind: 2,
      summary: 'snapshot 3 of 9faf80d39082 (2 commits behind HEAD, made 2026-12-06 12:20) + overlay of 4 local files from postgresql://editor@db/graph',
    } as const;
    const down = { answeredFrom: 'local', reason: 'unavailable: connection failed', summary: 'local index: unavailable: connection failed' } as const;
    assert.equal(storeSummaryOf({ ready: true, indexing: false }), undefined);
    const on = storeSummaryOf({ ready: true, indexing: false, folders: { '/w': {}, '/v': { store: snapshot } } })!;
    assert.deepEqual(on, { text: 'snapshot 9faf80d, 2 behind', detail: snapshot.summary, local: false });
    const bar = statusBarContent({ server: 'running', index: 'ready', store: on });
    assert.equal(bar.text, '$(check) GraphMind: snapshot 9faf80d, 2 behind');
    assert.match(bar.tooltip, /overlay of 4 local files/);
    const local = statusBarContent({ server: 'running', index: 'ready', store: storeSummaryOf({ ready: true, indexing: false, folders: { '/w': { store: down } } }) });
    assert.equal(local.text, '$(warning) GraphMind: local index');
    assert.match(local.tooltip, /local index: unavailable: connection failed/);

    // the tracker keeps following a store once ready (its snapshot moves with HEAD)
    const answers = [
      { ready: true, indexing: false, folders: { '/w': { store: snapshot } } },
      { ready: true, indexing: false, folders: { '/w': { store: down } } },
    ];
    const client: ManagedClient = {
      start: async () => {},
      stop: async () => {},
      isRunning: () => true,
      sendRequest: async <R>() => (answers.length > 1 ? answers.shift() : answers[0]) as R,
    };
    const t = new StatusTracker(source(client) as never, 1);
    await tick(60);
    assert.equal(t.current.store?.text, 'local index');
    t.dispose();
  });
});
