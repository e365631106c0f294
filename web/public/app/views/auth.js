// Log in, sign up (confirmed by a code mailed to the address), and the
// ways back in by mail: a new password, a sign-in without one. The mails'
// links open /confirm, /reset and /sign-in with the address and the code
// in the fragment, which no server sees. Each page returns to `?next=`
// (an invitation link, a game) once the player has a session.

import { api, startSession } from '../api.js';
import { h } from '../dom.js';
import { navigate, showStatus } from '../nav.js';
import { field as plainField, form as plainForm } from '../forms.js';

function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  // Only paths of this site: never an open redirect.
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/games';
}

// The address and code a mail's link carries, read once and then taken
// out of the address bar (and so out of the history).
export function linkCode() {
  const params = new URLSearchParams(location.hash.slice(1));
  const email = params.get('email');
  const code = params.get('code');
  if (email || code) history.replaceState(null, '', location.pathname + location.search);
  return email && code ? { email, code } : null;
}

// Every field of these pages must be filled.
const field = (id, label, attrs) => plainField(id, label, { required: true, ...attrs });

const codeField = () => field('code', 'Code from the mail', {
  autocomplete: 'one-time-code', placeholder: 'XXXXX-XXXXX', maxlength: 32, spellcheck: 'false',
});

const form = (label, fields, button, act) => plainForm(label, fields, button, act, { className: 'card auth' });

function signedIn(token, after) {
  startSession(token);
  navigate(after(), { replace: true });
  showStatus(`Welcome, ${token.user.display_name}.`);
}

// What to do when no mail comes: the zero-setup server writes mails as
// files, and its log says where.
const noMailHint = () => h('p', { class: 'hint' },
  'No mail? Look in your spam folder. A server run without a mail server (no SMTP_URL) ',
  'writes each mail as a file under its data directory, data/mail/, and its log names the file.');

// The step after a code was mailed: enter it (or open the mail's link).
function codeStep(main, email, label, button, act) {
  main.replaceChildren(
    h('h1', {}, label),
    h('p', { class: 'code-sent' }, `We mailed a code to ${email}. Enter it here, or open the link in the mail.`),
    form(label, [codeField()], button, (data) => act(data.get('code'))),
    noMailHint(),
  );
  main.querySelector('#code')?.focus();
}

export function authForm(kind, after = nextPath) {
  const signup = kind === 'signup';
  return form(signup ? 'Sign up' : 'Log in', [
    field('email', 'E-mail', { type: 'email', autocomplete: 'email' }),
    signup && field('display_name', 'Display name', { maxlength: 40, autocomplete: 'nickname' }),
    field('password', 'Password', {
      type: 'password', minlength: signup ? 8 : undefined,
      autocomplete: signup ? 'new-password' : 'current-password',
    }),
  ].filter(Boolean), signup ? 'Sign up' : 'Log in', async (data) => {
    const email = data.get('email');
    if (!signup) {
      signedIn(await api.login(email, data.get('password')), after);
      return;
    }
    const invitation = new URLSearchParams(location.search).get('invitation');
    const answer = await api.register(email, data.get('display_name'), data.get('password'), invitation);
    if (answer?.access_token) {
      signedIn(answer, after);
      return;
    }
    const main = document.querySelector('.page') || document.getElementById('main');
    codeStep(main, answer.email, 'Confirm your address', 'Create the account',
      async (code) => signedIn(await api.confirm(answer.email, code), after));
  });
}

export function loginView(main) {
  const query = location.search;
  // The first page a newcomer sees: what this is and how a game starts.
  if (location.pathname === '/') {
    main.append(h('section', { class: 'card welcome' },
      h('h1', {}, 'hexpost'),
      h('p', {}, 'Two-player Catan by e-mail and on the web: standard, duel, Catan for two, the neutral trader, ',
        'the shadow variant and Cities & Knights for two, one move at a time, over days or weeks.'),
      h('p', {}, 'To play: ', h('a', { href: '/signup' }, 'sign up'), ' (we mail you a code to confirm your address), ',
        'then choose ', h('strong', {}, 'New game'), ', pick a variant and invite your opponent by their e-mail address. ',
        'You play here or by replying to the mails.')));
  }
  main.append(
    h('h1', {}, 'Log in'),
    authForm('login'),
    h('p', {}, h('a', { href: `/forgot${query}` }, 'Forgot your password?'), ' · ',
      h('a', { href: `/sign-in${query}` }, 'Sign in by mail')),
    h('p', {}, 'No account yet? ', h('a', { href: `/signup${query}` }, 'Sign up')),
  );
}

export function signupView(main) {
  const query = location.search;
  main.append(
    h('h1', {}, 'Sign up'),
    h('p', {}, 'We mail a code to your address to confirm it; the account exists once you enter it.'),
    authForm('signup'),
    h('p', {}, 'Already registered? ', h('a', { href: `/login${query}` }, 'Log in')),
  );
}

// The registration mail's link: creates the account at once.
export async function confirmView(main) {
  main.append(h('h1', {}, 'Confirm your address'));
  const link = linkCode();
  if (link) {
    try {
      signedIn(await api.confirm(link.email, link.code), nextPath);
      return;
    } catch (err) {
      main.append(h('p', { class: 'error', role: 'alert' }, err.message));
    }
  }
  main.append(
    form('Confirm your address', [
      field('email', 'E-mail', { type: 'email', autocomplete: 'email', value: link?.email ?? '' }),
      codeField(),
    ], 'Create the account', async (data) => signedIn(await api.confirm(data.get('email'), data.get('code')), nextPath)),
    h('p', {}, 'The code works for three days. ', h('a', { href: '/signup' }, 'Sign up again'), ' for a new one.'),
  );
}

// Forgot the password: a code by mail, then a new password.
function newPasswordForm(email, code) {
  return form('Choose a new password', [
    !email && field('email', 'E-mail', { type: 'email', autocomplete: 'email' }),
    !code && codeField(),
    field('new_password', 'New password', { type: 'password', minlength: 8, autocomplete: 'new-password' }),
  ].filter(Boolean), 'Set the new password', async (data) => {
    await api.reset(email || data.get('email'), code || data.get('code'), data.get('new_password'));
    navigate(`/login${location.search}`, { replace: true });
    showStatus('Your password is changed, and you are signed out everywhere: log in with the new one.');
  });
}

export function forgotView(main) {
  main.append(
    h('h1', {}, 'Forgot your password?'),
    h('p', {}, 'We mail a code to your account\'s address; with it you choose a new password.'),
    form('Forgot your password', [field('email', 'E-mail', { type: 'email', autocomplete: 'email' })],
      'Mail me a code', async (data) => {
        const sent = await api.requestReset(data.get('email'));
        main.replaceChildren(h('h1', {}, 'Choose a new password'),
          h('p', { class: 'code-sent' }, `If ${sent.email} has an account, a code is on its way (it works for an hour).`),
          newPasswordForm(sent.email, null), noMailHint());
      }),
  );
}

// The reset mail's link.
export function resetView(main) {
  const link = linkCode();
  main.append(h('h1', {}, 'Choose a new password'), newPasswordForm(link?.email, link?.code));
}

// Sign in by mail: a code instead of the password.
export async function signInView(main) {
  main.append(h('h1', {}, 'Sign in by mail'));
  const link = linkCode();
  if (link) {
    try {
      signedIn(await api.signInWithCode(link.email, link.code), nextPath);
      return;
    } catch (err) {
      main.append(h('p', { class: 'error', role: 'alert' }, err.message));
    }
  }
  main.append(
    h('p', {}, 'We mail a code to your account\'s address that signs you in once, without the password.'),
    form('Sign in by mail', [field('email', 'E-mail', { type: 'email', autocomplete: 'email' })],
      'Mail me a code', async (data) => {
        const sent = await api.requestSignIn(data.get('email'));
        codeStep(main, sent.email, 'Sign in by mail', 'Sign in',
          async (code) => signedIn(await api.signInWithCode(sent.email, code), nextPath));
      }),
  );
}
