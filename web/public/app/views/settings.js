// Mail settings: how often hexpost writes, the time zone its times and
// quiet hours are in, and the hour of the daily digest. The mails' settings
// link opens this page.

import { api } from '../api.js';
import { h } from '../dom.js';

const MODES = [
  ['every_move', 'A mail whenever a decision of mine is awaited'],
  ['digest', 'One mail a day listing every game that waits for me'],
  ['off', 'No game mails (invitations still arrive)'],
];

// The browser's list of zones where it has one; the server checks the name.
function zones() {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

export async function settingsView(main) {
  const current = await api.settings();
  const error = h('p', { class: 'error', role: 'alert' });
  const saved = h('p', { class: 'saved', role: 'status' });
  const quiet = current.quiet_hours;
  const formEl = h('form', {
    class: 'card settings', 'aria-label': 'Mail settings',
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      saved.textContent = '';
      const f = formEl.elements;
      const change = {
        notify: f.notify.value,
        time_zone: f.time_zone.value.trim(),
        digest_hour: Number(f.digest_hour.value),
        quiet_hours: f.quiet.checked ? { start: f.quiet_start.value, end: f.quiet_end.value } : null,
      };
      try {
        await api.saveSettings(change);
        saved.textContent = 'Saved.';
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h('fieldset', {}, h('legend', {}, 'Mails about my games'),
    MODES.map(([value, label]) => h('p', {},
      h('input', { type: 'radio', name: 'notify', id: `notify-${value}`, value, checked: current.notify === value }),
      h('label', { for: `notify-${value}` }, label)))),
  h('p', {}, h('label', { for: 'time_zone' }, 'Time zone'),
    h('input', {
      id: 'time_zone', name: 'time_zone', value: current.time_zone, list: 'zones', required: true,
      'aria-describedby': 'time_zone-help',
    }),
    h('datalist', { id: 'zones' }, zones().map((z) => h('option', { value: z }))),
    h('small', { id: 'time_zone-help' }, 'A name such as Europe/Berlin; the times in mails and the hours below are in it.')),
  h('p', {}, h('label', { for: 'digest_hour' }, 'Hour of the daily digest'),
    h('input', { id: 'digest_hour', name: 'digest_hour', type: 'number', min: 0, max: 23, value: current.digest_hour })),
  h('fieldset', {}, h('legend', {}, 'Quiet hours'),
    h('p', {}, h('input', { type: 'checkbox', id: 'quiet', name: 'quiet', checked: Boolean(quiet) }),
      h('label', { for: 'quiet' }, 'Hold mails back from')),
    h('p', {}, h('label', { for: 'quiet_start' }, 'From'),
      h('input', { id: 'quiet_start', name: 'quiet_start', type: 'time', value: quiet?.start ?? '22:00' }),
      h('label', { for: 'quiet_end' }, 'until'),
      h('input', { id: 'quiet_end', name: 'quiet_end', type: 'time', value: quiet?.end ?? '07:00' }))),
  h('p', {}, h('button', { type: 'submit' }, 'Save')),
  error, saved);
  main.append(h('h1', {}, 'Mail settings'), formEl);
}
