// Cities & Knights decisions on the board: which spots each legal-action
// entry highlights and the action each spot stands for, in the form the
// API's legal-action entries and actions have (docs/clients.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CK_PLAYER_COLUMNS, PROGRESS_TEXT, barbarianOdds, ckBoardChoice, ckBoardKind, ckModeKey, ckPlayerCells, lastEventDie, progressHand,
  spyShown,
} from '../public/app/ck.js';

const game = (legal, extra = {}) => ({
  your_seat: 0,
  players: [{ seat: 0, display_name: 'Ada' }, { seat: 1, display_name: 'Bob' }],
  legal_actions: legal,
  view: {
    buildings: [], players: [{ seat: 0 }, { seat: 1 }, { seat: 2, kind: 'neutral' }, { seat: 3, kind: 'neutral' }],
    variant: { variant: 'ck_for_two', players: [{ progress: { count: 0, cards: {} } }, { progress: { count: 2, cards: null } }], knights: [], tipped: [] },
    ...extra,
  },
});

test('every progress card has its text', () => {
  const cards = ['alchemist', 'crane', 'engineer', 'inventor', 'irrigation', 'medicine', 'mining', 'printer', 'road_building',
    'smith', 'bishop', 'constitution', 'deserter', 'diplomat', 'intrigue', 'saboteur', 'spy', 'warlord', 'wedding',
    'commercial_harbor', 'master_merchant', 'merchant', 'merchant_fleet', 'resource_monopoly', 'trade_monopoly'];
  assert.deepEqual(Object.keys(PROGRESS_TEXT).sort(), [...cards].sort());
  for (const card of cards) assert.ok(PROGRESS_TEXT[card].length > 10, card);
});

test('node entries become one action per clicked node', () => {
  for (const type of ['build_wall', 'recruit_knight', 'activate_knight', 'promote_knight', 'remove_knight', 'lose_city',
    'give_up_knight', 'retreat_knight', 'promote_neutral_knight', 'place_metropolis', 'place_deserter_knight', 'smith_promote']) {
    const legal = { type, nodes: [9, 21] };
    assert.equal(ckBoardKind(legal), 'node', type);
    const choice = ckBoardChoice(game([legal]), legal);
    assert.deepEqual(choice.ids, [9, 21]);
    assert.deepEqual(choice.actions(21).map((a) => a.action), [{ type, node: 21 }]);
  }
  const neutral = { type: 'place_neutral_knight', neutral: 2, nodes: [30] };
  assert.deepEqual(ckBoardChoice(game([neutral]), neutral).actions(30)[0].action, { type: 'place_neutral_knight', neutral: 2, node: 30 });
  assert.match(ckBoardChoice(game([neutral]), neutral).title, /neutral white/);
});

test('a knight move is chosen by its destination, then by which knight goes', () => {
  const legal = { type: 'move_knight', moves: [{ from: 20, to: [9, 31] }, { from: 14, to: [9] }] };
  const choice = ckBoardChoice(game([legal]), legal);
  assert.deepEqual(choice.ids, [9, 31]);
  assert.deepEqual(choice.actions(9).map((a) => a.action), [
    { type: 'move_knight', from: 20, to: 9 }, { type: 'move_knight', from: 14, to: 9 },
  ]);
  assert.deepEqual(choice.actions(31).map((a) => a.action), [{ type: 'move_knight', from: 20, to: 31 }]);
});

test('chasing the robber names the knight and offers each victim', () => {
  const legal = { type: 'chase_robber', knight: 14, targets: [{ hex: 3, victims: [1] }, { hex: 7, victims: [] }] };
  assert.equal(ckModeKey(legal), 'chase_robber:14');
  const choice = ckBoardChoice(game([legal]), legal);
  assert.equal(choice.kind, 'hex');
  assert.deepEqual(choice.actions(3)[0].action, { type: 'chase_robber', knight: 14, hex: 3, victim: 1 });
  assert.deepEqual(choice.actions(7)[0].action, { type: 'chase_robber', knight: 14, hex: 7, victim: null });
});

test('progress cards with a place are played on the board; the others are not board choices', () => {
  const engineer = { type: 'play_progress', play: { card: 'engineer', nodes: [9] } };
  assert.equal(ckModeKey(engineer), 'play_progress:engineer');
  assert.deepEqual(ckBoardChoice(game([engineer]), engineer).actions(9)[0].action,
    { type: 'play_progress', play: { card: 'engineer', node: 9 } });
  const diplomat = { type: 'play_progress', play: { card: 'diplomat', edges: [5] } };
  assert.equal(ckBoardKind(diplomat), 'edge');
  assert.deepEqual(ckBoardChoice(game([diplomat]), diplomat).actions(5)[0].action,
    { type: 'play_progress', play: { card: 'diplomat', edge: 5 } });
  const bishop = { type: 'play_progress', play: { card: 'bishop', targets: [{ hex: 4, victims: [1] }] } };
  assert.deepEqual(ckBoardChoice(game([bishop]), bishop).actions(4)[0].action,
    { type: 'play_progress', play: { card: 'bishop', hex: 4, victim: 1 } });
  for (const card of ['spy', 'warlord', 'alchemist', 'deserter', 'resource_monopoly', 'merchant_fleet']) {
    assert.equal(ckBoardKind({ type: 'play_progress', play: { card } }), null, card);
  }
});

test('the Inventor swaps the clicked hex with any other of a different number', () => {
  const legal = { type: 'play_progress', play: { card: 'inventor', hexes: [{ hex: 1, number: 4 }, { hex: 2, number: 4 }, { hex: 5, number: 10 }] } };
  const choice = ckBoardChoice(game([legal]), legal);
  assert.deepEqual(choice.ids, [1, 2, 5]);
  assert.deepEqual(choice.actions(1).map((a) => a.action.play.hexes), [[1, 5]]);
  assert.deepEqual(choice.actions(5).map((a) => a.action.play.hexes), [[5, 1], [5, 2]]);
});

test('the progress hand pairs each held card with its play entry', () => {
  const g = game([{ type: 'play_progress', play: { card: 'spy' } }]);
  g.view.variant.players[0].progress.cards = { spy: 1, crane: 2 };
  const hand = progressHand(g);
  assert.deepEqual(hand.map((c) => [c.card, c.count, Boolean(c.legal)]), [['spy', 1, true], ['crane', 2, false]]);
});

test('a Spy’s pick offers the cards the log showed that player', () => {
  const log = [
    { events: [{ type: 'progress_hand_shown', seat: 0, of: 1, cards: { crane: 1 } }] },
    { events: [{ type: 'progress_hand_shown', seat: 0, of: 1, cards: { warlord: 1, bishop: 2 } }] },
    { events: [{ type: 'progress_hand_shown', seat: 1, of: 0, cards: null }] },
  ];
  assert.deepEqual(spyShown(log, 0), { warlord: 1, bishop: 2 });
  assert.equal(spyShown(log, 1), null, 'the redacted event shows nothing');
  assert.equal(spyShown([], 0), null);
});

test('the event die and the barbarians’ odds come from the log and the view', () => {
  assert.equal(lastEventDie([]), null);
  const log = [{ events: [{ type: 'event_die_rolled', face: 'ship' }] }, { events: [{ type: 'dice_rolled' }, { type: 'event_die_rolled', face: 'science' }] }, { events: [] }];
  assert.equal(lastEventDie(log), 'science');
  const view = game([]).view;
  view.buildings = [{ node: 1, kind: 'city', owner: 0 }, { node: 2, kind: 'city', owner: 1 }, { node: 3, kind: 'settlement', owner: 1 }];
  view.variant.knights = [{ node: 4, owner: 0, level: 'strong', active: true }, { node: 5, owner: 1, level: 'mighty', active: false }];
  assert.deepEqual(barbarianOdds(view), { cities: 2, defence: 2 });
});

test('the players table shows what Cities & Knights makes public, not development cards', () => {
  assert.deepEqual(CK_PLAYER_COLUMNS.map((c) => c.key), ['resources', 'commodities', 'progress', 'levels', 'knights']);
  const view = {
    variant: {
      variant: 'ck_for_two',
      hand_counts: [{ resources: 4, commodities: 2 }, { resources: 1, commodities: 0 }],
      players: [
        { levels: [1, 0, 3], progress: { count: 2, cards: { spy: 1, crane: 1 } }, laid_down: {}, defenders: 0 },
        { levels: [0, 2, 0], progress: { count: 3, cards: null }, laid_down: { printer: 1 }, defenders: 1 },
      ],
      knights: [
        { node: 9, owner: 0, level: 'strong', active: true },
        { node: 14, owner: 0, level: 'basic', active: false },
        { node: 30, owner: 2, level: 'basic', active: false },
      ],
    },
  };
  assert.deepEqual(ckPlayerCells(view, 0), {
    resources: '4', commodities: '2', progress: '2', levels: '1/0/3', knights: '2 (1 active, strength 3)',
  });
  // The opponent: counts only, and the victory card laid down face up.
  assert.deepEqual(ckPlayerCells(view, 1), {
    resources: '1', commodities: '0', progress: '3 + 1 laid down', levels: '0/2/0', knights: '0',
  });
  // A neutral colour has knights and nothing else.
  assert.deepEqual(ckPlayerCells(view, 2), {
    resources: '–', commodities: '–', progress: '–', levels: '–', knights: '1 (0 active, strength 1)',
  });
});
