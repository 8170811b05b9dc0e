import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeStartFailure,
  expandVariables,
  findExecutable,
  resolveServerCommand,
  ServerCommandError,
  splitCommandLine,
  type ResolveContext,
} from '../src/serverCommand';

function ctx(executables: string[], over: Partial<ResolveContext> = {}): ResolveContext {
  const set = new Set(executables);
  return {
    workspaceFolder: '/ws',
    trusted: true,
    env: { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/u', VENV: '/opt/venv' },
    platform: 'linux',
    homedir: '/home/u',
    isExecutable: (f) => set.has(f),
    ...over,
  };
}

function expectError(fn: () => unknown, message: RegExp, fix: RegExp, setting?: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ServerCommandError, `not a ServerCommandError: ${err}`);
    assert.match(err.message, message);
    assert.match(err.fix, fix);
    if (setting) {
      assert.equal(err.setting, setting);
    }
    return true;
  });
}

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    assert.deepEqual(splitCommandLine('graphmind serve'), ['graphmind', 'serve']);
    assert.deepEqual(splitCommandLine('  "/opt/my tools/graphmind"   serve --log-level debug '), [
      '/opt/my tools/graphmind',
      'serve',
      '--log-level',
      'debug',
    ]);
    assert.deepEqual(splitCommandLine(`'a b' c\\ d "e\\"f" ''`), ['a b', 'c d', 'e"f', '']);
    assert.deepEqual(splitCommandLine(''), []);
  });

  it('rejects an unterminated quote', () => {
    assert.throws(() => splitCommandLine('"graphmind serve'), /unterminated " quote/);
  });
});

describe('expandVariables', () => {
  it('expands workspaceFolder, userHome, env and ~', () => {
    const c = ctx([]);
    assert.equal(expandVariables('${workspaceFolder}/.venv/bin/graphmind', c), '/ws/.venv/bin/graphmind');
    assert.equal(expandVariables('${env:VENV}/bin/python', c), '/opt/venv/bin/python');
    assert.equal(expandVariables('${env:NOPE}x', c), 'x');
    assert.equal(expandVariables('~/bin/graphmind', c), '/home/u/bin/graphmind');
    assert.equal(expandVariables('${userHome}/x', c), '/home/u/x');
    assert.equal(expandVariables('a~b', c), 'a~b');
  });
});

describe('settings -> server command', () => {
  it('default: graphmind serve found on PATH', () => {
    const r = resolveServerCommand({ command: 'graphmind serve', interpreter: '' }, ctx(['/usr/bin/graphmind']));
    assert.equal(r.command, '/usr/bin/graphmind');
    assert.deepEqual(r.args, ['serve']);
    assert.equal(r.setting, 'graphmind.server.command');
    assert.equal(r.display, '/usr/bin/graphmind serve');
  });

  it("default: the workspace's .venv wins over PATH", () => {
    const r = resolveServerCommand(
      { command: 'graphmind serve', interpreter: '' },
      ctx(['/usr/bin/graphmind', '/ws/.venv/bin/graphmind']),
    );
    assert.equal(r.command, '/ws/.venv/bin/graphmind');
  });

  it("an untrusted workspace's .venv is not used", () => {
    const r = resolveServerCommand(
      { command: 'graphmind serve', interpreter: '' },
      ctx(['/usr/bin/graphmind', '/ws/.venv/bin/graphmind'], { trusted: false }),
    );
    assert.equal(r.command, '/usr/bin/graphmind');
  });

  it('an empty command falls back to the default', () => {
    const r = resolveServerCommand({ command: '  ', interpreter: '' }, ctx(['/usr/local/bin/graphmind']));
    assert.equal(r.display, '/usr/local/bin/graphmind serve');
  });

  it('an absolute command with arguments and variables', () => {
    const r = resolveServerCommand(
      { command: '"${workspaceFolder}/tools dir/graphmind" serve --verbose', interpreter: '' },
      ctx(['/ws/tools dir/graphmind']),
    );
    assert.equal(r.command, '/ws/tools dir/graphmind');
    assert.deepEqual(r.args, ['serve', '--verbose']);
    assert.equal(r.display, "'/ws/tools dir/graphmind' serve --verbose");
  });

  it('a relative path is taken from the workspace folder', () => {
    const r = resolveServerCommand({ command: 'bin/graphmind serve', interpreter: '' }, ctx(['/ws/bin/graphmind']));
    assert.equal(r.command, '/ws/bin/graphmind');
  });

  it('interpreter: python -m graphmind serve, and it wins over the command', () => {
    const r = resolveServerCommand(
      { command: '/usr/bin/graphmind serve', interpreter: '~/venvs/gm/bin/python' },
      ctx(['/usr/bin/graphmind', '/home/u/venvs/gm/bin/python']),
    );
    assert.equal(r.command, '/home/u/venvs/gm/bin/python');
    assert.deepEqual(r.args, ['-m', 'graphmind', 'serve']);
    assert.equal(r.setting, 'graphmind.interpreter');
    assert.equal(r.interpreter, '/home/u/venvs/gm/bin/python');
  });

  it('interpreter given as a bare name is looked up like a command', () => {
    const r = resolveServerCommand({ command: '', interpreter: 'python3' }, ctx(['/usr/bin/python3']));
    assert.equal(r.command, '/usr/bin/python3');
  });

  it('windows: .venv\\Scripts and PATHEXT', () => {
    const c = ctx(['C:\\ws\\.venv\\Scripts\\graphmind.exe'], {
      platform: 'win32',
      workspaceFolder: 'C:\\ws',
      env: { Path: 'C:\\Windows', PATHEXT: '.EXE;.CMD' },
    });
    assert.equal(findExecutable('graphmind', c), 'C:\\ws\\.venv\\Scripts\\graphmind.exe');
  });
});

describe('settings -> server command: errors carry the fix', () => {
  it('graphmind not installed anywhere', () => {
    expectError(
      () => resolveServerCommand({ command: 'graphmind serve', interpreter: '' }, ctx([])),
      /Could not find "graphmind" in this workspace's \.venv or on PATH/,
      /pip install graphmind.*graphmind\.server\.command.*graphmind\.interpreter/,
      'graphmind.server.command',
    );
  });

  it('no folder open: only PATH is mentioned', () => {
    expectError(
      () => resolveServerCommand({ command: 'graphmind serve', interpreter: '' }, ctx([], { workspaceFolder: undefined })),
      /Could not find "graphmind" on PATH \(tried graphmind\.server\.command = "graphmind serve"\)\./,
      /pip install graphmind/,
    );
  });

  it('a configured path that does not exist', () => {
    expectError(
      () => resolveServerCommand({ command: '/opt/gm/graphmind serve', interpreter: '' }, ctx([])),
      /"\/opt\/gm\/graphmind" \(from graphmind\.server\.command\) does not exist or is not executable/,
      /Fix the path in "graphmind\.server\.command"/,
    );
  });

  it('an interpreter that does not exist', () => {
    expectError(
      () => resolveServerCommand({ command: '', interpreter: '/nope/python' }, ctx([])),
      /"\/nope\/python" \(from graphmind\.interpreter\) does not exist/,
      /graphmind\.interpreter/,
      'graphmind.interpreter',
    );
  });

  it('bad quoting', () => {
    expectError(
      () => resolveServerCommand({ command: "'graphmind serve", interpreter: '' }, ctx([])),
      /can't be parsed: unterminated ' quote/,
      /Fix the quoting/,
    );
  });

  it('a relative path with no folder open', () => {
    expectError(
      () => resolveServerCommand({ command: './graphmind serve', interpreter: '' }, ctx([], { workspaceFolder: undefined })),
      /relative path but no folder is open/,
      /absolute path/,
    );
  });
});

describe('start failures', () => {
  const viaInterpreter = resolveServerCommand({ command: '', interpreter: '/usr/bin/python3' }, ctx(['/usr/bin/python3']));
  const viaCommand = resolveServerCommand({ command: 'graphmind serve', interpreter: '' }, ctx(['/usr/bin/graphmind']));

  it('module missing in the interpreter: tells how to install it there', () => {
    const f = describeStartFailure(viaInterpreter, new Error('Connection got disposed.'), [
      '[Info  - 10:00:00] Starting',
      '/usr/bin/python3: No module named graphmind',
    ]);
    assert.equal(f.message, 'The GraphMind server failed to start (/usr/bin/python3 -m graphmind serve, from graphmind.interpreter): /usr/bin/python3: No module named graphmind');
    assert.match(f.fix, /run "\/usr\/bin\/python3 -m pip install graphmind"/);
  });

  it('crash on start: quotes the exception from stderr and says how to reproduce', () => {
    const f = describeStartFailure(viaCommand, new Error('Pending response rejected since connection got disposed'), [
      'Traceback (most recent call last):',
      'ImportError: cannot import name x',
      '',
      '2025-01-01 10:00:01 INFO graphmind: shutting down',
    ]);
    assert.match(f.message, /: ImportError: cannot import name x$/);
    assert.match(f.fix, /Run "\/usr\/bin\/graphmind serve" in a terminal/);
  });

  it('a broken pipe (the server died before reading) defers to its stderr', () => {
    const f = describeStartFailure(viaCommand, new Error('write EPIPE'), ['graphmind: cannot start']);
    assert.match(f.message, /: graphmind: cannot start$/);
  });

  it('a specific client error wins over the server log', () => {
    const f = describeStartFailure(viaCommand, new Error("command 'x' already exists"), ['INFO started']);
    assert.match(f.message, /: command 'x' already exists$/);
  });

  it('spawn error without output: uses the error', () => {
    const f = describeStartFailure(viaCommand, new Error('spawn /usr/bin/graphmind EACCES'), []);
    assert.match(f.message, /EACCES/);
    assert.match(f.fix, /Check the path in "graphmind\.server\.command"/);
  });
});

describe('start failures: python given as the server command', () => {
  it('suggests installing into that python', () => {
    const r = resolveServerCommand({ command: 'python3 -m graphmind serve', interpreter: '' }, ctx(['/usr/bin/python3']));
    const f = describeStartFailure(r, new Error('Connection got disposed.'), ['/usr/bin/python3: No module named graphmind']);
    assert.match(f.fix, /GraphMind is not installed in \/usr\/bin\/python3: run "\/usr\/bin\/python3 -m pip install graphmind"/);
  });
});
