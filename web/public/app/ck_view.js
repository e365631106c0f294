// Cities & Knights for two on the page: knights, walls, metropolises and
// the merchant on the board; the barbarians, the improvement tracks, the
// commodities and the progress hand beside it; and the controls of its
// decisions that are not a place on the board.

import { h, s } from './dom.js';
import { form } from './controls.js';
import { round, toPixel } from './geometry.js';
import { RESOURCES, humanize, seatLabel } from './format.js';
import {
  BARBARIAN_SPACES, CARDS, COMMODITIES, KNIGHT_STRENGTH, NONE_ANSWERS, TRACKS, barbarianOdds, isCk, lastEventDie,
  progressHand, progressName, spyShown, trackCommodity,
} from './ck.js';

// --- The board layer ---

export function renderCkPieces(topology, game, size) {
  const ck = game.view.variant;
  const layer = s('g', { class: 'ck-pieces', 'aria-hidden': 'true' });
  for (const node of ck.walls) {
    const p = toPixel(topology.nodes[node], size);
    layer.append(s('rect', {
      class: 'wall', x: round(p.x - 15), y: round(p.y + 6), width: 30, height: 6, dataset: { wall: node },
    }));
  }
  ck.metropolises.forEach((node, i) => {
    if (node === null || node === undefined) return;
    const p = toPixel(topology.nodes[node], size);
    layer.append(s('g', { class: `metropolis track-${TRACKS[i]}`, dataset: { metropolis: node } },
      s('path', { d: `M${round(p.x - 5)},${round(p.y - 10)}v-12h10v12z` }),
      s('circle', { cx: round(p.x), cy: round(p.y - 24), r: 3 })));
  });
  for (const k of ck.knights) {
    const p = toPixel(topology.nodes[k.node], size);
    const strength = KNIGHT_STRENGTH[k.level];
    const g = s('g', {
      class: `knight seat-${k.owner} ${k.level}${k.active ? ' active' : ''}`,
      dataset: { knight: k.node, level: k.level, active: String(k.active) },
    }, s('circle', { cx: round(p.x), cy: round(p.y), r: 11, class: 'knight-body' }));
    // One ring per level beyond basic, so strength reads without colour.
    for (let i = 1; i < strength; i += 1) {
      g.append(s('circle', { cx: round(p.x), cy: round(p.y), r: 11 + 3 * i, class: 'knight-ring' }));
    }
    g.append(s('text', { x: round(p.x), y: round(p.y + 4), class: 'knight-level' }, strength));
    layer.append(g);
  }
  if (ck.merchant) {
    const p = toPixel(topology.hexes[ck.merchant.hex], size);
    layer.append(s('path', {
      class: `merchant seat-${ck.merchant.owner}`, dataset: { merchant: ck.merchant.hex },
      d: `M${round(p.x + 14)},${round(p.y + 14)}l8,-18l8,18z`,
    }));
  }
  return layer;
}

export function describeCkPieces(game) {
  const ck = game.view.variant;
  const knights = ck.knights.map((k) =>
    `${seatLabel(game, k.owner)} ${k.level} knight${k.active ? ' (active)' : ''} at node ${k.node}`);
  const walls = ck.walls.map((n) => `city wall at node ${n}`);
  const metros = ck.metropolises.flatMap((n, i) => (n === null || n === undefined ? [] : [`${TRACKS[i]} metropolis at node ${n}`]));
  const merchant = ck.merchant ? [`${seatLabel(game, ck.merchant.owner)}’s merchant on hex ${ck.merchant.hex}`] : [];
  return [...knights, ...walls, ...metros, ...merchant].join('; ') || 'no knights, walls or metropolises';
}

// --- The panels ---

function barbarians(game, log) {
  const ck = game.view.variant;
  const { cities, defence } = barbarianOdds(game.view);
  const face = lastEventDie(log);
  const spaces = Array.from({ length: BARBARIAN_SPACES + 1 }, (_, i) =>
    h('li', { class: i === ck.barbarians ? 'ship' : i === BARBARIAN_SPACES ? 'landing' : '' },
      i === ck.barbarians ? '●' : i === BARBARIAN_SPACES ? '⚔' : '·'));
  return h('div', { class: 'barbarians', dataset: { position: ck.barbarians, attacks: ck.attacks } },
    h('h3', {}, 'Barbarians'),
    h('ol', { class: 'ship-track', 'aria-label': `The ship is on space ${ck.barbarians} of ${BARBARIAN_SPACES}` }, spaces),
    h('p', {}, `Ship on space ${ck.barbarians} of ${BARBARIAN_SPACES}; attacks so far: ${ck.attacks}`
      + `${ck.attacks === 0 ? ' (the robber stays on the desert until the first)' : ''}.`),
    h('p', {}, `Barbarian strength ${cities} (cities) against ${defence} (active knights).`),
    h('p', { class: 'event-die' }, `Event die: ${face ? humanize(face) : 'not thrown yet'}.`));
}

function tracks(game) {
  const ck = game.view.variant;
  const seats = ck.players.map((_, seat) => seat);
  return h('table', { class: 'tracks' },
    h('caption', {}, 'City improvements (levels 0–5)'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''),
      TRACKS.map((t) => h('th', { scope: 'col' }, `${humanize(t)} (${trackCommodity(t)})`)))),
    h('tbody', {}, seats.map((seat) => h('tr', { dataset: { seat } },
      h('th', { scope: 'row' }, h('span', { class: `swatch seat-${seat}`, 'aria-hidden': 'true' }), seatLabel(game, seat)),
      TRACKS.map((t, i) => {
        const level = ck.players[seat].levels[i];
        const metro = ck.metropolises[i];
        const holds = metro !== null && metro !== undefined
          && game.view.buildings.some((b) => b.node === metro && b.owner === seat);
        return h('td', { dataset: { track: t, level } },
          h('meter', { min: 0, max: 5, value: level, 'aria-label': `${seatLabel(game, seat)} ${t}` }),
          ` ${level}${holds ? ' ★metropolis' : ''}`);
      })))));
}

function others(game) {
  const ck = game.view.variant;
  const counts = ck.hand_counts ?? [];
  return h('ul', { class: 'ck-facts' },
    ck.players.map((p, seat) => h('li', { dataset: { seat } },
      `${seatLabel(game, seat)}: ${counts[seat]?.resources ?? '?'} resource and ${counts[seat]?.commodities ?? '?'} commodity cards, `
      + `${p.progress.count} progress card(s), ${ck.tokens.held[seat]} trade token(s), ${p.defenders} Defender(s)`
      + `${Object.keys(p.laid_down).length ? `, laid down: ${Object.keys(p.laid_down).map(progressName).join(', ')}` : ''}.`)),
    h('li', {}, `Progress decks: ${TRACKS.map((t, i) => `${t} ${ck.decks[i].size}`).join(', ')}; `
      + `Defenders left ${ck.defenders_left}; token supply ${ck.tokens.supply}.`),
    ck.fleet.length > 0 && h('li', {}, `Merchant Fleet this turn: ${ck.fleet.join(', ')} at 2:1.`));
}

// The viewer's own commodities and progress cards, each card with its text
// and, where it may be played now, a button (a place chosen on the board
// after it) or the small form it needs.
function ownHand(game, ctx) {
  const you = game.view.you;
  if (!you) return null;
  const cards = progressHand(game);
  return h('div', { class: 'ck-hand' },
    h('h3', {}, 'Commodities'),
    h('ul', { class: 'cards' }, COMMODITIES.map((c) =>
      h('li', { class: `card-${c}`, dataset: { commodity: c } }, h('span', {}, c), h('b', {}, you.resources[c] ?? 0)))),
    h('h3', {}, `Progress cards (${cards.reduce((n, c) => n + c.count, 0)} of 4)`),
    cards.length ? h('ul', { class: 'progress-hand' }, cards.map((c) => h('li', { dataset: { progress: c.card } },
      h('b', {}, `${c.name}${c.count > 1 ? ` ×${c.count}` : ''}`), ' — ', c.text,
      c.legal && playControl(game, c.legal, ctx)))) : h('p', {}, 'None.'));
}

export function renderCkPanel(game, log, ctx) {
  return h('section', { class: 'panel ck', 'aria-labelledby': 'ck-h' },
    h('h2', { id: 'ck-h' }, 'Cities & Knights'),
    barbarians(game, log), tracks(game), others(game), ownHand(game, ctx));
}

// --- Decisions ---

function button(label, onclick, dataset) {
  return h('button', { type: 'button', onclick, dataset }, label);
}

function select(name, label, options, text = humanize) {
  const el = h('select', { name, id: name }, options.map((o) => h('option', { value: o }, text(o))));
  return { el: h('label', { for: name }, label, ' ', el), value: () => el.value };
}

// A number field per card kind, bounded by `limits` (a hand).
function cardsPicker(name, legend, limits, kinds = CARDS) {
  const inputs = {};
  const fields = kinds.map((c) => {
    const max = limits[c] ?? 0;
    inputs[c] = h('input', {
      type: 'number', min: 0, max, value: 0, name: `${name}-${c}`, id: `${name}-${c}`, inputmode: 'numeric', disabled: max === 0,
    });
    return h('label', { class: 'count', for: `${name}-${c}` }, h('span', {}, c), inputs[c]);
  });
  const value = () => Object.fromEntries(kinds.map((c) => [c, Number(inputs[c].value) || 0]).filter(([, n]) => n > 0));
  return {
    el: h('fieldset', { class: 'counts', dataset: { picker: name } }, h('legend', {}, legend), fields),
    value,
    total: () => Object.values(value()).reduce((a, b) => a + b, 0),
  };
}

function exactCards(ctx, key, title, picker, count, build, submitLabel) {
  return form(key, title, picker.el, () => {
    if (picker.total() !== count) return ctx.error(`Choose exactly ${count} card(s); you chose ${picker.total()}.`);
    return ctx.submit(build(picker.value()));
  }, submitLabel);
}

// The play control of a progress card: a place on the board selects the
// board mode; a card without parameters plays at once; the others ask in
// a small form.
function playControl(game, legal, ctx) {
  const { card } = legal.play;
  const name = progressName(card);
  const play = (fields = {}) => ctx.submit({ type: 'play_progress', play: { card, ...fields } });
  const data = { progress: card };
  switch (card) {
    case 'engineer': case 'medicine': case 'smith': case 'intrigue':
    case 'diplomat': case 'merchant': case 'bishop': case 'inventor':
      return button(`Play ${name} (choose on the board)`, () => ctx.setMode(`play_progress:${card}`), data);
    case 'alchemist': {
      const faces = [1, 2, 3, 4, 5, 6];
      const yellow = select('alchemist-yellow', 'Yellow die', faces, String);
      const red = select('alchemist-red', 'Red die', faces, String);
      return form('play_progress:alchemist', `Play ${name}`, [yellow.el, red.el],
        () => play({ yellow: Number(yellow.value()), red: Number(red.value()) }), `Play ${name}`);
    }
    case 'deserter':
      return h('div', { class: 'choices' }, legal.play.targets.flatMap((t) => (t.nodes.length
        ? t.nodes.map((node) => button(`Play ${name} on ${seatLabel(game, t.target)}’s knight at node ${node}`,
          () => play({ target: t.target, node }), data))
        : [button(`Play ${name} on ${seatLabel(game, t.target)}`, () => play({ target: t.target, node: null }), data)])));
    case 'commercial_harbor': {
      const pick = select('harbor-resource', 'Give', legal.play.resources);
      return form('play_progress:commercial_harbor', `Play ${name}`, pick.el, () => play({ resource: pick.value() }), `Play ${name}`);
    }
    case 'merchant_fleet': {
      const pick = select('fleet-card', 'Trade 2:1', legal.play.cards);
      return form('play_progress:merchant_fleet', `Play ${name}`, pick.el, () => play({ named: pick.value() }), `Play ${name}`);
    }
    case 'resource_monopoly': {
      const pick = select('monopoly-resource', 'Resource', RESOURCES);
      return form('play_progress:resource_monopoly', `Play ${name}`, pick.el, () => play({ resource: pick.value() }), `Play ${name}`);
    }
    case 'trade_monopoly': {
      const pick = select('monopoly-commodity', 'Commodity', COMMODITIES);
      return form('play_progress:trade_monopoly', `Play ${name}`, pick.el, () => play({ commodity: pick.value() }), `Play ${name}`);
    }
    default:
      return button(`Play ${name}`, () => play(), data);
  }
}

// The "none" answer beside a board choice that allows one.
export function ckNoneAnswer(legal, ctx) {
  const none = NONE_ANSWERS[legal.type];
  return none ? button(none.label, () => ctx.submit(none.action), { action: legal.type }) : null;
}

// The control of a C&K decision that is not a place on the board, or
// undefined when the entry is not one of C&K's (actions.js handles it).
export function ckDecisionControl(game, legal, ctx) {
  if (!isCk(game)) return undefined;
  const hand = game.view.you?.resources ?? {};
  const simple = (label, action = { type: legal.type }) => button(label, () => ctx.submit(action), { action: legal.type });
  switch (legal.type) {
    case 'play_progress':
      // Played from the progress hand, where its text is.
      return null;
    case 'buy_improvement':
      return h('div', { class: 'decision', dataset: { action: 'buy_improvement' } },
        h('h4', {}, 'City improvements'),
        legal.options.map((o) => simple(
          `Improve ${o.track} to level ${o.level}${o.crane ? ' with a Crane' : ''}`,
          { type: 'buy_improvement', track: o.track, crane: o.crane },
        )));
    case 'bank_trade': {
      const choices = legal.options.flatMap((o) => o.receive.map((r) => ({ give: o.give, ratio: o.ratio, receive: r })));
      const pick = select('bank-trade', 'Trade', choices.map((_, i) => i), (i) => {
        const c = choices[i];
        return `${c.ratio} ${c.give} → 1 ${c.receive}`;
      });
      return form('bank_trade', 'Trade with the bank', pick.el, () => ctx.submit({ type: 'bank_trade', ...choices[Number(pick.value())] }), 'Trade');
    }
    case 'forced_trade_resources':
      return simple(`Forced trade of resources (${legal.cost} token${legal.cost > 1 ? 's' : ''})`);
    case 'discard_progress': {
      const held = progressHand(game).map((c) => c.card);
      const pick = select('discard-progress', 'Card', held, progressName);
      return form('discard_progress', 'Discard a progress card (you hold more than 4)', pick.el,
        () => ctx.submit({ type: 'discard_progress', card: pick.value() }), 'Discard');
    }
    case 'draw_progress':
      return h('div', { class: 'decision', dataset: { action: 'draw_progress' } },
        h('h4', {}, 'Tied defenders: draw a progress card'),
        legal.tracks.map((track) => simple(`Draw from the ${track} deck`, { type: 'draw_progress', track })));
    case 'aqueduct_pick': {
      const pick = select('aqueduct', 'Resource', RESOURCES);
      return form('aqueduct_pick', 'Aqueduct: take a resource from the bank', [pick.el,
        button('Take none', () => ctx.submit({ type: 'aqueduct_pick', resource: null }), { action: 'aqueduct_none' })],
      () => ctx.submit({ type: 'aqueduct_pick', resource: pick.value() }), 'Take it');
    }
    case 'give_cards': {
      const kinds = legal.commodities_only ? COMMODITIES : CARDS;
      const picker = cardsPicker('give', `Give ${legal.count} card(s)`, hand, kinds);
      return exactCards(ctx, 'give_cards', 'Give cards to your opponent', picker, legal.count,
        (cards) => ({ type: 'give_cards', cards }), 'Give');
    }
    case 'take_cards': {
      const shown = game.view.variant.shown_hand ?? {};
      const picker = cardsPicker('take', `Take ${legal.count} card(s)`, shown);
      return exactCards(ctx, 'take_cards', 'Master Merchant: take cards from the hand shown', picker, legal.count,
        (cards) => ({ type: 'take_cards', cards }), 'Take');
    }
    case 'spy_take': {
      const shown = spyShown(ctx.log ?? [], game.your_seat) ?? {};
      const held = Object.keys(shown).filter((c) => shown[c] > 0);
      return h('div', { class: 'decision', dataset: { action: 'spy_take' } },
        h('h4', {}, 'Spy: take one of your opponent’s progress cards'),
        held.map((card) => simple(`Take ${progressName(card)}`, { type: 'spy_take', card })),
        simple('Take none', { type: 'spy_take', card: null }));
    }
    case 'discard':
    case 'forced_trade_give': {
      // Commodities count in C&K's hands; the base picker knows resources only.
      const picker = cardsPicker(legal.type === 'discard' ? 'discard' : 'give', `${legal.type === 'discard' ? 'Discard' : 'Give'} ${legal.count} card(s)`, hand);
      return exactCards(ctx, legal.type, legal.type === 'discard' ? 'Discard' : 'Forced trade: give cards', picker, legal.count,
        (cards) => ({ type: legal.type, cards }), legal.type === 'discard' ? 'Discard' : 'Give');
    }
    default:
      return undefined;
  }
}
