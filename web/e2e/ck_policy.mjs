// What the browser test does next in a game of Cities & Knights for two,
// where every decision is made on the pages: a plan of one gesture (a spot
// on the board, a button, a form), chosen to end the game soon. It builds
// cities and settlements first, buys improvements, walls and knights,
// plays the progress cards it may, and trades with the bank towards a city
// or a settlement.

import { pick, takeCards as takeAny } from './policy.mjs';

export const CARDS = ['brick', 'lumber', 'wool', 'grain', 'ore', 'paper', 'cloth', 'coin'];
const CITY = { ore: 3, grain: 2 };
const SETTLEMENT = { brick: 1, lumber: 1, wool: 1, grain: 1 };

// Place entries by their kind of spot, and the spots each offers.
export function spots(legal) {
  switch (legal.type) {
    case 'move_robber': case 'play_knight': return { kind: 'hex', ids: legal.targets.map((t) => t.hex) };
    case 'chase_robber': return { kind: 'hex', ids: legal.targets.map((t) => t.hex) };
    case 'move_knight': case 'displace_knight':
      return { kind: 'node', ids: [...new Set(legal.moves.flatMap((m) => m.to))] };
    case 'build_road': case 'build_neutral_road': case 'replace_road': return { kind: 'edge', ids: legal.edges };
    case 'play_progress': {
      const p = legal.play;
      if (p.nodes) return { kind: 'node', ids: p.nodes };
      if (p.edges) return { kind: 'edge', ids: p.edges };
      if (p.card === 'merchant') return { kind: 'hex', ids: p.hexes };
      if (p.card === 'bishop') return { kind: 'hex', ids: p.targets.map((t) => t.hex) };
      if (p.card === 'inventor') return { kind: 'hex', ids: p.hexes.map((x) => x.hex) };
      return null;
    }
    default:
      return legal.nodes ? { kind: 'node', ids: legal.nodes } : null;
  }
}

export function modeKey(legal) {
  if (legal.type === 'play_progress') return `play_progress:${legal.play.card}`;
  if (legal.type === 'chase_robber') return `chase_robber:${legal.knight}`;
  return legal.neutral === undefined ? legal.type : `${legal.type}:${legal.neutral}`;
}

export function total(cards) {
  return CARDS.reduce((sum, c) => sum + (cards?.[c] ?? 0), 0);
}

// `n` cards of the hand, at random, commodities included.
export function takeCards(hand, n) {
  return takeAny(hand, n, CARDS);
}

// A bank trade that brings a card `cost` lacks for cards it can spare.
export function tradeToward(options, hand, cost) {
  const lacking = Object.keys(cost).filter((c) => (hand[c] ?? 0) < cost[c]);
  if (!lacking.length) return -1;
  const choices = options.flatMap((o) => o.receive.map((receive) => ({ ...o, receive })));
  return choices.findIndex((o) => lacking.includes(o.receive)
    && (hand[o.give] ?? 0) - (cost[o.give] ?? 0) >= o.ratio);
}

// Cards that may be played by a plain button, or on the board.
const PLAIN_PROGRESS = new Set(['irrigation', 'mining', 'road_building', 'warlord', 'spy', 'wedding',
  'saboteur', 'master_merchant']);

function mine(g, node) {
  return g.view.buildings.some((b) => b.node === node && b.owner === g.your_seat);
}

// The next gesture for `g` (a seat's game as the API returns it).
// `trades`: bank trades made this turn, so a policy short of cards stops.
export function nextGesture(g, trades) {
  const legal = g.legal_actions;
  const by = Object.fromEntries(legal.map((l) => [l.type, l]));
  const hand = g.view.you.resources;
  const board = (l, id) => ({ board: l, id: id ?? pick(spots(l).ids) });
  const button = (name) => ({ button: name });

  // Decisions that interrupt the turn: answered at once.
  if (by.discard) return { form: 'discard', fields: { discard: takeCards(hand, by.discard.count) } };
  if (by.give_cards) {
    const pool = by.give_cards.commodities_only
      ? Object.fromEntries(['paper', 'cloth', 'coin'].map((c) => [c, hand[c] ?? 0])) : hand;
    return { form: 'give_cards', fields: { give: takeCards(pool, by.give_cards.count) } };
  }
  if (by.take_cards) {
    return { form: 'take_cards', fields: { take: takeCards(g.view.variant.shown_hand, by.take_cards.count) } };
  }
  if (by.draw_progress) return button(`Draw from the ${by.draw_progress.tracks[0]} deck`);
  if (by.aqueduct_pick) return { submit: 'aqueduct_pick' };
  if (by.spy_take) return button('Take none');
  if (by.discard_progress) return { submit: 'discard_progress' };
  for (const type of ['lose_city', 'retreat_knight', 'give_up_knight', 'place_neutral_knight', 'promote_neutral_knight',
    'place_metropolis', 'place_deserter_knight', 'smith_promote', 'replace_road', 'move_robber', 'chase_robber']) {
    if (by[type]) return board(by[type]);
  }
  if (by.build_road?.free) return board(by.build_road);
  if (by.build_neutral_road) return board(by.build_neutral_road);
  if (by.build_neutral_settlement) return board(by.build_neutral_settlement);
  // The base game's buttons, by the action they send: their labels are
  // the decisions panel's to word.
  if (by.accept_trade) return { click: 'button[data-action="accept_trade"]' };
  if (by.roll_dice) return { click: 'button[data-action="roll_dice"]' };
  if (by.forced_trade_give) return { form: 'forced_trade_give', fields: { give: takeCards(hand, by.forced_trade_give.count) } };

  // The main phase.
  if (by.build_city) return board(by.build_city);
  if (by.build_settlement) return board(by.build_settlement);
  if (by.buy_improvement) {
    const o = by.buy_improvement.options[0];
    return button(`Improve ${o.track} to level ${o.level}${o.crane ? ' with a Crane' : ''}`);
  }
  const progress = legal.filter((l) => l.type === 'play_progress');
  const playable = progress.find((l) => PLAIN_PROGRESS.has(l.play.card) || spots(l));
  if (playable) {
    return spots(playable) ? { board: playable, id: pick(spots(playable).ids), from: 'hand' }
      : { button: `Play ${playable.play.card.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase())}` };
  }
  const knights = g.view.variant.knights.filter((k) => k.owner === g.your_seat);
  if (by.recruit_knight && knights.length < 2) return board(by.recruit_knight);
  if (by.activate_knight) return board(by.activate_knight);
  if (by.build_wall && !g.view.variant.walls.some((n) => mine(g, n))) return board(by.build_wall);
  if (by.promote_knight && !knights.some((k) => k.level !== 'basic')) return board(by.promote_knight);
  if (by.bank_trade && trades < 3) {
    const goal = g.view.buildings.some((b) => b.owner === g.your_seat && b.kind === 'settlement') ? CITY : SETTLEMENT;
    const index = tradeToward(by.bank_trade.options, hand, goal);
    if (index >= 0) return { trade: index };
  }
  const settlements = g.view.buildings.filter((b) => b.owner === g.your_seat).length;
  if (by.build_road && !by.build_settlement && settlements < 4 && g.view.roads.filter((r) => r.owner === g.your_seat).length < 8) {
    return board(by.build_road);
  }
  if (by.end_turn) return { click: 'button[data-action="end_turn"]' };
  throw new Error(`no gesture for ${JSON.stringify(legal)}`);
}
