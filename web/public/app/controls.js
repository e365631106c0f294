// Controls the decision panels share.

import { h } from './dom.js';

// A decision that needs more than a click: its fields, then one submit
// button; `data-action` names the action it sends.
export function form(key, title, children, onsubmit, submitLabel) {
  return h('form', {
    class: 'decision', dataset: { action: key }, 'aria-label': title,
    onsubmit: (e) => {
      e.preventDefault();
      onsubmit();
    },
  }, h('h4', {}, title), children, h('button', { type: 'submit' }, submitLabel));
}
