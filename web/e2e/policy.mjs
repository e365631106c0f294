// How the test moves a game on between the decisions it makes on the
// pages: roll, take the simplest answer to anything asked, and end the turn
// without building, so that hands grow (which brings discards, trades and
// development cards within reach).

export const RESOURCES = ['brick', 'lumber', 'wool', 'grain', 'ore'];

export function total(cards) {
  return RESOURCES.reduce((sum, r) => sum + (cards?.[r] ?? 0), 0);
}

export const DEV_CARD_COST = ['ore', 'wool', 'grain'];
export const ROAD_COST = ['brick', 'lumber'];

// A maritime trade that brings a missing card of `cost` for cards the cost
// can spare (all of a kind it does not need, all but one of a kind it
// does), if the bank offers one. A board where neither player touches the
// one terrain of a missing kind leaves its harbor trades as the only
// source, and those may be for a kind the cost needs too.
export function bankTrade(legal, hand, cost) {
  const missing = cost.filter((r) => !hand[r]);
  for (const option of legal.options) {
    const spare = (hand[option.give] ?? 0) - (cost.includes(option.give) ? 1 : 0);
    if (spare < option.ratio) continue;
    const receive = option.receive.find((r) => missing.includes(r));
    if (receive) return { type: 'maritime_trade', give: option.give, receive, ratio: option.ratio };
  }
  return null;
}

// An offer to the opponent that completes `cost`: the one card of it I
// lack, which they hold, for a card the cost can spare; or null. The test
// plays both sides and accepts every offer, so the purchase follows at
// once (an offer for one card of several missing would only pass cards
// to and fro, as both players want the same purchase).
export function tradeFor(cost, mine, theirs) {
  const missing = cost.filter((r) => !mine[r]);
  if (missing.length !== 1 || !(theirs[missing[0]] > 0)) return null;
  const give = RESOURCES.find((r) => (mine[r] ?? 0) > (cost.includes(r) ? 1 : 0));
  if (!give) return null;
  return { type: 'offer_trade', give: { [give]: 1 }, receive: { [missing[0]]: 1 } };
}

// One card of mine for one of another resource the opponent holds (so
// they can accept), or null.
export function tradeProposal(mine, theirs) {
  for (const give of RESOURCES.filter((r) => mine[r] > 0)) {
    const receive = RESOURCES.find((r) => r !== give && theirs[r] > 0);
    if (receive) return { give: { [give]: 1 }, receive: { [receive]: 1 } };
  }
  return null;
}

// Every choice the policies make comes from one stream seeded by
// E2E_POLICY_SEED (default 1): with the game's seed fixed too (the Cities
// & Knights game, tests/web_e2e.rs), a game is the same every run.
// mulberry32: 32 bits of state are plenty for picking among a few spots.
let stream = Number(process.env.E2E_POLICY_SEED ?? 1) >>> 0;
export function random() {
  stream = (stream + 0x6d2b79f5) >>> 0;
  let t = stream;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export const pick = (items) => items[Math.floor(random() * items.length)];

// `n` cards of the hand, at random, among `kinds`.
export function takeCards(hand, n, kinds = RESOURCES) {
  const cards = kinds.flatMap((r) => Array(hand[r] ?? 0).fill(r));
  const out = {};
  for (let i = 0; i < n; i += 1) {
    const [r] = cards.splice(Math.floor(random() * cards.length), 1);
    out[r] = (out[r] ?? 0) + 1;
  }
  return out;
}

export function apiAction(game) {
  const legal = Object.fromEntries(game.legal_actions.map((l) => [l.type, l]));
  const hand = game.view.you.resources;
  const plain = (type) => ({ type });
  if (legal.roll_dice) return plain('roll_dice');
  if (legal.discard) return { type: 'discard', cards: takeCards(hand, legal.discard.count) };
  if (legal.forced_trade_give) return { type: 'forced_trade_give', cards: takeCards(hand, legal.forced_trade_give.count) };
  for (const type of ['move_robber']) {
    if (legal[type]) {
      const target = pick(legal[type].targets);
      return { type, hex: target.hex, victim: target.victims.length ? pick(target.victims) : null };
    }
  }
  for (const type of ['build_neutral_settlement', 'build_neutral_road', 'build_settlement', 'build_road']) {
    const l = legal[type];
    if (l && (l.free || type.includes('neutral'))) {
      const action = type.endsWith('road') ? { type, edge: pick(l.edges) } : { type, node: pick(l.nodes) };
      if (l.neutral !== undefined) action.neutral = l.neutral;
      return action;
    }
  }
  if (legal.vote_reroll) return { type: 'vote_reroll', reroll: false };
  for (const type of ['decline_neutral_trade', 'decline_trade', 'pass_bid', 'concede', 'withdraw_trade', 'end_turn']) {
    if (legal[type]) return plain(type);
  }
  throw new Error(`no simple answer to ${JSON.stringify(game.legal_actions)}`);
}
