// Log in and sign up. Both return to `?next=` (an invitation link, a game)
// once the player has a session.

import { api, startSession } from '../api.js';
import { h } from '../dom.js';
import { navigate, showStatus } from '../nav.js';

function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  // Only paths of this site: never an open redirect.
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/games';
}

function field(id, label, attrs) {
  return h('p', {}, h('label', { for: id }, label), h('input', { id, name: id, required: true, ...attrs }));
}

export function authForm(kind, after = nextPath) {
  const signup = kind === 'signup';
  const error = h('p', { class: 'error', role: 'alert' });
  const formEl = h('form', {
    class: 'card auth', 'aria-label': signup ? 'Sign up' : 'Log in',
    onsubmit: async (e) => {
      e.preventDefault();
      const data = new FormData(formEl);
      error.textContent = '';
      try {
        const token = signup
          ? await api.register(data.get('email'), data.get('display_name'), data.get('password'))
          : await api.login(data.get('email'), data.get('password'));
        startSession(token);
        navigate(after(), { replace: true });
        showStatus(`Welcome, ${token.user.display_name}.`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  field('email', 'E-mail', { type: 'email', autocomplete: 'email' }),
  signup && field('display_name', 'Display name', { maxlength: 40, autocomplete: 'nickname' }),
  field('password', 'Password', {
    type: 'password', minlength: signup ? 8 : undefined,
    autocomplete: signup ? 'new-password' : 'current-password',
  }),
  error,
  h('button', { type: 'submit' }, signup ? 'Sign up' : 'Log in'));
  return formEl;
}

export function loginView(main) {
  const query = location.search;
  main.append(
    h('h1', {}, 'Log in'),
    authForm('login'),
    h('p', {}, 'No account yet? ', h('a', { href: `/signup${query}` }, 'Sign up')),
  );
}

export function signupView(main) {
  const query = location.search;
  main.append(
    h('h1', {}, 'Sign up'),
    authForm('signup'),
    h('p', {}, 'Already registered? ', h('a', { href: `/login${query}` }, 'Log in')),
  );
}
