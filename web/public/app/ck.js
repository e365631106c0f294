// Cities & Knights for two, without the DOM: the words for its cards and
// tracks, and which of its decisions are made by clicking the board (a
// node, an edge or a hex) with the action each clicked spot stands for.
// The panels and the board layer that use this are in ck_view.js.

import { humanize, seatLabel } from './format.js';

export const TRACKS = ['trade', 'politics', 'science'];
export const COMMODITIES = ['paper', 'cloth', 'coin'];
export const CARDS = ['brick', 'lumber', 'wool', 'grain', 'ore', ...COMMODITIES];
const TRACK_COMMODITY = { trade: 'cloth', politics: 'coin', science: 'paper' };
export const KNIGHT_STRENGTH = { basic: 1, strong: 2, mighty: 3 };
export const BARBARIAN_SPACES = 7;

// What each progress card does (RULES.md §6.13), as its holder reads it.
export const PROGRESS_TEXT = {
  alchemist: 'Before your first roll: choose the yellow and red number dice of that roll.',
  crane: 'Played with a city improvement: it costs one commodity less.',
  engineer: 'Build a city wall under one of your cities for free.',
  inventor: 'Swap two different number tokens among 3, 4, 5, 9, 10 and 11.',
  irrigation: 'Take 2 grain for each fields hex touching your settlements or cities.',
  medicine: 'Upgrade a settlement to a city for 2 ore and 1 grain.',
  mining: 'Take 2 ore for each mountains hex touching your settlements or cities.',
  printer: '1 victory point, laid down at once.',
  road_building: 'Build 2 roads for free.',
  smith: 'Promote up to 2 of your knights for free.',
  bishop: 'Move the robber and steal from the opponent.',
  constitution: '1 victory point, laid down at once.',
  deserter: 'The opponent gives up a knight; you may place one of the same strength.',
  diplomat: 'Remove an open road; your own you may place again.',
  intrigue: 'Drive off an opponent’s knight next to your road.',
  saboteur: 'If the opponent has as many victory points as you or more, they discard half their cards.',
  spy: 'Look at the opponent’s progress cards and take one.',
  warlord: 'Activate all your knights for free.',
  wedding: 'If the opponent has more victory points, they give you 2 cards of their choice.',
  commercial_harbor: 'Give the opponent a resource; they give you a commodity.',
  master_merchant: 'If the opponent has more victory points, see their hand and take 2 cards.',
  merchant: 'Place the merchant next to your building: 2:1 for that hex’s resource, 1 VP.',
  merchant_fleet: 'Trade one resource or commodity 2:1 with the bank for the rest of the turn.',
  resource_monopoly: 'The opponent gives you up to 2 of the resource you name.',
  trade_monopoly: 'The opponent gives you 1 of the commodity you name.',
};

export function isCk(game) {
  return game.view?.variant?.variant === 'ck_for_two';
}

export function progressName(card) {
  return humanize(card).replace(/^./, (c) => c.toUpperCase());
}

export function trackCommodity(track) {
  return TRACK_COMMODITY[track];
}

const NODE_ENTRIES = {
  build_wall: 'Build a city wall',
  recruit_knight: 'Recruit a basic knight',
  activate_knight: 'Activate a knight',
  promote_knight: 'Promote a knight',
  remove_knight: 'Take a knight back for trade tokens',
  lose_city: 'Choose the city the barbarians take',
  give_up_knight: 'Give up a knight to the Deserter',
  retreat_knight: 'Retreat your displaced knight',
  promote_neutral_knight: 'Promote a neutral knight',
  place_metropolis: 'Place your metropolis',
  place_deserter_knight: 'Place the deserter’s knight',
  smith_promote: 'Promote a second knight (Smith)',
};

// Progress cards whose parameter is a place on the board, and which.
const PROGRESS_PLACE = {
  engineer: 'node', medicine: 'node', smith: 'node', intrigue: 'node',
  diplomat: 'edge', merchant: 'hex', bishop: 'hex', inventor: 'hex',
};

// Entries that may also be answered with "none" next to the board choice.
export const NONE_ANSWERS = {
  place_deserter_knight: { label: 'Place no knight', action: { type: 'place_deserter_knight', node: null } },
  smith_promote: { label: 'Promote no second knight', action: { type: 'smith_promote', node: null } },
  replace_road: { label: 'Keep the road in your supply', action: { type: 'replace_road', edge: null } },
};

export function ckBoardKind(legal) {
  if (legal.type in NODE_ENTRIES || legal.type === 'place_neutral_knight') return 'node';
  if (legal.type === 'move_knight' || legal.type === 'displace_knight') return 'node';
  if (legal.type === 'chase_robber') return 'hex';
  if (legal.type === 'replace_road') return 'edge';
  if (legal.type === 'play_progress') return PROGRESS_PLACE[legal.play.card] ?? null;
  return null;
}

export function ckModeKey(legal) {
  if (legal.type === 'play_progress') return `play_progress:${legal.play.card}`;
  if (legal.type === 'chase_robber') return `chase_robber:${legal.knight}`;
  return null;
}

export function ckModeTitle(game, legal) {
  if (legal.type in NODE_ENTRIES) return NODE_ENTRIES[legal.type];
  switch (legal.type) {
    case 'place_neutral_knight': return `Place a basic knight for ${seatLabel(game, legal.neutral)}`;
    case 'move_knight': return 'Move a knight';
    case 'displace_knight': return 'Displace a knight';
    case 'chase_robber': return `Chase the robber with the knight at node ${legal.knight}`;
    case 'replace_road': return 'Place your removed road again';
    case 'play_progress': return `Play ${progressName(legal.play.card)}`;
    default: return humanize(legal.type);
  }
}

const uniq = (ids) => [...new Set(ids)].sort((a, b) => a - b);

// Robber-like targets: one action per victim of the chosen hex.
function robberActions(game, targets, what, build) {
  const byHex = new Map(targets.map((t) => [t.hex, t.victims]));
  return {
    ids: [...byHex.keys()],
    actions: (hex) => {
      const victims = byHex.get(hex);
      if (!victims.length) return [{ label: `${what} to hex ${hex}`, action: build(hex, null) }];
      return victims.map((victim) => ({
        label: `${what} to hex ${hex} and steal from ${seatLabel(game, victim)}`,
        action: build(hex, victim),
      }));
    },
  };
}

// Which spots a board entry highlights and the actions each stands for
// (several when one spot leaves a further choice: which knight moves
// there, whom to steal from, which second hex to swap with).
function targetsOf(game, legal) {
  const one = (action) => (label) => [{ label, action }];
  switch (legal.type) {
    case 'move_knight':
    case 'displace_knight': {
      const verb = legal.type === 'move_knight' ? 'Move' : 'Displace with';
      return {
        ids: uniq(legal.moves.flatMap((m) => m.to)),
        actions: (to) => legal.moves.filter((m) => m.to.includes(to)).map(({ from }) => ({
          label: `${verb} the knight at node ${from} to node ${to}`,
          action: { type: legal.type, from, to },
        })),
      };
    }
    case 'chase_robber':
      return robberActions(game, legal.targets, `Chase the robber with the knight at node ${legal.knight}`,
        (hex, victim) => ({ type: 'chase_robber', knight: legal.knight, hex, victim }));
    case 'replace_road':
      return { ids: legal.edges, actions: (edge) => one({ type: 'replace_road', edge })(`Place the road at edge ${edge}`) };
    case 'play_progress':
      return progressTargets(game, legal.play);
    default: {
      const action = (node) => (legal.neutral === undefined
        ? { type: legal.type, node } : { type: legal.type, neutral: legal.neutral, node });
      return {
        ids: legal.nodes,
        actions: (node) => one(action(node))(`${ckModeTitle(game, legal)} at node ${node}`),
      };
    }
  }
}

function progressTargets(game, option) {
  const { card } = option;
  const play = (fields) => ({ type: 'play_progress', play: { card, ...fields } });
  const name = progressName(card);
  switch (card) {
    case 'diplomat':
      return { ids: option.edges, actions: (edge) => [{ label: `${name}: remove the road at edge ${edge}`, action: play({ edge }) }] };
    case 'merchant':
      return { ids: option.hexes, actions: (hex) => [{ label: `${name}: place the merchant on hex ${hex}`, action: play({ hex }) }] };
    case 'bishop':
      return robberActions(game, option.targets, `${name}: move the robber`, (hex, victim) => play({ hex, victim }));
    case 'inventor': {
      const numbers = new Map(option.hexes.map((x) => [x.hex, x.number]));
      return {
        ids: [...numbers.keys()],
        actions: (a) => [...numbers].filter(([b, n]) => b !== a && n !== numbers.get(a)).map(([b, n]) => ({
          label: `${name}: swap the ${numbers.get(a)} on hex ${a} with the ${n} on hex ${b}`,
          action: play({ hexes: [a, b] }),
        })),
      };
    }
    default:
      return { ids: option.nodes, actions: (node) => [{ label: `${name} at node ${node}`, action: play({ node }) }] };
  }
}

// The board choice of a C&K entry, in the form actions.js's boardChoice
// gives: { kind, title, ids, label(id), actions(id) }.
export function ckBoardChoice(game, legal) {
  const kind = ckBoardKind(legal);
  const title = ckModeTitle(game, legal);
  const { ids, actions } = targetsOf(game, legal);
  return { kind, title, ids, label: (id) => `${title}: ${kind} ${id}`, actions };
}

// The progress cards the viewer holds, each with whether (and how) it may
// be played now: the `play_progress` entry for it, if any.
export function progressHand(game) {
  const seat = game.your_seat;
  const cards = game.view?.variant?.players?.[seat]?.progress?.cards ?? {};
  const playable = new Map(game.legal_actions.filter((l) => l.type === 'play_progress').map((l) => [l.play.card, l]));
  return Object.entries(cards).filter(([, n]) => n > 0).map(([card, count]) => ({
    card, count, name: progressName(card), text: PROGRESS_TEXT[card] ?? '', legal: playable.get(card) ?? null,
  }));
}

// The event die's face at the latest throw the log shows, or null.
export function lastEventDie(log) {
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const events = log[i].events ?? [];
    for (let j = events.length - 1; j >= 0; j -= 1) {
      if (events[j]?.type === 'event_die_rolled') return events[j].face;
    }
  }
  return null;
}

// The opponent's progress cards a Spy showed `seat` most recently: the
// log's events carry them to that player only (the view never does).
export function spyShown(log, seat) {
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const shown = (log[i].events ?? []).findLast((e) => e?.type === 'progress_hand_shown' && e.seat === seat);
    if (shown) return shown.cards ?? null;
  }
  return null;
}

// The barbarians' strength (cities on the board) against the active
// knights' (RULES.md §6.6).
export function barbarianOdds(view) {
  const cities = view.buildings.filter((b) => b.kind === 'city' && !view.variant.tipped.includes(b.node)).length;
  const defence = view.variant.knights.filter((k) => k.active && k.owner < 2)
    .reduce((sum, k) => sum + KNIGHT_STRENGTH[k.level], 0);
  return { cities, defence };
}

// The players table's columns in Cities & Knights, in place of the base
// game's cards, development cards and played knights: what RULES.md §6.16
// makes public of each player — resource and commodity counts, how many
// progress cards (and victory cards laid down), the three improvement
// levels and the knights on the board. A neutral colour has only knights.
export const CK_PLAYER_COLUMNS = [
  { key: 'resources', title: 'Resources' },
  { key: 'commodities', title: 'Commodities' },
  { key: 'progress', title: 'Progress' },
  { key: 'levels', title: 'Levels T/P/S' },
  { key: 'knights', title: 'Knights' },
];

export function ckPlayerCells(view, seat) {
  const vs = view.variant;
  const own = vs.knights.filter((k) => k.owner === seat);
  const active = own.filter((k) => k.active).length;
  const knights = own.length
    ? `${own.length} (${active} active, strength ${own.reduce((sum, k) => sum + KNIGHT_STRENGTH[k.level], 0)})`
    : '0';
  const player = vs.players[seat];
  if (!player) return { resources: '–', commodities: '–', progress: '–', levels: '–', knights };
  const counts = vs.hand_counts?.[seat];
  const laid = Object.values(player.laid_down ?? {}).reduce((sum, n) => sum + n, 0);
  return {
    resources: counts ? String(counts.resources) : '?',
    commodities: counts ? String(counts.commodities) : '?',
    progress: `${player.progress.count}${laid ? ` + ${laid} laid down` : ''}`,
    levels: player.levels.join('/'),
    knights,
  };
}
