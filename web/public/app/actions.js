// The decisions panel: one control per entry of `legal_actions`. Choices
// made on the board (roads, settlements, cities, the robber) become board
// modes; everything else is a button or a small form.

import { h } from './dom.js';
import { form } from './controls.js';
import { RESOURCES, counts, humanize, seatLabel } from './format.js';
import { ckBoardChoice, ckBoardKind, ckModeKey, ckModeTitle } from './ck.js';
import { ckDecisionControl, ckNoneAnswer } from './ck_view.js';

const BOARD_KINDS = {
  build_road: 'edge',
  build_settlement: 'node',
  build_city: 'node',
  build_neutral_road: 'edge',
  build_neutral_settlement: 'node',
  move_robber: 'hex',
  play_knight: 'hex',
};

export function isBoardAction(legal) {
  return legal.type in BOARD_KINDS || ckBoardKind(legal) !== null;
}

export function modeKey(legal) {
  const ck = ckModeKey(legal);
  if (ck) return ck;
  return legal.neutral === undefined ? legal.type : `${legal.type}:${legal.neutral}`;
}

// The server's phrase for `legal` (`legal_action_text`: the words the mails
// ask for the same decision with), capitalised; undefined when it sent none.
export function decisionText(game, legal) {
  const text = game.legal_action_text?.[game.legal_actions.indexOf(legal)];
  return text ? text[0].toUpperCase() + text.slice(1) : undefined;
}

export function modeTitle(game, legal) {
  // In set-up a player also places pieces for an automated seat.
  const owner = game.view?.setup_step?.owner;
  const forOther = owner !== undefined && owner !== game.your_seat;
  if (!forOther && decisionText(game, legal)) return decisionText(game, legal);
  const free = owner !== undefined && owner !== game.your_seat
    ? ` for ${seatLabel(game, owner)}` : legal.free ? ' (free)' : '';
  switch (legal.type) {
    case 'build_road': return `Build a road${free}`;
    case 'build_settlement': return `Build a settlement${free}`;
    case 'build_city': return 'Build a city';
    case 'build_neutral_road': return `Build a road for ${seatLabel(game, legal.neutral)}`;
    case 'build_neutral_settlement': return `Build a settlement for ${seatLabel(game, legal.neutral)}`;
    case 'move_robber': return 'Move the robber';
    case 'play_knight': return 'Play a knight (move the robber)';
    default: return ckBoardKind(legal) ? ckModeTitle(game, legal) : humanize(legal.type);
  }
}

// What the board highlights for a board action, and the action each target
// stands for. A robber hex with several possible victims offers one action
// per victim.
export function boardChoice(game, legal) {
  if (!(legal.type in BOARD_KINDS)) return ckBoardChoice(game, legal);
  const kind = BOARD_KINDS[legal.type];
  const title = modeTitle(game, legal);
  if (kind === 'hex') {
    const byHex = new Map(legal.targets.map((t) => [t.hex, t.victims]));
    return {
      kind, title, ids: [...byHex.keys()],
      label: (hex) => `${title}: hex ${hex}`,
      actions: (hex) => {
        const victims = byHex.get(hex);
        if (victims.length === 0) return [{ label: `Move the robber to hex ${hex}`, action: { type: legal.type, hex, victim: null } }];
        return victims.map((victim) => ({
          label: `Move the robber to hex ${hex} and steal from ${seatLabel(game, victim)}`,
          action: { type: legal.type, hex, victim },
        }));
      },
    };
  }
  const ids = kind === 'edge' ? legal.edges : legal.nodes;
  const place = kind === 'edge' ? 'edge' : 'node';
  return {
    kind, title, ids,
    label: (id) => `${title} at ${place} ${id}`,
    actions: (id) => {
      const action = { type: legal.type, [place]: id };
      if (legal.neutral !== undefined) action.neutral = legal.neutral;
      return [{ label: `${title} at ${place} ${id}`, action }];
    },
  };
}

// Five number fields, one per resource, each bounded by what the player
// may give (their hand) or unbounded (what they ask for).
function countsPicker(name, legend, limits) {
  const inputs = {};
  const fields = RESOURCES.map((r) => {
    const max = limits ? limits[r] ?? 0 : 19;
    inputs[r] = h('input', {
      type: 'number', min: 0, max, value: 0, name: `${name}-${r}`, id: `${name}-${r}`,
      inputmode: 'numeric', disabled: max === 0,
    });
    return h('label', { class: 'count', for: `${name}-${r}` }, h('span', {}, r), inputs[r]);
  });
  const el = h('fieldset', { class: 'counts', dataset: { picker: name } }, h('legend', {}, legend), fields);
  const value = () => Object.fromEntries(RESOURCES.map((r) => [r, Number(inputs[r].value) || 0]));
  return { el, value, total: () => Object.values(value()).reduce((a, b) => a + b, 0) };
}

function resourceSelect(name, label, options = RESOURCES) {
  const select = h('select', { name, id: name }, options.map((r) => h('option', { value: r }, r)));
  return { el: h('label', { for: name }, label, ' ', select), value: () => select.value };
}

function button(label, onclick, extra = {}) {
  return h('button', { type: 'button', onclick, ...extra }, label);
}

// `ctx`: { mode, setMode(key), submit(action), error(message) }.
export function renderDecisions(game, ctx) {
  const hand = game.view?.you?.resources ?? {};
  const modes = game.legal_actions.filter(isBoardAction);
  const panel = h('div', { class: 'decisions' });
  if (modes.length) {
    panel.append(h('div', { class: 'modes', role: 'group', 'aria-label': 'Choose on the board' },
      modes.map((legal) => {
        const key = modeKey(legal);
        return button(modeTitle(game, legal), () => ctx.setMode(key), {
          'aria-pressed': String(ctx.mode === key), dataset: { mode: key },
        });
      })));
  }
  for (const legal of game.legal_actions) {
    if (isBoardAction(legal)) {
      const none = ckNoneAnswer(legal, ctx);
      if (none) panel.append(none);
      continue;
    }
    const ck = ckDecisionControl(game, legal, ctx);
    if (ck !== undefined) {
      if (ck) panel.append(ck);
      continue;
    }
    const control = decisionControl(game, legal, hand, ctx);
    if (control) panel.append(titled(control, decisionText(game, legal)));
  }
  return panel;
}

// A form headed by the server's phrase for its decision.
function titled(control, text) {
  const heading = text && control.querySelector(':scope > h4');
  if (heading) {
    heading.textContent = text;
    control.setAttribute('aria-label', text);
  }
  return control;
}

function decisionControl(game, legal, hand, ctx) {
  // A button that is the whole decision says it in the server's words; one
  // of several answers (a vote) keeps its own.
  const simple = (label, action) =>
    button(action ? label : decisionText(game, legal) ?? label,
      () => ctx.submit(action ?? { type: legal.type }), { dataset: { action: legal.type } });
  const exact = (picker, count, build) => () => {
    if (picker.total() !== count) return ctx.error(`Choose exactly ${count} card(s); you chose ${picker.total()}.`);
    return ctx.submit(build(picker.value()));
  };
  switch (legal.type) {
    case 'roll_dice': return simple('Roll the dice');
    case 'end_turn': return simple('End the turn');
    case 'buy_development_card': return simple('Buy a development card');
    case 'play_road_building': return simple('Play Road Building');
    case 'accept_trade': return simple('Accept the trade');
    case 'decline_trade': return simple('Decline the trade');
    case 'withdraw_trade': return simple('Withdraw the offer');
    case 'discard_knight': return simple('Discard a played knight (2 tokens)');
    case 'ask_neutral_trade': return simple('Ask the neutral for a trade');
    case 'decline_neutral_trade': return simple('Decline the neutral trade');
    case 'pass_bid': return simple('Pass');
    case 'concede': return simple('Concede the auction');
    case 'forced_trade': return simple(`Forced trade (${legal.cost} token${legal.cost > 1 ? 's' : ''})`);
    case 'robber_to_desert': return simple(`Robber to the desert (${legal.cost} token${legal.cost > 1 ? 's' : ''})`);
    case 'vote_reroll': return h('div', { class: 'decision', dataset: { action: 'vote_reroll' } },
      h('h4', {}, 'Re-roll the removed hexes?'),
      simple('Vote to re-roll', { type: 'vote_reroll', reroll: true }),
      simple('Keep this board', { type: 'vote_reroll', reroll: false }));
    case 'discard': {
      const picker = countsPicker('discard', `Discard ${legal.count} card(s)`, hand);
      return form('discard', 'Discard', picker.el, exact(picker, legal.count, (cards) => ({ type: 'discard', cards })), 'Discard');
    }
    case 'forced_trade_give': {
      const picker = countsPicker('give', `Give ${legal.count} card(s)`, hand);
      return form('forced_trade_give', 'Forced trade: give cards', picker.el,
        exact(picker, legal.count, (cards) => ({ type: 'forced_trade_give', cards })), 'Give');
    }
    case 'play_year_of_plenty': {
      const picks = Array.from({ length: legal.count }, (_, i) => resourceSelect(`yop-${i}`, `Resource ${i + 1}`));
      return form('play_year_of_plenty', 'Play Year of Plenty', picks.map((p) => p.el),
        () => ctx.submit({ type: 'play_year_of_plenty', resources: picks.map((p) => p.value()) }), 'Take them');
    }
    case 'play_monopoly': {
      const pick = resourceSelect('monopoly', 'Resource');
      return form('play_monopoly', 'Play Monopoly', pick.el,
        () => ctx.submit({ type: 'play_monopoly', resource: pick.value() }), 'Name it');
    }
    case 'maritime_trade': {
      const choices = legal.options.flatMap((o) => o.receive.map((r) => ({ give: o.give, ratio: o.ratio, receive: r })));
      const select = h('select', { id: 'maritime', name: 'maritime' }, choices.map((c, i) =>
        h('option', { value: i }, `${c.ratio} ${c.give} → 1 ${c.receive}`)));
      return form('maritime_trade', 'Trade with the bank', h('label', { for: 'maritime' }, 'Trade ', select),
        () => ctx.submit({ type: 'maritime_trade', ...choices[Number(select.value)] }), 'Trade');
    }
    case 'offer_trade': {
      const give = countsPicker('offer-give', 'You give', hand);
      const receive = countsPicker('offer-receive', 'You receive', null);
      return form('offer_trade', `Offer a trade to ${seatLabel(game, 1 - game.your_seat)}`, [give.el, receive.el], () => {
        if (!give.total() || !receive.total()) return ctx.error('Give and ask for at least one card each.');
        return ctx.submit({ type: 'offer_trade', give: give.value(), receive: receive.value() });
      }, 'Offer');
    }
    case 'accept_neutral_trade': {
      const give = countsPicker('neutral-give', `Give ${legal.give} card(s)`, hand);
      const receive = resourceSelect('neutral-receive', 'Receive', legal.receive);
      return form('accept_neutral_trade', 'The neutral’s offer', [give.el, receive.el],
        exact(give, legal.give, (cards) => ({ type: 'accept_neutral_trade', give: cards, receive: receive.value() })),
        'Accept');
    }
    case 'bid': {
      const picker = countsPicker('bid', 'Your bid (shown to both players)', hand);
      return form('bid', 'Bid for the offered card', picker.el, () => {
        if (!picker.total()) return ctx.error('A bid needs at least one card.');
        return ctx.submit({ type: 'bid', cards: picker.value() });
      }, 'Bid');
    }
    case 'raise_bid': {
      const picker = countsPicker('raise', `Add at least ${legal.min} card(s)`, hand);
      return form('raise_bid', 'Raise your bid', picker.el, () => {
        if (picker.total() < legal.min) return ctx.error(`Add at least ${legal.min} card(s).`);
        return ctx.submit({ type: 'raise_bid', cards: picker.value() });
      }, 'Raise');
    }
    default:
      return h('p', { class: 'unknown' }, `Awaited: ${humanize(legal.type)} (not supported by this page; use the API).`);
  }
}

export function describeOffer(game, offer) {
  return `${seatLabel(game, offer.from)} gives ${counts(offer.give)} for ${counts(offer.receive)}`;
}
