// Forms of the account pages: a labelled field, and a form whose submit
// runs an action and shows its refusal in place.

import { h } from './dom.js';

export function field(id, label, attrs) {
  return h('p', {}, h('label', { for: id }, label), h('input', { id, name: id, ...attrs }));
}

// A form labelled `label` (a heading too when `heading`), whose submit
// runs `act(formData)`; an error thrown is shown above its button.
export function form(label, fields, button, act, { className = 'card', heading = false, buttonAttrs = {} } = {}) {
  const error = h('p', { class: 'error', role: 'alert' });
  const el = h('form', {
    class: className, 'aria-label': label,
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      try {
        await act(new FormData(el));
      } catch (err) {
        error.textContent = err.message;
      }
    },
  }, heading && h('h2', {}, label), ...fields, error, h('button', { type: 'submit', ...buttonAttrs }, button));
  return el;
}
