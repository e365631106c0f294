// A new game: variant, options (every option of the rules, blank meaning
// the variant's default), time limit and the opponent to invite.

import { api } from '../api.js';
import { h } from '../dom.js';
import { variantName } from '../format.js';

const VARIANTS = [
  ['standard', 'The base game for two players.'],
  ['duel', 'Online 1v1 preset: 15 VP, discard limit 9, friendly robber, balanced dice.'],
  ['catan_for_two', 'Official two-player rules: two neutral colours that you build for, and trade tokens.'],
  ['neutral_trader', 'A neutral player that produces, builds roads when it can and trades by a chart.'],
  ['shadow', 'Two fictional players: hexes removed at the start, fictional turns and auctions.'],
  ['ck_for_two', 'Cities & Knights for two: commodities, city improvements, knights against the barbarians, progress cards; 13 VP.'],
];

// [name, label, explanation, kind, variants the option belongs to (or all)]
const OPTIONS = [
  ['vp_target', 'Victory points to win', 'Blank: 10 (duel: 15, Cities & Knights: 13).', 'number'],
  ['discard_limit', 'Discard limit', 'On a 7, whoever holds more cards than this discards half. Blank: 7 (duel: 9).', 'number'],
  ['friendly_robber', 'Friendly robber', 'The robber may not go next to a player with 2 or fewer visible VP.', 'bool'],
  ['balanced_dice', 'Balanced dice', 'Rolls come from a shuffled deck of the 36 outcomes instead of dice.', 'bool'],
  ['board', 'Board', 'The printed beginner layout, or terrain, numbers and harbors shuffled.', ['beginner', 'random']],
  ['no_adjacent_red', 'No adjacent 6 and 8', 'On a random board, no two red numbers touch.', 'bool'],
  ['no_player_trade', 'No trading between players', 'Players may not offer each other trades.', 'bool'],
  ['neutral_start', 'Neutral start', 'Where the neutral settlements start: the fixed marked spots or a random mirrored pair.', ['fixed', 'random'], ['catan_for_two', 'ck_for_two']],
  ['edition', 'Edition', 'Edited: doubles remove 7 hexes, a robber on a removed hex takes a bank card; 1998: doubles re-roll.', ['edited', '1998'], 'shadow'],
  ['removal_reroll', 'Re-roll of removed hexes', 'Auto: re-roll while more than two 6/8 would go; agree: both players vote; never.', ['auto', 'agree', 'never'], 'shadow'],
  ['reroll_six', 'Re-roll sixes', 'The fictional offer die re-rolls a 6 instead of offering nothing.', 'bool', 'shadow'],
].map(([name, label, help, kind, only]) => [name, label, help, kind, only && [only].flat()]);

function optionField([name, label, help, kind, only]) {
  const id = `opt-${name}`;
  let input;
  if (kind === 'number') {
    input = h('input', { id, name, type: 'number', min: 2, max: 30, 'aria-describedby': `${id}-help` });
  } else {
    const choices = kind === 'bool' ? [['true', 'yes'], ['false', 'no']] : kind.map((k) => [k, k]);
    input = h('select', { id, name, 'aria-describedby': `${id}-help` },
      h('option', { value: '' }, 'variant default'), choices.map(([v, t]) => h('option', { value: v }, t)));
  }
  return h('div', { class: 'option', dataset: { only: only?.join(' ') ?? '' } },
    h('label', { for: id }, label), input, h('small', { id: `${id}-help` }, help));
}

function readOptions(formEl, variant) {
  const options = {};
  for (const [name, , , kind, only] of OPTIONS) {
    if (only && !only.includes(variant)) continue;
    const raw = formEl.elements[name].value;
    if (raw === '') continue;
    options[name] = kind === 'number' ? Number(raw) : kind === 'bool' ? raw === 'true' : raw;
  }
  return options;
}

export function newGameView(main) {
  const error = h('p', { class: 'error', role: 'alert' });
  const result = h('div', { class: 'created', 'aria-live': 'polite' });
  const variantSelect = h('select', { id: 'variant', name: 'variant' },
    VARIANTS.map(([v]) => h('option', { value: v }, variantName(v))));
  const variantHelp = h('small', { id: 'variant-help' });
  const options = h('fieldset', { class: 'options' }, h('legend', {}, 'Options'), OPTIONS.map(optionField));
  const showVariant = () => {
    variantHelp.textContent = VARIANTS.find(([v]) => v === variantSelect.value)[1];
    for (const el of options.querySelectorAll('[data-only]')) {
      el.hidden = Boolean(el.dataset.only) && !el.dataset.only.split(' ').includes(variantSelect.value);
    }
  };
  variantSelect.addEventListener('change', showVariant);
  variantSelect.setAttribute('aria-describedby', 'variant-help');

  const formEl = h('form', {
    class: 'card new-game', 'aria-label': 'New game',
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      const variant = variantSelect.value;
      const seat = formEl.elements.creator_seat.value;
      const body = {
        variant,
        options: readOptions(formEl, variant),
        opponent_email: formEl.elements.opponent_email.value || null,
        time_limit_hours: Number(formEl.elements.time_limit_hours.value) || null,
        creator_seat: seat === '' ? null : Number(seat),
        timeout_policy: formEl.elements.timeout_policy.value,
        max_auto_decisions: Number(formEl.elements.max_auto_decisions.value),
        vacation_days: Number(formEl.elements.vacation_days.value),
      };
      try {
        const created = await api.createGame(body);
        const link = created.invite_token ? `${location.origin}/invitations/${created.invite_token}` : null;
        result.replaceChildren(
          h('h2', {}, 'Game created'),
          link ? h('p', {}, 'Your opponent receives this invitation link by e-mail: ',
            h('a', { href: link, class: 'invite-link' }, link)) : h('p', {}, 'Invite an opponent from the API.'),
          h('p', {}, h('a', { href: `/games/${created.game.id}` }, 'Open the game')),
        );
        result.focus();
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h('p', {}, h('label', { for: 'variant' }, 'Variant'), variantSelect, variantHelp),
  h('p', {}, h('label', { for: 'opponent_email' }, 'Opponent’s e-mail'),
    h('input', { id: 'opponent_email', name: 'opponent_email', type: 'email', required: true })),
  h('p', {}, h('label', { for: 'time_limit_hours' }, 'Hours per decision'),
    h('input', { id: 'time_limit_hours', name: 'time_limit_hours', type: 'number', min: 1, max: 720, value: 48 })),
  h('p', {}, h('label', { for: 'timeout_policy' }, 'When time runs out'),
    h('select', { id: 'timeout_policy', name: 'timeout_policy', 'aria-describedby': 'timeout_policy-help' },
      h('option', { value: 'auto' }, 'hexpost decides for the late player'),
      h('option', { value: 'forfeit' }, 'the late player loses')),
    h('small', { id: 'timeout_policy-help' },
      'hexpost only ends the turn, discards, declines or passes; it never spends, trades or plays a card.')),
  h('p', {}, h('label', { for: 'max_auto_decisions' }, 'Timeouts in a row before a player loses'),
    h('input', {
      id: 'max_auto_decisions', name: 'max_auto_decisions', type: 'number', min: 0, max: 20, value: 3,
      'aria-describedby': 'max_auto_decisions-help',
    }),
    h('small', { id: 'max_auto_decisions-help' }, 'How often hexpost decides for a player in a row; the next timeout loses.')),
  h('p', {}, h('label', { for: 'vacation_days' }, 'Vacation days per player'),
    h('input', {
      id: 'vacation_days', name: 'vacation_days', type: 'number', min: 0, max: 60, value: 7,
      'aria-describedby': 'vacation_days-help',
    }),
    h('small', { id: 'vacation_days-help' }, 'Days each player may stop their own clock during the game.')),
  h('p', {}, h('label', { for: 'creator_seat' }, 'Who starts'),
    h('select', { id: 'creator_seat', name: 'creator_seat' },
      h('option', { value: '' }, 'decided by a roll-off'),
      h('option', { value: '0' }, 'I do (seat 0)'),
      h('option', { value: '1' }, 'my opponent does (I take seat 1)'))),
  options,
  error,
  h('button', { type: 'submit' }, 'Create and invite'));
  result.tabIndex = -1;
  showVariant();
  main.append(h('h1', {}, 'New game'), formEl, result);
}
