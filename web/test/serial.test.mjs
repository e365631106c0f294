// The game page's refreshes run one at a time, and a burst of notices
// costs one refresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coalesced, serial } from '../public/app/serial.js';

// A promise with its resolve and reject at hand.
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

test('a function starts only when the one before it has settled, in order', async () => {
  const run = serial();
  const seen = [];
  const first = deferred();
  const a = run(async () => {
    seen.push('a starts');
    await first.promise;
    seen.push('a ends');
    return 'a';
  });
  const b = run(async () => {
    seen.push('b starts');
    return 'b';
  });
  await tick();
  assert.deepEqual(seen, ['a starts']);
  first.resolve();
  assert.equal(await a, 'a');
  assert.equal(await b, 'b');
  assert.deepEqual(seen, ['a starts', 'a ends', 'b starts']);
});

test('a failure reaches its caller and does not stop the next', async () => {
  const run = serial();
  const failed = run(async () => {
    throw new Error('offline');
  });
  const next = run(async () => 'next');
  await assert.rejects(failed, /offline/);
  assert.equal(await next, 'next');
});

test('notices that come while a refresh waits are folded into it', async () => {
  const run = serial();
  let refreshes = 0;
  const refresh = coalesced(run, async () => {
    refreshes += 1;
    return refreshes;
  });
  const busy = deferred();
  const submit = run(() => busy.promise);
  const notices = [refresh(), refresh(), refresh()];
  await tick();
  assert.equal(refreshes, 0, 'no refresh while the move is under way');
  busy.resolve();
  await submit;
  assert.deepEqual(await Promise.all(notices), [1, 1, 1]);
  assert.equal(refreshes, 1);
});

test('a notice that comes once a refresh has started gets a refresh of its own', async () => {
  const run = serial();
  const started = deferred();
  const release = deferred();
  let refreshes = 0;
  const refresh = coalesced(run, async () => {
    refreshes += 1;
    started.resolve();
    await release.promise;
    return refreshes;
  });
  const first = refresh();
  await started.promise;
  const second = refresh();
  release.resolve();
  assert.equal(await first, 1);
  assert.equal(await second, 2);
  assert.equal(refreshes, 2);
});
