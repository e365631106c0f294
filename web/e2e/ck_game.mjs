// A whole game of Cities & Knights for two played on the two pages, every
// decision by a click (ck_policy.mjs chooses it), to its winner. Along the
// way the pages must draw what the view holds: knights, walls,
// metropolises, the merchant, the barbarians and the improvement tracks.

import { CARDS, modeKey, nextGesture, spots, total } from './ck_policy.mjs';

// Small enough to end within a few minutes of clicking: set-up gives each
// player 3 points.
export const CK_VP_TARGET = 5;
const MAX_DECISIONS = 1500;

export async function playCk(game, t) {
  const { ada, bob } = game;
  const players = [ada, bob];
  const seen = new Map();
  let trades = 0;
  let turn = null;
  let final = null;
  for (let i = 0; i < MAX_DECISIONS; i += 1) {
    t.check(t.pageErrors.length === 0, t.pageErrors.join('; '));
    const games = await Promise.all(players.map((p) => t.api.game(p.token, game.gameId)));
    if (games[0].status !== 'active') {
      final = games;
      break;
    }
    const index = games.findIndex((g) => g.legal_actions.length);
    t.check(index >= 0, 'someone is awaited');
    const g = games[index];
    if (g.view.turn !== turn) {
      turn = g.view.turn;
      trades = 0;
      if (turn % 10 === 0) await drawnAsViewed(game, ada, games[0], t);
    }
    const gesture = nextGesture(g, trades);
    if (gesture.trade !== undefined) trades += 1;
    const after = await perform(game, players[index], g, gesture, t);
    const made = gestureName(gesture);
    seen.set(made, (seen.get(made) ?? 0) + 1);
    if (after.status !== 'active') {
      final = await Promise.all(players.map((p) => t.api.game(p.token, game.gameId)));
      break;
    }
  }
  t.check(final, `the game ended within ${MAX_DECISIONS} decisions`);
  const winner = final[0].view.winner;
  t.check(winner === 0 || winner === 1, `a player won (${winner})`);
  t.check(final[winner].view.you.total_vp >= CK_VP_TARGET, `the winner has ${CK_VP_TARGET} points`);
  await drawnAsViewed(game, ada, final[0], t);
  t.log('ck_for_two', `won by seat ${winner} on turn ${final[0].view.turn}; decisions made on the pages: `
    + [...seen].map(([k, n]) => `${k} ${n}`).join(', '));
  return final;
}

// What a gesture decided, for the test's summary.
function gestureName(gesture) {
  if (gesture.board) return gesture.board.type === 'play_progress' ? `play ${gesture.board.play.card}` : gesture.board.type;
  if (gesture.click) return gesture.click.match(/data-action="([a-z_]+)"/)[1];
  if (gesture.trade !== undefined) return 'bank_trade';
  return gesture.form ?? gesture.submit ?? gesture.button;
}

// The page shows what the API's view holds.
async function drawnAsViewed(game, player, g, t) {
  await t.sync(game, player, g.move_number);
  const { page } = player;
  const ck = g.view.variant;
  const knights = await page.$$eval('.board .knight', (els) => els.map((e) => `${e.dataset.knight}:${e.dataset.level}:${e.dataset.active}`));
  const expected = ck.knights.map((k) => `${k.node}:${k.level}:${k.active}`);
  t.check(JSON.stringify(knights.sort()) === JSON.stringify(expected.sort()), `knights drawn ${knights} for ${expected}`);
  const walls = await page.$$eval('.board .wall', (els) => els.map((e) => Number(e.dataset.wall)));
  t.check(walls.length === ck.walls.length && ck.walls.every((n) => walls.includes(n)), `walls drawn ${walls} for ${ck.walls}`);
  const metros = await page.$$eval('.board .metropolis', (els) => els.length);
  t.check(metros === ck.metropolises.filter((n) => n !== null).length, 'every metropolis is drawn');
  t.check((await page.$$('.board .merchant')).length === (ck.merchant ? 1 : 0), 'the merchant is drawn where it is');
  const barbarians = page.locator('.ck .barbarians');
  t.check(Number(await barbarians.getAttribute('data-position')) === ck.barbarians, 'the ship is where the view has it');
  t.check((await barbarians.textContent()).includes(`attacks so far: ${ck.attacks}`), 'the page counts the attacks');
  for (const seat of [0, 1]) {
    const levels = await page.$$eval(`.tracks tr[data-seat="${seat}"] td`, (els) => els.map((e) => Number(e.dataset.level)));
    t.check(JSON.stringify(levels) === JSON.stringify(ck.players[seat].levels), `seat ${seat}'s tracks ${levels}`);
  }
  for (const seat of [0, 1]) {
    const cell = (col) => page.textContent(`.players tr[data-seat="${seat}"] td[data-col="${col}"]`);
    t.check(Number(await cell('commodities')) === ck.hand_counts[seat].commodities, `seat ${seat}'s commodities in the players table`);
    t.check((await cell('progress')).startsWith(String(ck.players[seat].progress.count)), `seat ${seat}'s progress cards in the players table`);
  }
  const you = g.view.you.resources;
  for (const c of ['paper', 'cloth', 'coin']) {
    const shown = await page.textContent(`.ck-hand li[data-commodity="${c}"] b`);
    t.check(Number(shown) === (you[c] ?? 0), `the hand shows ${you[c] ?? 0} ${c}`);
  }
}

// Makes one decision on `player`'s page and waits for the server to take it.
async function perform(game, player, g, gesture, t) {
  await t.sync(game, player, g.move_number);
  const { page } = player;
  if (gesture.board) {
    const legal = gesture.board;
    const { kind, ids } = spots(legal);
    if (gesture.from === 'hand') {
      await page.click(`.progress-hand li[data-progress="${legal.play.card}"] button`);
    } else {
      const mode = page.locator(`button[data-mode="${modeKey(legal)}"]`);
      if (await mode.count()) await mode.click();
    }
    const drawn = await page.$$('.board .target');
    t.check(drawn.length === ids.length, `${modeKey(legal)}: ${drawn.length} highlighted spots for ${ids.length}`);
    await page.click(`.board .target[data-${kind}="${gesture.id}"]`);
    await page.click('.confirm button.primary >> nth=0');
  } else if (gesture.click) {
    await page.click(gesture.click);
  } else if (gesture.button) {
    await page.getByRole('button', { name: gesture.button, exact: true }).click();
  } else if (gesture.form) {
    const form = page.locator(`form[data-action="${gesture.form}"]`);
    for (const [prefix, cards] of Object.entries(gesture.fields)) {
      t.check(total(cards) > 0, `${gesture.form}: cards to choose`);
      for (const c of CARDS) {
        if (cards[c]) await form.locator(`#${prefix}-${c}`).fill(String(cards[c]));
      }
    }
    await form.locator('button[type=submit]').click();
  } else if (gesture.submit) {
    await page.locator(`form[data-action="${gesture.submit}"] button[type=submit]`).click();
  } else if (gesture.trade !== undefined) {
    await page.selectOption('#bank-trade', String(gesture.trade));
    await page.locator('form[data-action="bank_trade"] button[type=submit]').click();
  }
  return t.settled(game, player, g.move_number);
}
