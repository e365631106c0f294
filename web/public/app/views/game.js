// The game page: board, decisions, hand, players, log and the fairness
// facts, kept fresh by the game's event stream, or by polling while the
// stream is down.

import { api, currentUser } from '../api.js';
import { h, replace } from '../dom.js';
import { showStatus } from '../nav.js';
import { renderBoard } from '../board.js';
import { boardChoice, describeOffer, isBoardAction, modeKey, renderDecisions } from '../actions.js';
import {
  RESOURCES, clockLines, counts, devCounts, humanize, seatLabel, variantName,
} from '../format.js';
import { Poller } from '../poll.js';
import { CK_PLAYER_COLUMNS, TRACKS as TRACK_NAMES, ckPlayerCells, isCk } from '../ck.js';
import { renderCkPanel } from '../ck_view.js';
import { LiveStream } from '../stream.js';
import { coalesced, serial } from '../serial.js';

const LOG_PAGE = 500;

let topologyPromise = null;
function topology() {
  // The geometry never changes: fetched once per page load.
  topologyPromise ??= api.topology().catch((err) => {
    topologyPromise = null;
    throw err;
  });
  return topologyPromise;
}

export async function gameView(main, id) {
  const state = {
    id, game: null, topo: await topology(), mode: null, pending: null, log: [], busy: false,
  };
  const root = h('div', { class: 'game-page' });
  main.append(root);

  // Only the rows not seen yet, page by page (the API returns 500 at most).
  const refreshLog = async () => {
    for (;;) {
      const after = state.log.length ? state.log[state.log.length - 1].seq : undefined;
      const rows = await api.log(id, after, LOG_PAGE);
      state.log.push(...rows);
      if (rows.length < LOG_PAGE) return;
    }
  };

  const show = () => render(root, state, actions);
  // Polls with the ETag of the last answer: an unchanged game costs a 304
  // without a body. Any change (a move, or only a deadline or vacation)
  // redraws; a half-made choice survives only changes that keep the move.
  const load = async () => {
    const fresh = await api.gameIfChanged(id, state.etag);
    if (!fresh) return false;
    state.etag = fresh.etag;
    const game = fresh.game;
    // A 200 can repeat what is shown (the ETag predates the player's own
    // move); redrawing then would only pull controls from under them.
    if (state.game && JSON.stringify(game) === JSON.stringify(state.game)) return false;
    const moved = !state.game || game.move_number !== state.game.move_number || game.status !== state.game.status;
    state.game = game;
    if (moved) {
      state.pending = null;
      await refreshLog();
    }
    show();
    return moved;
  };

  // The game now, remembering its ETag for the next poll.
  const reload = async () => {
    const fresh = await api.gameIfChanged(id);
    state.etag = fresh.etag;
    return fresh.game;
  };

  // Moves, vacations and refreshes change the page one at a time; the
  // stream's and the poller's news waits for a move under way.
  const exclusive = serial();
  const refresh = coalesced(exclusive, load);

  const actions = {
    setMode: (key) => {
      state.mode = key;
      state.pending = null;
      show();
    },
    pick: (options) => {
      state.pending = options;
      show();
      root.querySelector('.confirm button')?.focus();
    },
    cancel: () => {
      state.pending = null;
      show();
    },
    error: (message) => showStatus(message, 'error'),
    submit: async (action) => {
      if (state.busy) return;
      state.busy = true;
      // An earlier error no longer applies to this attempt.
      showStatus('');
      await exclusive(async () => {
        try {
          await api.move(id, state.game.move_number, action);
          // The whole game again rather than the move's answer: it carries the
          // revealed seed when this move ended the game.
          state.game = await reload();
          state.pending = null;
          await refreshLog();
          showStatus(`Done: ${humanize(action.type)}.`);
          poller.reset();
        } catch (err) {
          showStatus(err.message, 'error');
          // A stale move or an illegal one: show the game as it is now.
          if (err.status === 409 || err.status === 422) await load().catch(() => {});
        } finally {
          state.busy = false;
          show();
        }
      });
    },
    // A vacation changes the clocks, not the move number the poller
    // watches, so the answer is shown at once.
    vacation: (days) => exclusive(async () => {
      try {
        await (days ? api.startVacation(id, days) : api.endVacation(id));
        state.game = await reload();
        showStatus(days ? `Your vacation of ${days} day(s) has started.` : 'Your vacation has ended.');
      } catch (err) {
        showStatus(err.message, 'error');
      }
      show();
    }),
    resign: () => endGame('Resign this game? Your opponent wins.', async () => {
      await api.resign(id);
      return reload();
    }),
    cancelGame: () => endGame('Cancel this game? The invitation stops working.', async () => {
      await api.cancel(id);
      return reload();
    }),
  };

  async function endGame(question, call) {
    if (!window.confirm(question)) return;
    await exclusive(async () => {
      try {
        state.game = await call();
        await refreshLog();
        show();
      } catch (err) {
        showStatus(err.message, 'error');
      }
    });
  }

  await load();
  const poller = new Poller(refresh);
  poller.start();
  const stream = new LiveStream(`/games/${encodeURIComponent(id)}/stream`, {
    since: () => state.game?.move_number,
    onChange: () => refresh().catch(() => poller.reset(true)),
    onUp: () => poller.stop(),
    onDown: () => poller.start(),
  });
  stream.start();
  return () => {
    stream.stop();
    poller.stop();
  };
}

function render(root, state, actions) {
  const game = state.game;
  // Lets a test (or a user script) tell which move the page shows.
  root.dataset.moveNumber = game.move_number;
  const hadFocus = root.contains(document.activeElement);
  const modes = game.legal_actions.filter(isBoardAction);
  if (!modes.some((l) => modeKey(l) === state.mode)) state.mode = modes.length ? modeKey(modes[0]) : null;
  const legal = modes.find((l) => modeKey(l) === state.mode);

  const header = h('header', { class: 'game-head' },
    h('h1', {}, `${variantName(game.variant)}: `, game.players.map((p) => p.display_name).join(' vs ') || 'waiting for an opponent'),
    h('p', { class: 'turn-state', role: 'status' }, turnState(game)),
    deadlineLine(game));

  if (!game.view) {
    const mine = game.created_by === currentUser()?.id;
    replace(root, header,
      h('p', {}, game.status === 'open' ? 'The game starts once the invitation is accepted.' : `This game is ${game.status}.`),
      mine && game.status === 'open' && h('p', {}, h('button', { type: 'button', class: 'danger', onclick: actions.cancelGame }, 'Cancel the game')),
      fairness(game));
    return;
  }

  const choice = legal && {
    ...boardChoice(game, legal),
    pick: (id) => actions.pick(boardChoice(game, legal).actions(id)),
  };
  const board = h('figure', { class: 'board-wrap' },
    renderBoard(state.topo, game, choice),
    h('figcaption', {}, choice ? `${choice.title}: choose a highlighted spot (Tab to move between them, Enter to choose).` : 'The board.'));

  const decisionCtx = {
    mode: state.mode, setMode: actions.setMode, submit: actions.submit, error: actions.error, log: state.log,
  };
  const decide = h('section', { class: 'panel decide', 'aria-labelledby': 'decide-h' },
    h('h2', { id: 'decide-h', tabindex: -1 }, game.legal_actions.length ? 'Your decision' : 'Nothing to decide now'),
    offerLine(game),
    state.pending && h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm' },
      state.pending.map((p) => h('button', { type: 'button', class: 'primary', onclick: () => actions.submit(p.action) }, `${p.label} — confirm`)),
      h('button', { type: 'button', onclick: actions.cancel }, 'Cancel')),
    renderDecisions(game, decisionCtx),
    game.status === 'active' && h('p', {}, h('button', { type: 'button', class: 'danger', onclick: actions.resign }, 'Resign')));

  replace(root,
    header,
    h('div', { class: 'game-grid' },
      board,
      h('div', { class: 'side' }, decide, hand(game), isCk(game) && renderCkPanel(game, state.log, decisionCtx),
        players(game), variantPanel(game), vacationPanel(game, actions))),
    logPanel(state.log),
    fairness(game));

  // Rebuilding the page drops the focused control: a keyboard player
  // continues from the decision heading instead of the top of the page.
  if (hadFocus && !root.contains(document.activeElement)) root.querySelector('#decide-h')?.focus();
}

const DAY_MS = 24 * 3600 * 1000;

// Starting and ending a vacation, which stops my clock in this game.
function vacationPanel(game, actions) {
  if (game.status !== 'active' || game.your_seat === null || game.your_seat === undefined) return null;
  const mine = (game.clocks ?? []).find((c) => c.seat === game.your_seat);
  if (!mine) return null;
  const away = (mine.vacation_until ?? 0) > Date.now();
  const daysLeft = Math.floor(mine.vacation_left_ms / DAY_MS);
  const days = h('input', { id: 'vacation-days', name: 'days', type: 'number', min: 1, max: Math.max(daysLeft, 1), value: 1 });
  return h('section', { class: 'panel vacation', 'aria-labelledby': 'vacation-h' },
    h('h2', { id: 'vacation-h' }, 'Vacation'),
    h('p', {}, `${daysLeft} day(s) left in this game. A vacation stops your clock; the other player sees it.`),
    daysLeft >= 1 && h('form', {
      'aria-label': 'Start a vacation',
      onsubmit: (e) => {
        e.preventDefault();
        actions.vacation(Number(days.value));
      },
    }, h('label', { for: 'vacation-days' }, 'Days'), days, h('button', { type: 'submit' }, 'Start vacation')),
    away && h('p', {}, h('button', { type: 'button', class: 'end-vacation', onclick: () => actions.vacation(0) }, 'End vacation now')));
}

function turnState(game) {
  const v = game.view;
  if (game.status === 'open') return 'Waiting for the opponent to accept.';
  if (game.status === 'finished' || v?.winner !== null && v?.winner !== undefined) {
    const w = v?.winner ?? game.winner_seat;
    return w === null || w === undefined ? 'The game is over.' : `The game is over: ${seatLabel(game, w)} won.`;
  }
  if (!v) return humanize(game.status);
  const roll = v.last_roll ? ` Last roll: ${v.last_roll.join(' + ')} = ${v.last_roll.reduce((a, b) => a + b, 0)}.` : '';
  const waiting = v.awaiting.map((s) => seatLabel(game, s)).join(' and ');
  const you = game.legal_actions.length ? 'Your move.' : `Waiting for ${waiting || 'the server'}.`;
  return `Turn ${v.turn}, ${seatLabel(game, v.active)} is active (${humanize(v.phase.phase)}). ${you}${roll}`;
}

function deadlineLine(game) {
  if (game.status !== 'active') return null;
  const lines = clockLines(game);
  return lines.length ? h('p', { class: 'deadline' }, `${lines.join('; ')}.`) : null;
}

function offerLine(game) {
  const offer = game.view?.offer;
  return offer ? h('p', { class: 'offer' }, `Open trade offer: ${describeOffer(game, offer)}.`) : null;
}

function hand(game) {
  const you = game.view.you;
  if (!you) return null;
  return h('section', { class: 'panel hand', 'aria-labelledby': 'hand-h' },
    h('h2', { id: 'hand-h' }, `Your hand (${you.total_vp} VP)`),
    h('ul', { class: 'cards' }, RESOURCES.map((r) =>
      h('li', { class: `card-${r}`, dataset: { resource: r } }, h('span', {}, r), h('b', {}, you.resources[r] ?? 0)))),
    // Cities & Knights has no development cards: its progress cards are
    // in its own panel.
    !isCk(game) && h('p', {}, `Development cards: ${devCounts(you.dev_cards)}`,
      Object.values(you.new_dev_cards).some(Boolean)
        ? `; new this turn (playable from your next turn): ${devCounts(you.new_dev_cards)}` : ''));
}

// The columns between VP and Road: Cities & Knights shows what it makes
// public instead of development cards and played knights.
function variantCells(game, p) {
  if (isCk(game)) {
    const cells = ckPlayerCells(game.view, p.seat);
    return CK_PLAYER_COLUMNS.map(({ key }) => h('td', { dataset: { col: key } }, cells[key]));
  }
  return [
    h('td', {}, p.public_hand ? counts(p.public_hand) : p.resource_count),
    h('td', {}, p.dev_card_count),
    h('td', {}, p.knights_played),
  ];
}

function players(game) {
  const v = game.view;
  const middle = isCk(game) ? CK_PLAYER_COLUMNS.map((c) => c.title) : ['Cards', 'Dev', 'Knights'];
  return h('section', { class: 'panel players', 'aria-labelledby': 'players-h' },
    h('h2', { id: 'players-h' }, 'Players'),
    h('table', {},
      h('thead', {}, h('tr', {}, ['', 'VP', ...middle, 'Road', 'Left R/S/C'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, v.players.map((p) => h('tr', { class: `seat-${p.seat}`, dataset: { seat: p.seat } },
        h('th', { scope: 'row' }, h('span', { class: `swatch seat-${p.seat}`, 'aria-hidden': 'true' }), seatLabel(game, p.seat),
          p.seat === v.longest_road ? ' ★road' : '', p.seat === v.largest_army ? ' ★army' : ''),
        h('td', {}, p.final_vp ?? p.visible_vp),
        ...variantCells(game, p),
        h('td', {}, p.road_length),
        h('td', {}, `${p.roads_left}/${p.settlements_left}/${p.cities_left}`))))),
    h('p', {}, isCk(game)
      ? `Bank: ${v.bank_total} cards; progress decks: ${v.variant.decks.map((d, i) => `${TRACK_NAMES[i]} ${d.size}`).join(', ')}.`
      : `Bank: ${v.bank_total} cards; development deck: ${v.dev_deck_remaining}.`));
}

function variantPanel(game) {
  const vs = game.view.variant;
  const rules = game.view.rules;
  const items = [];
  if (vs.variant === 'catan_for_two') {
    items.push(`Trade tokens: ${vs.held.map((n, seat) => `${seatLabel(game, seat)} ${n}`).join(', ')}; supply ${vs.supply}.`);
    if (vs.action_used) items.push('A token action was used this turn.');
  } else if (vs.variant === 'neutral_trader') {
    items.push(`Neutral: ${seatLabel(game, vs.neutral)}; chart ${vs.chart_used ? 'used' : 'not used'} this turn.`);
  } else if (vs.variant === 'shadow') {
    items.push(`Fictional players: ${vs.fictional.map((s) => seatLabel(game, s)).join(', ')}.`);
    if (vs.removal_dice.length) items.push(`Removal roll: ${vs.removal_dice.join(', ')} (sides ${vs.removal_sides.join(', ')}).`);
  }
  const phase = game.view.phase;
  if (phase.phase === 'variant') items.push(`Current step: ${humanize(phase.step)}.`);
  if (phase.step === 'auction') {
    items.push(`Auction for ${phase.resource}: ${phase.bids.map((b, i) => `${i}: ${typeof b === 'string' ? b : counts(b.cards)}`).join('; ')}.`);
  }
  items.push(`Rules: ${rules.vp_target} VP to win, discard above ${rules.discard_limit}` +
    `${rules.friendly_robber ? ', friendly robber' : ''}${rules.balanced_dice ? ', balanced dice' : ''}` +
    `${rules.no_player_trade ? ', no trading between players' : ''}, ${rules.board} board.`);
  return h('section', { class: 'panel variant', 'aria-labelledby': 'variant-h' },
    h('h2', { id: 'variant-h' }, variantName(rules.variant)), items.map((t) => h('p', {}, t)));
}

function logPanel(log) {
  // The server words each event (`text`), as its mails do.
  const lines = log.flatMap((row) => row.text.map((text) => ({ seq: row.seq, text }))).reverse();
  return h('section', { class: 'panel log', 'aria-labelledby': 'log-h' },
    h('h2', { id: 'log-h' }, 'What happened'),
    h('ol', { reversed: true, class: 'events' }, lines.slice(0, 200).map((l) => h('li', { dataset: { seq: l.seq } }, l.text))));
}

function fairness(game) {
  return h('section', { class: 'panel fairness', 'aria-labelledby': 'fair-h' },
    h('h2', { id: 'fair-h' }, 'Verifiable dice'),
    h('p', {}, 'Seed commitment (SHA-256): ', h('code', { class: 'seed-hash' }, game.seed_hash)),
    game.seed ? h('p', {}, 'Seed, revealed now the game is over: ', h('code', { class: 'seed' }, game.seed))
      : h('p', {}, 'The seed itself is revealed when the game ends, so anyone can replay every roll.'),
    game.chain_head && h('p', {}, 'Log chain head: ', h('code', {}, game.chain_head)),
    h('p', {}, `Playing as ${currentUser()?.display_name ?? '?'}; game ${game.id}.`));
}
