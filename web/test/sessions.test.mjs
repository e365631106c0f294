// When the web client refreshes its access token, and how it names the
// places an account is signed in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refreshDelay } from '../public/app/api.js';
import { deviceName } from '../public/app/views/sessions.js';

test('an access token is refreshed a minute before it expires, at once when that is past', () => {
  const now = 1_000_000;
  assert.equal(refreshDelay(now + 3_600_000, now), 3_540_000);
  assert.equal(refreshDelay(now + 60_000, now), 0);
  assert.equal(refreshDelay(now + 30_000, now), 0);
  assert.equal(refreshDelay(now - 5_000_000, now), 0);
});

test('sessions are named by browser and system', () => {
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const safari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const edge = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
  assert.equal(deviceName(chrome), 'Chrome on Linux');
  assert.equal(deviceName(firefox), 'Firefox on Windows');
  assert.equal(deviceName(safari), 'Safari on iPhone');
  assert.equal(deviceName(edge), 'Edge on Windows');
  assert.equal(deviceName('hexpost-bot/0.1'), 'hexpost-bot/0.1');
  assert.equal(deviceName(''), 'Unknown client');
});
