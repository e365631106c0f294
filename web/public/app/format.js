// Words for what the API returns: seats, resources, events, times.

export const RESOURCES = ['brick', 'lumber', 'wool', 'grain', 'ore'];
export const DEV_CARDS = ['knight', 'road_building', 'year_of_plenty', 'monopoly', 'victory_point'];

const COLOURS = ['red', 'blue', 'white', 'orange'];

export function humanize(id) {
  return String(id).replaceAll('_', ' ');
}

export function variantName(id) {
  return {
    standard: 'Standard', duel: 'Duel', catan_for_two: 'Catan for two',
    neutral_trader: 'Neutral trader', shadow: 'Shadow players',
  }[id] ?? humanize(id);
}

// Real players by display name; automated seats by their kind and colour.
export function seatLabel(game, seat) {
  if (seat === null || seat === undefined) return 'nobody';
  const player = game.players?.find((p) => p.seat === seat);
  if (player) return player.display_name;
  const kind = game.view?.players?.[seat]?.kind;
  const colour = COLOURS[seat] ?? `seat ${seat}`;
  if (kind === 'fictional') return `fictional player (${colour})`;
  return `neutral ${colour}`;
}

export function counts(cards) {
  if (!cards) return 'hidden cards';
  const parts = RESOURCES.filter((r) => cards[r]).map((r) => `${cards[r]} ${r}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

export function devCounts(cards) {
  const parts = DEV_CARDS.filter((c) => cards?.[c]).map((c) => `${cards[c]} ${humanize(c)}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function harborLabel(kind) {
  return kind.kind === 'generic' ? '3:1' : `2:1 ${kind.resource}`;
}

export function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// When the next awaited decision times out, from the server's clocks: the
// reader's own deadline while a decision of theirs is awaited, else the
// earliest one running.
export function deadline(summary) {
  if (summary.status !== 'active') return null;
  const clocks = summary.clocks ?? [];
  const mine = clocks.find((c) => c.seat === summary.your_seat && c.deadline != null);
  if (summary.awaiting_you && mine) return mine.deadline;
  const due = clocks.map((c) => c.deadline).filter((d) => d != null);
  return due.length ? Math.min(...due) : null;
}

// Each seat's deadline and vacation, as every player of the game sees them.
export function clockLines(game, now = Date.now()) {
  return (game.clocks ?? [])
    .filter((c) => c.deadline != null || (c.vacation_until ?? 0) > now)
    .map((c) => {
      const due = c.deadline != null ? `decision due by ${when(c.deadline)}` : 'nothing awaited';
      const away = (c.vacation_until ?? 0) > now ? `, on vacation until ${when(c.vacation_until)}` : '';
      return `${seatLabel(game, c.seat)}: ${due}${away}`;
    });
}

// One event of the log in a sentence. Hidden facts come redacted (null)
// from the server and read as "a card".
export function describeEvent(game, e) {
  const who = (seat) => seatLabel(game, seat);
  const card = (r) => r ?? 'a card';
  switch (e.type) {
    case 'game_started': return `The game started; ${who(e.first)} goes first.`;
    case 'road_built': return `${who(e.seat)} built a road (edge ${e.edge}).`;
    case 'settlement_built': return `${who(e.seat)} built a settlement (node ${e.node}).`;
    case 'city_built': return `${who(e.seat)} built a city (node ${e.node}).`;
    case 'starting_resources': return `${who(e.seat)} received ${counts(e.resources)} to start.`;
    case 'dice_rolled': return `${who(e.seat)} rolled ${e.dice.join(' + ')} = ${e.total}.`;
    case 'second_roll_repeated': return `Second roll repeated (${e.dice.join(' + ')} = ${e.total}).`;
    case 'produced': return `${who(e.seat)} produced ${counts(e.resources)}.`;
    case 'production_withheld': return `The bank could not pay ${e.resource}.`;
    case 'discards_required': return `Discards owed: ${e.owed.map(([s, n]) => `${who(s)} ${n}`).join(', ')}.`;
    case 'discarded': return `${who(e.seat)} discarded ${counts(e.cards)}.`;
    case 'robber_moved': return `${who(e.seat)} moved the robber to hex ${e.hex}.`;
    case 'stole': return `${who(e.thief)} stole ${card(e.resource)} from ${who(e.victim)}.`;
    case 'dev_card_bought': return `${who(e.seat)} bought a development card${e.card ? ` (${humanize(e.card)})` : ''}.`;
    case 'dev_card_played': return `${who(e.seat)} played ${humanize(e.card)}.`;
    case 'year_of_plenty': return `${who(e.seat)} took ${counts(e.resources)} from the bank.`;
    case 'monopoly': return `${who(e.seat)} named ${e.resource} and took ${e.taken.map(([s, n]) => `${n} from ${who(s)}`).join(', ') || 'nothing'}.`;
    case 'maritime_traded': return `${who(e.seat)} traded ${counts(e.gave)} to the bank for ${e.received}.`;
    case 'trade_offered': return `${who(e.seat)} offers ${counts(e.give)} for ${counts(e.receive)}.`;
    case 'trade_accepted': return `${who(e.by)} accepted the trade: ${counts(e.give)} for ${counts(e.receive)}.`;
    case 'trade_declined': return `${who(e.by)} declined the trade.`;
    case 'trade_withdrawn': return `The trade offer ended (${humanize(e.reason)}).`;
    case 'longest_road_changed': return `Longest road: ${who(e.to)} (${e.length}).`;
    case 'largest_army_changed': return `Largest army: ${who(e.to)} (${e.knights} knights).`;
    case 'turn_ended': return `${who(e.seat)} ended the turn.`;
    case 'turn_started': return `Turn ${e.turn}: ${who(e.seat)}.`;
    case 'game_won': return `${who(e.seat)} won with ${e.victory_points} VP.`;
    case 'tokens_earned': return `${who(e.seat)} earned ${e.tokens} trade token(s) (${humanize(e.reason)}).`;
    case 'tokens_paid': return `${who(e.seat)} paid ${e.tokens} trade token(s).`;
    case 'neutral_build_skipped': return `No neutral ${e.piece} could be built.`;
    case 'knight_discarded': return `${who(e.seat)} discarded a played knight.`;
    case 'forced_trade_drew': return `${who(e.seat)} drew ${counts(e.cards)} from ${who(e.from)}.`;
    case 'forced_trade_gave': return `${who(e.seat)} gave ${counts(e.cards)} to ${who(e.to)}.`;
    case 'neutral_converted': return `${who(e.seat)} converted ${counts(e.gave)} into ${e.received}.`;
    case 'roll_off': return `Roll-off (${humanize(e.purpose)}): ${who(e.winner)} won.`;
    case 'chart_rolled': return `${who(e.seat)} rolled ${e.total} on the trade chart.`;
    case 'neutral_traded': return `${who(e.seat)} gave ${counts(e.gave)} to ${who(e.neutral)} for ${e.received}.`;
    case 'neutral_trade_declined': return `${who(e.seat)} declined the neutral's trade.`;
    case 'hexes_removed': return `Hexes removed: ${e.hexes.join(', ') || 'none'} (dice ${e.dice.join(', ')}).`;
    case 'removal_rerolled': return `The removal roll was repeated (${humanize(e.reason)}).`;
    case 'reroll_voted': return `${who(e.seat)} voted ${e.reroll ? 'for' : 'against'} a re-roll.`;
    case 'fictional_turn_started': return `Turn of the ${who(e.seat)}.`;
    case 'card_lost': return `${who(e.seat)} lost ${card(e.resource)} to the bank.`;
    case 'bank_card_taken': return `${who(e.seat)} took ${card(e.resource)} from the bank.`;
    case 'card_offered': return `The fictional player offers ${card(e.resource)}.`;
    case 'auction_opened': return `Auction for ${e.resource}.`;
    case 'bid_submitted': return `${who(e.seat)} placed a bid.`;
    case 'bids_revealed': return `Bids: ${e.bids.map(([s, c]) => `${who(s)} ${c ? counts(c) : 'passed'}`).join('; ')}.`;
    case 'bid_raised': return `${who(e.seat)} raised the bid to ${counts(e.total)}.`;
    case 'conceded': return `${who(e.seat)} conceded the auction.`;
    case 'auction_won': return `${who(e.seat)} won ${e.resource} for ${counts(e.paid)}.`;
    case 'monopoly_from_fictional': return `The fictional players gave ${e.resource} to ${who(e.seat)}.`;
    default: return humanize(e.type);
  }
}
