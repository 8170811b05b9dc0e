import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy } from '../src/restartPolicy';

describe('restart policy after a crash', () => {
  it('restarts three times in three minutes, then gives up', () => {
    const p = new RestartPolicy();
    assert.deepEqual([0, 1000, 2000, 3000].map((t) => p.shouldRestart(t)), [true, true, true, false]);
    assert.equal(p.count, 4);
  });

  it('forgets crashes older than the window', () => {
    const p = new RestartPolicy(3, 60_000);
    for (const t of [0, 10_000, 20_000]) {
      assert.equal(p.shouldRestart(t), true);
    }
    assert.equal(p.shouldRestart(65_000), true, 'the crash at 0 is out of the window');
    assert.equal(p.count, 3);
  });
});
