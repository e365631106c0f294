// The order of "my games" and the words for what the API returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortGames } from '../public/app/views/games.js';
import { deadline, describeEvent, seatLabel } from '../public/app/format.js';

const summary = (id, awaiting_you, updated_at, status = 'active') =>
  ({ id, awaiting_you, updated_at, status, time_limit_secs: 3600 });

test('games awaiting me come first, then the most recently changed', () => {
  const games = [summary('a', false, 30), summary('b', true, 10), summary('c', false, 50), summary('d', true, 20)];
  assert.deepEqual(sortGames(games).map((g) => g.id), ['d', 'b', 'c', 'a']);
});

test('the next decision is due one time limit after the last change, while the game runs', () => {
  assert.equal(deadline(summary('a', true, 1000)), 1000 + 3600 * 1000);
  assert.equal(deadline(summary('a', false, 1000, 'finished')), null);
  assert.equal(deadline(summary('a', false, 1000, 'open')), null);
});

test('seats read as players, automated seats by kind and colour', () => {
  const game = {
    players: [{ seat: 0, display_name: 'Ada' }, { seat: 1, display_name: 'Grace' }],
    view: { players: [{ kind: 'real' }, { kind: 'real' }, { kind: 'neutral' }, { kind: 'fictional' }] },
  };
  assert.equal(seatLabel(game, 1), 'Grace');
  assert.equal(seatLabel(game, 2), 'neutral white');
  assert.equal(seatLabel(game, 3), 'fictional player (orange)');
  assert.equal(describeEvent(game, { type: 'stole', thief: 0, victim: 1, resource: null }),
    'Ada stole a card from Grace.');
  assert.equal(describeEvent(game, { type: 'discarded', seat: 1, cards: { brick: 2, ore: 1 } }),
    'Grace discarded 2 brick, 1 ore.');
});
