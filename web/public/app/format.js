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
    neutral_trader: 'Neutral trader', shadow: 'Shadow players', ck_for_two: 'Cities & Knights for two',
  }[id] ?? humanize(id);
}

// Real players by display name; automated seats by their kind and colour,
// as the server's sentences name them.
export function seatLabel(game, seat) {
  if (seat === null || seat === undefined) return 'nobody';
  const player = game.players?.find((p) => p.seat === seat);
  if (player) return player.display_name;
  const kind = game.view?.players?.[seat]?.kind;
  const colour = COLOURS[seat] ?? `seat ${seat}`;
  if (kind === 'fictional') return `fictional ${colour}`;
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
