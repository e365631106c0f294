// End-to-end test of the web client: for each variant, two players in two
// browser contexts sign up, create and accept the game through the pages,
// place their set-up pieces by clicking the board, and play turns. Between
// the decisions the test wants to see in the browser (a discard, a trade,
// a development card, a neutral or fictional step), it moves the game on
// through the public API with simple legal actions, as any third-party
// client could.
//
//   node play.mjs BASE_URL ARTIFACT_DIR [VARIANT...]
//
// Chromium is the system's (CHROMIUM, default /usr/bin/chromium); screenshots
// of the board go to ARTIFACT_DIR.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Api } from './api_client.mjs';
import {
  apiAction, bankTrade, DEV_CARD_COST, pick, RESOURCES, ROAD_COST, takeCards, total, tradeFor, tradeProposal,
} from './policy.mjs';
import { CK_VP_TARGET, playCk } from './ck_game.mjs';
import { mailedCode } from './mailbox.mjs';

const [base, artifacts = 'target/e2e-artifacts', ...chosen] = process.argv.slice(2);
if (!base) {
  console.error('usage: node play.mjs BASE_URL ARTIFACT_DIR [VARIANT...]');
  process.exit(2);
}
const VARIANTS = chosen.length ? chosen : ['standard', 'duel', 'catan_for_two', 'neutral_trader', 'shadow'];
const PASSWORD = 'correct horse battery';
const MAX_DECISIONS = 600;
const api = new Api(base);
// With E2E_SEED_HANDSHAKE set, each game waits once it is created for a
// line on stdin: the test (tests/web_e2e.rs) gives the open game a fixed
// seed meanwhile, so that, with the policies' seeded choices, the game is
// the same every run.
const handshake = process.env.E2E_SEED_HANDSHAKE
  ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : null;
const pageErrors = [];
mkdirSync(artifacts, { recursive: true });

function log(...args) {
  console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function eventually(what, probe, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// One player: a browser context of their own, a page, and an API token for
// reading the game (the same account the page uses).
async function newPlayer(browser, name, email) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (err) => pageErrors.push(`${name}'s page threw: ${err.message}`));
  // Refused answers are logged by the browser and expected; anything the
  // Content-Security-Policy blocks is a defect of the page.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && msg.text().includes('Content Security Policy')) {
      pageErrors.push(`${name}'s page broke the CSP: ${msg.text()}`);
    }
  });
  page.on('dialog', (dialog) => dialog.accept());
  const player = { name, email, context, page, token: null, streamsOpened: 0 };
  page.on('response', (res) => {
    if (/^\/api\/v1\/games\/[^/]+\/stream$/.test(new URL(res.url()).pathname) && res.status() === 200) {
      player.streamsOpened += 1;
    }
  });
  return player;
}

async function signUpOnPage(player) {
  const { page } = player;
  await page.fill('#email', player.email);
  await page.fill('#display_name', player.name);
  await page.fill('#password', PASSWORD);
  await page.click('form.auth button[type=submit]');
}

// Signs up, then confirms the address with the code mailed to it, as a
// person types it from the mail.
async function signUpAndConfirm(player) {
  await signUpOnPage(player);
  const { page } = player;
  await page.waitForSelector('.code-sent');
  check((await page.textContent('.code-sent')).includes(player.email), 'the page says where the code went');
  await page.fill('#code', await mailedCode(player.email, '/confirm'));
  await page.click('form.auth button[type=submit]');
}

async function setUp(browser, variant) {
  const tag = `${variant}-${process.pid}-${Date.now()}`;
  const ada = await newPlayer(browser, 'Ada', `ada-${tag}@example.org`);
  const bob = await newPlayer(browser, 'Bob', `bob-${tag}@example.org`);

  // Ada signs up and creates the game.
  await ada.page.goto(`${base}/`);
  await ada.page.waitForSelector('form.auth');
  await ada.page.click('text=Sign up');
  await signUpAndConfirm(ada);
  await ada.page.waitForURL(`${base}/games`);
  await ada.page.click('a[href="/new"] >> nth=0');
  await ada.page.selectOption('#variant', variant);
  await ada.page.fill('#opponent_email', bob.email);
  await ada.page.selectOption('#creator_seat', '0');
  if (variant === 'shadow') await ada.page.selectOption('#opt-removal_reroll', 'agree');
  if (variant === 'ck_for_two') await ada.page.fill('#opt-vp_target', String(CK_VP_TARGET));
  if (variant === 'standard') {
    await ada.page.selectOption('#opt-board', 'beginner');
    await ada.page.selectOption('#timeout_policy', 'forfeit');
    await ada.page.fill('#vacation_days', '3');
  }
  await ada.page.click('form.new-game button[type=submit]');
  const link = await ada.page.getAttribute('.invite-link', 'href');
  check(link.startsWith(`${base}/invitations/`), `invitation link ${link} has the mail's form`);
  if (handshake) {
    console.log(`seed handshake: the ${variant} game is open`);
    check(!(await handshake.next()).done, 'the test answered the seed handshake');
  }

  // Bob follows the link, signs up from it (the invitation proves his
  // address: no code) and accepts.
  await bob.page.goto(link);
  await bob.page.waitForSelector('.invite-summary');
  check((await bob.page.textContent('.invite-summary')).includes(`invited to a game of`), 'the invitation says what it is for');
  await bob.page.click('main a[href^="/signup"]');
  await signUpOnPage(bob);
  await bob.page.waitForURL(link);
  await bob.page.click('text=Accept and start the game');
  await bob.page.waitForURL(/\/games\/[0-9a-f-]+$/);
  const gameId = bob.page.url().split('/').pop();

  for (const p of [ada, bob]) {
    p.token = (await api.login(p.email, PASSWORD)).access_token;
  }
  // The list shows the game, "your move" first, with its deadline.
  await ada.page.click('a[href="/games"]');
  await ada.page.waitForSelector(`.game-item[data-game="${gameId}"]`);
  const first = await ada.page.getAttribute('.game-item >> nth=0', 'data-game');
  check(first === gameId, 'the new game heads the list');
  const ada0 = await api.game(ada.token, gameId);
  if (ada0.awaiting_you) {
    check(await ada.page.isVisible(`.game-item.yours[data-game="${gameId}"]`), 'the list marks my move');
  }
  check((await ada.page.textContent(`.game-item[data-game="${gameId}"]`)).includes('Decision due by'), 'the list shows the deadline');
  await ada.page.click(`.game-item[data-game="${gameId}"] a`);
  await ada.page.waitForSelector('svg.board');
  return { variant, gameId, ada, bob, url: `${base}/games/${gameId}` };
}

// The page of `player` shows move `n`: after a reload if polling has not
// caught up yet (the API moved the game on behind its back).
async function sync(game, player, n) {
  const selector = `.game-page[data-move-number="${n}"]`;
  if (!(await player.page.$(selector))) {
    await player.page.goto(game.url);
  }
  await player.page.waitForSelector(selector);
}

// After a decision made on a page: the server has taken it, or the page
// says why not.
async function settled(game, player, before) {
  return eventually(`${player.name}'s decision to be taken`, async () => {
    const error = await player.page.$('.status.error');
    if (error) throw new Error(`${player.name}'s page reports: ${await error.textContent()}`);
    const g = await api.game(player.token, game.gameId);
    return g.move_number > before ? g : null;
  });
}

function modeKey(legal) {
  return legal.neutral === undefined ? legal.type : `${legal.type}:${legal.neutral}`;
}

// The neutral or fictional steps each variant makes on a page.
const AUTOMATED_GOALS = {
  standard: [],
  duel: [],
  catan_for_two: ['neutral_road'],
  neutral_trader: ['neutral_setup'],
  shadow: ['removal_vote', 'auction'],
};

const TARGET_KIND = {
  build_road: 'edge', build_neutral_road: 'edge', build_settlement: 'node', build_city: 'node',
  build_neutral_settlement: 'node', move_robber: 'hex', play_knight: 'hex',
};

function choices(legal) {
  if (legal.targets) return legal.targets.map((t) => t.hex);
  return legal.edges ?? legal.nodes;
}

// Chooses a highlighted spot on the board, by mouse or by keyboard, and
// confirms it.
async function boardDecision(game, player, g, legal, { keyboard = false } = {}) {
  await sync(game, player, g.move_number);
  const { page } = player;
  const mode = page.locator(`button[data-mode="${modeKey(legal)}"]`);
  if (await mode.count()) await mode.click();
  const kind = TARGET_KIND[legal.type];
  const options = choices(legal);
  const id = pick(options);
  const targets = await page.$$('.board .target');
  check(targets.length === options.length, `${legal.type}: ${targets.length} highlighted spots for ${options.length} legal ones`);
  const target = `.board .target[data-${kind}="${id}"]`;
  if (keyboard) {
    await page.focus(target);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.confirm button.primary');
    await page.keyboard.press('Enter');
  } else {
    await page.click(target);
    await page.click('.confirm button.primary >> nth=0');
  }
  return settled(game, player, g.move_number);
}

// A decision's button is labelled with the server's phrase for it (the
// words of the mails), capitalised.
function said(g, type) {
  const text = g.legal_action_text[g.legal_actions.findIndex((l) => l.type === type)];
  return text[0].toUpperCase() + text.slice(1);
}

async function buttonDecision(game, player, g, name) {
  await sync(game, player, g.move_number);
  await player.page.getByRole('button', { name, exact: true }).click();
  return settled(game, player, g.move_number);
}

async function countsDecision(game, player, g, action, fields) {
  await sync(game, player, g.move_number);
  const form = player.page.locator(`form[data-action="${action}"]`);
  for (const [prefix, cards] of Object.entries(fields)) {
    for (const r of RESOURCES) {
      if (cards[r]) await form.locator(`#${prefix}-${r}`).fill(String(cards[r]));
    }
  }
  await form.locator('button[type=submit]').click();
  return settled(game, player, g.move_number);
}

async function screenshot(game, player, label) {
  await player.page.locator('svg.board').screenshot({ path: join(artifacts, `${game.variant}-${label}.png`) });
}

// An offer the server refuses: the page shows the problem's detail and
// the game stays where it was.
async function refusedOffer(game, player, g, resource) {
  await sync(game, player, g.move_number);
  const form = player.page.locator('form[data-action="offer_trade"]');
  await form.locator(`#offer-give-${resource}`).fill('1');
  await form.locator(`#offer-receive-${resource}`).fill('1');
  await form.locator('button[type=submit]').click();
  const error = await player.page.waitForSelector('.status.error');
  const shown = await error.textContent();
  check(shown.includes('both sides'), `the page shows why the server refused the offer (it shows: ${shown})`);
  check((await api.game(player.token, game.gameId)).move_number === g.move_number, 'a refused offer changes nothing');
  await form.locator(`#offer-receive-${resource}`).fill('0');
}

function wantedTrade(goals, maritime, hand) {
  return (goals.has('dev_card') && bankTrade(maritime, hand, DEV_CARD_COST))
    || (goals.has('neutral_road') && bankTrade(maritime, hand, ROAD_COST));
}

// Plays until every decision the test wants has been made on a page.
async function play(game) {
  const { variant, ada, bob } = game;
  const players = [ada, bob];
  const goals = new Set(['discard', 'robber', 'trade', 'dev_card', 'ui_roll', 'ui_end_turn', ...AUTOMATED_GOALS[variant]]);
  let checkedPolling = false;
  let screenshotAfterSetup = false;
  // In one variant the pages cannot open the event stream and must fall
  // back to polling; in the others they follow the stream.
  const polling = variant === 'duel';
  if (polling) {
    for (const p of players) {
      await p.page.route('**/api/v1/games/*/stream', (route) => route.abort());
      await p.page.reload();
      await p.page.waitForSelector('svg.board');
    }
  }

  for (let i = 0; i < MAX_DECISIONS && goals.size; i += 1) {
    check(pageErrors.length === 0, pageErrors.join('; '));
    const games = await Promise.all(players.map((p) => api.game(p.token, game.gameId)));
    check(games[0].status === 'active', `the game is still on (status ${games[0].status}) with goals left: ${[...goals]}`);
    // An answer to an open offer comes first: the offerer could withdraw it.
    let turn = games.findIndex((g) => g.legal_actions.some((l) => l.type === 'accept_trade'));
    if (turn < 0) turn = games.findIndex((g) => g.legal_actions.length);
    check(turn >= 0, 'someone is awaited');
    const player = players[turn];
    const g = games[turn];
    const other = games[1 - turn];
    const legal = g.legal_actions;
    const byType = Object.fromEntries(legal.map((l) => [l.type, l]));
    const phase = g.view.phase.phase;
    const board = legal.filter((l) => l.type in TARGET_KIND);
    const hand = g.view.you.resources;

    if (phase === 'setup' || (board.length && board.length === legal.length && board[0].type.startsWith('build_neutral'))) {
      const owner = g.view.setup_step?.owner;
      const neutral = board[0].type.startsWith('build_neutral') || (owner !== undefined && owner !== g.your_seat);
      const after = await boardDecision(game, player, g, board[0], { keyboard: board[0].type.endsWith('road') });
      if (neutral) {
        goals.delete(phase === 'setup' ? 'neutral_setup' : 'neutral_road');
        log(variant, `${player.name} placed a neutral piece on the board page`);
      }
      if (!checkedPolling) {
        // The other page was left alone: its stream (or polling, where the
        // stream is refused) alone must show the move.
        const watcher = players[1 - turn];
        await watcher.page.waitForSelector(`.game-page[data-move-number="${after.move_number}"]`, { timeout: 20000 });
        check(await watcher.page.$(`.board .buildings [data-node]`), 'the polled page draws the new settlement');
        checkedPolling = true;
        if (!polling) check(watcher.streamsOpened > 0, 'the game page follows its event stream');
        log(variant, `the opponent's page refreshed by ${polling ? 'polling, its event stream refused' : 'its event stream'}`);
      }
      continue;
    }
    if (!screenshotAfterSetup) {
      await sync(game, ada, games[0].move_number);
      const drawn = await ada.page.$$eval('.board .buildings [data-node]', (els) => els.length);
      check(drawn === games[0].view.buildings.length, `${drawn} buildings drawn for ${games[0].view.buildings.length}`);
      if (variant === 'shadow') {
        const removed = await ada.page.$$eval('.board .hex.removed', (els) => els.length);
        check(removed >= 3, `the shadow board shows its removed hexes (${removed})`);
      }
      await screenshot(game, ada, 'after-setup');
      screenshotAfterSetup = true;
    }

    if (byType.vote_reroll) {
      await buttonDecision(game, player, g, 'Keep this board');
      goals.delete('removal_vote');
      log(variant, `${player.name} voted on the removal roll`);
    } else if (byType.discard && goals.has('discard')) {
      const n = byType.discard.count;
      await sync(game, player, g.move_number);
      check((await player.page.textContent('form[data-action="discard"]')).includes(`Discard ${n} card(s)`), 'the page asks for the discard');
      const after = await countsDecision(game, player, g, 'discard', { discard: takeCards(hand, n) });
      check(total(after.view.you.resources) === total(hand) - n, 'the discard left the hand');
      goals.delete('discard');
      log(variant, `${player.name} discarded ${n} on the page`);
    } else if (byType.move_robber && goals.has('robber')) {
      await boardDecision(game, player, g, byType.move_robber);
      goals.delete('robber');
      log(variant, `${player.name} moved the robber on the board`);
    } else if (byType.accept_trade) {
      const offer = g.view.offer;
      const after = await buttonDecision(game, player, g, said(g, 'accept_trade'));
      for (const r of RESOURCES) {
        const expected = (hand[r] ?? 0) + (offer.give[r] ?? 0) - (offer.receive[r] ?? 0);
        check((after.view.you.resources[r] ?? 0) === expected, `the trade moved ${r}`);
      }
      goals.delete('trade');
      log(variant, `${player.name} accepted a trade on the page`);
    } else if ((byType.bid || byType.pass_bid) && goals.has('auction')) {
      if (byType.bid && total(hand) > 0) {
        await countsDecision(game, player, g, 'bid', { bid: takeCards(hand, 1) });
        log(variant, `${player.name} bid in the fictional player's auction`);
      } else {
        await buttonDecision(game, player, g, said(g, 'pass_bid'));
        log(variant, `${player.name} passed in the fictional player's auction`);
      }
      goals.delete('auction');
    } else if (goals.has('trade') && byType.offer_trade && !g.view.offer && tradeProposal(hand, other.view.you.resources)) {
      const { give, receive } = tradeProposal(hand, other.view.you.resources);
      await refusedOffer(game, player, g, Object.keys(give)[0]);
      await countsDecision(game, player, g, 'offer_trade', { 'offer-give': give, 'offer-receive': receive });
      log(variant, `${player.name} offered a trade on the page`);
    } else if (goals.has('dev_card') && byType.buy_development_card) {
      const after = await buttonDecision(game, player, g, said(g, 'buy_development_card'));
      await sync(game, player, after.move_number);
      check((await player.page.textContent('.hand')).includes('new this turn'), 'the hand shows the new card');
      check((await player.page.textContent('.log')).includes('bought a development card'), 'the log tells the purchase');
      goals.delete('dev_card');
      log(variant, `${player.name} bought a development card on the page`);
    } else if (byType.maritime_trade && wantedTrade(goals, byType.maritime_trade, hand)) {
      // Short of a card for what the test wants to buy: the bank makes up for it.
      await api.move(player.token, game.gameId, g.move_number, wantedTrade(goals, byType.maritime_trade, hand));
    } else if (goals.has('dev_card') && byType.offer_trade && !byType.roll_dice && !g.view.offer
      && tradeFor(DEV_CARD_COST, hand, other.view.you.resources)) {
      // The bank cannot make up for the last card: the opponent, who
      // accepts, does, and the purchase follows.
      await api.move(player.token, game.gameId, g.move_number, tradeFor(DEV_CARD_COST, hand, other.view.you.resources));
    } else if (goals.has('neutral_road') && byType.build_road && !byType.build_road.free) {
      await boardDecision(game, player, g, byType.build_road);
      log(variant, `${player.name} built a road on the board; the neutral road follows`);
    } else if (goals.has('ui_roll') && byType.roll_dice) {
      await buttonDecision(game, player, g, said(g, 'roll_dice'));
      goals.delete('ui_roll');
    } else if (goals.has('ui_end_turn') && byType.end_turn && !goals.has('ui_roll')) {
      await buttonDecision(game, player, g, said(g, 'end_turn'));
      goals.delete('ui_end_turn');
    } else {
      await api.move(player.token, game.gameId, g.move_number, apiAction(g));
    }
  }
  check(goals.size === 0, `${variant}: not reached in ${MAX_DECISIONS} decisions: ${[...goals]}`);
}

// Ada resigns on her page; Bob's page then shows the result and the seed.
async function finish(game) {
  const { ada, bob } = game;
  const g = await api.game(ada.token, game.gameId);
  await sync(game, ada, g.move_number);
  await screenshot(game, ada, 'seat0');
  await ada.page.screenshot({ path: join(artifacts, `${game.variant}-seat0-page.png`), fullPage: true });
  await ada.page.getByRole('button', { name: 'Resign' }).click();
  await eventually('the resignation', async () => (await api.game(ada.token, game.gameId)).status === 'finished');
  const over = await api.game(bob.token, game.gameId);
  check(over.seed, 'the seed is revealed');
  await bob.page.goto(game.url);
  await bob.page.waitForSelector('.seed');
  check((await bob.page.textContent('.seed')) === over.seed, 'the page shows the revealed seed');
  check((await bob.page.textContent('.turn-state')).includes('Bob won'), 'the page shows the winner');
  // An access token the server no longer takes and no refresh cookie to
  // renew it: back to logging in, and from there back to the game.
  await ada.page.context().clearCookies();
  await ada.page.evaluate(() => sessionStorage.setItem('hexpost.token', 'expired'));
  await ada.page.reload();
  await ada.page.waitForURL(`${base}/login?next=${encodeURIComponent(`/games/${game.gameId}`)}`);
  check((await ada.page.textContent('#status')).includes('log in again'), 'the page says why it asks to log in');
  await ada.page.fill('#email', ada.email);
  await ada.page.fill('#password', PASSWORD);
  await ada.page.click('form.auth button[type=submit]');
  await ada.page.waitForURL(game.url);
  await ada.page.waitForSelector('.seed');

  await cancelledGame(ada);

  await bob.page.setViewportSize({ width: 390, height: 844 });
  await bob.page.screenshot({ path: join(artifacts, `${game.variant}-phone.png`), fullPage: true });
  const width = await bob.page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the phone-sized page does not scroll sideways (${width}px)`);
}

// The game's deadline options as the new-game page set them, a vacation
// started and ended on the game page, and the mail settings page.
async function deadlinesAndSettings(game) {
  const { ada, bob } = game;
  const g = await api.game(ada.token, game.gameId);
  check(g.timeout_policy === 'forfeit' && g.vacation_days === 3, 'the game has the options chosen on the page');
  await ada.page.goto(game.url);
  await ada.page.waitForSelector('section.vacation');
  check((await ada.page.textContent('section.vacation')).includes('3 day(s) left'), 'the page shows the vacation left');
  await ada.page.fill('#vacation-days', '2');
  await ada.page.click('section.vacation button[type=submit]');
  await ada.page.waitForSelector('.end-vacation');
  const away = await api.game(bob.token, game.gameId);
  check(away.clocks[0].vacation_until > Date.now(), 'the opponent sees the vacation');
  check((await ada.page.textContent('.deadline')).includes('on vacation until'), 'the page shows the vacation');
  await ada.page.click('.end-vacation');
  await eventually('the vacation to end', async () =>
    (await api.game(ada.token, game.gameId)).clocks[0].vacation_left_ms > 2.9 * 24 * 3600 * 1000);

  await ada.page.click('a[href="/settings"]');
  await ada.page.waitForSelector('form.settings');
  await ada.page.check('#notify-digest');
  await ada.page.fill('#time_zone', 'Mars/Olympus');
  await ada.page.click('form.settings button[type=submit]');
  await ada.page.waitForSelector('form.settings .error:has-text("time zone")');
  await ada.page.fill('#time_zone', 'Europe/Berlin');
  await ada.page.fill('#digest_hour', '7');
  await ada.page.check('#quiet');
  await ada.page.fill('#quiet_start', '22:30');
  await ada.page.fill('#quiet_end', '06:45');
  await ada.page.click('form.settings button[type=submit]');
  await ada.page.waitForSelector('form.settings .saved:has-text("Saved")');
  const saved = await api.request('GET', '/account/notifications', ada.token);
  check(saved.notify === 'digest' && saved.time_zone === 'Europe/Berlin' && saved.digest_hour === 7,
    `the settings page saved ${JSON.stringify(saved)}`);
  check(saved.quiet_hours?.start === '22:30' && saved.quiet_hours?.end === '06:45', 'the quiet hours were saved');
  await ada.page.goto(game.url);
  await ada.page.waitForSelector('svg.board');
}

// A game nobody has accepted yet can be called off from its page.
async function cancelledGame(player) {
  const { page } = player;
  await page.click('a[href="/new"] >> nth=0');
  await page.fill('#opponent_email', `nobody-${Date.now()}@example.org`);
  await page.click('form.new-game button[type=submit]');
  await page.click('text=Open the game');
  await page.getByRole('button', { name: 'Cancel the game' }).click();
  await page.waitForSelector('text=This game is cancelled.');
}

// A game played to its end: both pages show the winner and the seed.
async function finishedGame(game, final) {
  const winner = final[0].view.winner;
  for (const p of [game.ada, game.bob]) {
    await p.page.goto(game.url);
    await p.page.waitForSelector('.seed');
    check((await p.page.textContent('.seed')) === final[0].seed, `${p.name}'s page shows the revealed seed`);
    check((await p.page.textContent('.turn-state')).includes(`${[game.ada, game.bob][winner].name} won`), `${p.name}'s page shows the winner`);
  }
  await screenshot(game, game.ada, 'end');
  await game.ada.page.screenshot({ path: join(artifacts, `${game.variant}-end-page.png`), fullPage: true });
  await game.bob.page.setViewportSize({ width: 390, height: 844 });
  await game.bob.page.screenshot({ path: join(artifacts, `${game.variant}-phone.png`), fullPage: true });
  const width = await game.bob.page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the phone-sized page does not scroll sideways (${width}px)`);
}

async function main() {
  // Playwright gives the browser a fresh profile of its own (it refuses a
  // --user-data-dir argument with launch()).
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  let failed = false;
  try {
    for (const variant of VARIANTS) {
      const started = Date.now();
      const game = await setUp(browser, variant);
      log(variant, `game ${game.gameId} started from the invitation`);
      try {
        if (variant === 'standard') await deadlinesAndSettings(game);
        if (variant === 'ck_for_two') {
          await finishedGame(game, await playCk(game, { api, sync, settled, check, log, pageErrors, screenshot }));
        } else {
          await play(game);
          await finish(game);
        }
      } catch (err) {
        await screenshot(game, game.ada, 'failure').catch(() => {});
        await game.bob.page.screenshot({ path: join(artifacts, `${variant}-failure-bob.png`) }).catch(() => {});
        throw err;
      } finally {
        await game.ada.context.close();
        await game.bob.context.close();
      }
      log(variant, `passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (err) {
    console.error(err.stack || err);
    failed = true;
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
}

main();
