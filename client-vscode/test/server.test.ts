import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { RecordingOutputChannel } from '../src/outputChannel';
import { ServerManager, type ClientFactory, type ManagedClient, type ServerEnvironment } from '../src/server';
import type { ResolvedCommand } from '../src/serverCommand';
import * as vscode from './vscode-stub';

const tick = () => new Promise((r) => setTimeout(r, 5));

function env(executables: string[], command = 'graphmind serve', interpreter = ''): () => ServerEnvironment {
  return () => ({
    settings: { command, interpreter },
    ctx: {
      workspaceFolder: '/ws',
      trusted: true,
      env: { PATH: '/usr/bin' },
      platform: 'linux',
      homedir: '/home/u',
      isExecutable: (f) => executables.includes(f),
    },
  });
}

interface FakeServer {
  factory: ClientFactory;
  started: ResolvedCommand[];
  stops: number;
}

function fakeServer(behaviour: (output: RecordingOutputChannel) => Promise<void>, output: RecordingOutputChannel): FakeServer {
  const s: FakeServer = { started: [], stops: 0, factory: () => undefined as never };
  s.factory = (resolved) => {
    let running = false;
    const client: ManagedClient = {
      start: async () => {
        s.started.push(resolved);
        await behaviour(output);
        running = true;
      },
      stop: async () => {
        s.stops++;
        running = false;
      },
      isRunning: () => running,
      sendRequest: async () => undefined as never,
    };
    return client;
  };
  return s;
}

function newOutput() {
  const inner = new vscode.OutputChannelStub('GraphMind');
  return { inner, output: new RecordingOutputChannel(inner as never) };
}

describe('ServerManager', () => {
  beforeEach(() => vscode.reset());

  it('starts the resolved command and hands out the running client', async () => {
    const { output, inner } = newOutput();
    const server = fakeServer(async () => {}, output);
    const m = new ServerManager(server.factory, output, env(['/ws/.venv/bin/graphmind']));
    assert.equal(await m.start(), true);
    assert.equal(server.started[0].display, '/ws/.venv/bin/graphmind serve');
    assert.ok(await m.whenReady());
    assert.match(inner.text, /Starting \/ws\/\.venv\/bin\/graphmind serve \(from graphmind\.server\.command\) in \/ws/);
    assert.deepEqual(vscode.recorded.messages, []);
  });

  it('graphmind not found: an error notification with the fix, and Open Settings opens the setting', async () => {
    const { output, inner } = newOutput();
    const server = fakeServer(async () => {}, output);
    const m = new ServerManager(server.factory, output, env([]));
    vscode.answers.push('Open Settings');
    assert.equal(await m.start(), false);
    await tick();
    assert.equal(server.started.length, 0);
    const [msg] = vscode.recorded.messages;
    assert.equal(msg.level, 'error');
    assert.match(msg.text, /^GraphMind: Could not find "graphmind" in this workspace's \.venv or on PATH \(tried graphmind\.server\.command = "graphmind serve"\)\. Install GraphMind \("pip install graphmind"/);
    assert.deepEqual(msg.actions, ['Open Settings', 'Show Log', 'Restart Server']);
    assert.deepEqual(vscode.recorded.commands[0], {
      command: 'workbench.action.openSettings',
      args: ['graphmind.server.command'],
    });
    assert.match(inner.text, /Can't start the server: Could not find "graphmind"/);
    assert.equal(await m.whenReady(), undefined);
  });

  it('server exits while starting: quotes its stderr and says how to fix it', async () => {
    const { output } = newOutput();
    const server = fakeServer(async (out) => {
      out.append('/usr/bin/python3: No module named graphmind\n');
      throw new Error('Pending response rejected since connection got disposed');
    }, output);
    const m = new ServerManager(server.factory, output, env(['/usr/bin/python3'], '', '/usr/bin/python3'));
    vscode.answers.push('Show Log');
    assert.equal(await m.start(), false);
    await tick();
    const [msg] = vscode.recorded.messages;
    assert.match(msg.text, /^The GraphMind server failed to start \(\/usr\/bin\/python3 -m graphmind serve, from graphmind\.interpreter\): \/usr\/bin\/python3: No module named graphmind/);
    assert.match(msg.text, /run "\/usr\/bin\/python3 -m pip install graphmind"/);
    assert.deepEqual(msg.actions, ['Open Settings', 'Show Log', 'Restart Server']);
    assert.equal(server.stops, 1, 'the failed client is stopped');
    assert.equal(await m.whenReady(), undefined);
  });

  it('a server that exits during initialize (start resolves, not running) is reported too', async () => {
    const { output } = newOutput();
    const m = new ServerManager(
      () => ({
        start: async () => {
          output.append('/usr/bin/python3: No module named graphmind\n');
        },
        stop: async () => {},
        isRunning: () => false,
        sendRequest: async () => undefined as never,
      }),
      output,
      env(['/usr/bin/python3'], 'python3 -m graphmind serve'),
    );
    assert.equal(await m.start(), false);
    const [msg] = vscode.recorded.messages;
    assert.match(msg.text, /failed to start \(\/usr\/bin\/python3 -m graphmind serve, from graphmind\.server\.command\): \/usr\/bin\/python3: No module named graphmind/);
    assert.match(msg.text, /run "\/usr\/bin\/python3 -m pip install graphmind"/);
  });

  it('Restart Server from a notification restarts, and restart stops then starts', async () => {
    const { output } = newOutput();
    let fail = true;
    const server = fakeServer(async () => {
      if (fail) {
        throw new Error('boom');
      }
    }, output);
    const m = new ServerManager(server.factory, output, env(['/usr/bin/graphmind']));
    vscode.answers.push('Restart Server');
    assert.equal(await m.start(), false);
    fail = false;
    await tick();
    assert.ok(await m.whenReady(), 'restarted from the notification');
    assert.equal(server.started.length, 2);
    const stopsBefore = server.stops;
    assert.equal(await m.restart(), true);
    assert.equal(server.stops, stopsBefore + 1);
    assert.equal(server.started.length, 3);
  });

  it('start is a no-op when already running; stop stops', async () => {
    const { output } = newOutput();
    const server = fakeServer(async () => {}, output);
    const m = new ServerManager(server.factory, output, env(['/usr/bin/graphmind']));
    await m.start();
    await m.start();
    assert.equal(server.started.length, 1);
    await m.stop();
    assert.equal(server.stops, 1);
    assert.equal(await m.whenReady(), undefined);
  });

  it('the output channel remembers its last lines', () => {
    const { output, inner } = newOutput();
    output.append('one\ntw');
    output.appendLine('[Trace] not from the server');
    output.append('o\nthree\n');
    assert.deepEqual(output.tail(2), ['two', 'three'], 'only stderr (append) is remembered');
    assert.equal(inner.text, 'one\ntw[Trace] not from the server\no\nthree\n');
    output.mark();
    assert.deepEqual(output.tail(), []);
  });
});
