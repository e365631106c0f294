// The order of "my games" and the words for what the API returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortGames } from '../public/app/views/games.js';
import { clockLines, deadline, seatLabel } from '../public/app/format.js';

const summary = (id, awaiting_you, updated_at, status = 'active') =>
  ({ id, awaiting_you, updated_at, status, time_limit_secs: 3600 });

test('games awaiting me come first, then the most recently changed', () => {
  const games = [summary('a', false, 30), summary('b', true, 10), summary('c', false, 50), summary('d', true, 20)];
  assert.deepEqual(sortGames(games).map((g) => g.id), ['d', 'b', 'c', 'a']);
});

test('the deadline shown is mine while I am awaited, else the earliest running', () => {
  const clocks = [{ seat: 0, deadline: 5000, vacation_until: null }, { seat: 1, deadline: 9000, vacation_until: null }];
  const game = (awaiting_you, status = 'active') => ({ ...summary('a', awaiting_you, 1000, status), your_seat: 1, clocks });
  assert.equal(deadline(game(true)), 9000);
  assert.equal(deadline(game(false)), 5000);
  assert.equal(deadline(game(false, 'finished')), null);
  assert.equal(deadline({ ...summary('a', false, 1000, 'open'), clocks: [] }), null);
  assert.equal(deadline({ ...summary('a', true, 1000), your_seat: 0, clocks: [{ seat: 0, deadline: null }] }), null);
});

test('clock lines name each seat with its deadline and a vacation still running', () => {
  const game = {
    status: 'active',
    players: [{ seat: 0, display_name: 'Ada' }, { seat: 1, display_name: 'Grace' }],
    view: { players: [{ kind: 'real' }, { kind: 'real' }] },
    clocks: [{ seat: 0, deadline: 5000, vacation_until: 2000 }, { seat: 1, deadline: null, vacation_until: 90_000 }],
  };
  const lines = clockLines(game, 10_000);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^Ada: decision due by /);
  assert.ok(!lines[0].includes('vacation'), 'a vacation that ended is not shown');
  assert.match(lines[1], /^Grace: nothing awaited, on vacation until /);
});

test('seats read as players, automated seats by kind and colour', () => {
  const game = {
    players: [{ seat: 0, display_name: 'Ada' }, { seat: 1, display_name: 'Grace' }],
    view: { players: [{ kind: 'real' }, { kind: 'real' }, { kind: 'neutral' }, { kind: 'fictional' }] },
  };
  assert.equal(seatLabel(game, 1), 'Grace');
  assert.equal(seatLabel(game, 2), 'neutral white');
  assert.equal(seatLabel(game, 3), 'fictional orange');
});
