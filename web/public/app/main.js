// Entry point: a small router over the History API. Every page is a view
// function that fills <main> and may return a function that stops it
// (the game page's polling).

import { api, currentUser, endSession, resumeSession, startSession } from './api.js';
import { h, replace } from './dom.js';
import { navigate, showStatus } from './nav.js';
import { confirmView, forgotView, loginView, resetView, signInView, signupView } from './views/auth.js';
import { accountView, confirmEmailView } from './views/account.js';
import { gamesView } from './views/games.js';
import { newGameView } from './views/new_game.js';
import { invitationView } from './views/invitation.js';
import { gameView } from './views/game.js';
import { settingsView } from './views/settings.js';
import { sessionsView } from './views/sessions.js';

const ROUTES = [
  // Signed out, the first page says what this is and offers to log in.
  [/^\/$/, () => (currentUser() ? gamesView : loginView), false],
  [/^\/games$/, () => gamesView, true],
  [/^\/login$/, () => loginView, false],
  [/^\/signup$/, () => signupView, false],
  [/^\/confirm$/, () => confirmView, false],
  [/^\/forgot$/, () => forgotView, false],
  [/^\/reset$/, () => resetView, false],
  [/^\/sign-in$/, () => signInView, false],
  [/^\/account$/, () => accountView, true],
  [/^\/account\/email$/, () => confirmEmailView, false],
  [/^\/new$/, () => newGameView, true],
  [/^\/games\/([^/]+)$/, () => gameView, true],
  [/^\/invitations\/([^/]+)$/, () => invitationView, false],
  [/^\/settings$/, () => settingsView, true],
  [/^\/sessions$/, () => sessionsView, true],
];

let stop = null;

function renderNav() {
  const user = currentUser();
  const nav = document.getElementById('nav');
  if (!user) {
    replace(nav, h('a', { href: '/login' }, 'Log in'), h('a', { href: '/signup' }, 'Sign up'));
    return;
  }
  replace(nav,
    h('a', { href: '/games' }, 'My games'),
    h('a', { href: '/new' }, 'New game'),
    h('a', { href: '/settings' }, 'Settings'),
    h('a', { href: '/sessions' }, 'Sessions'),
    h('a', { href: '/account' }, 'Account'),
    h('span', { class: 'who' }, user.display_name),
    h('button', {
      type: 'button', class: 'link', onclick: async () => {
        // Signed out here even if the server cannot be told.
        await api.logout().catch(() => {});
        endSession();
        navigate('/login');
      },
    }, 'Log out'));
}

function loginPath() {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

async function render() {
  if (stop) stop();
  stop = null;
  renderNav();
  const main = document.getElementById('main');
  showStatus('');
  const path = location.pathname;
  for (const [pattern, pick, needsLogin] of ROUTES) {
    const match = path.match(pattern);
    if (!match) continue;
    if (needsLogin && !currentUser()) {
      navigate(loginPath(), { replace: true });
      return;
    }
    // Each page renders into a container of its own: a page still loading
    // when the player (or a 401) moves on writes into a detached one.
    const page = h('div', { class: 'page' });
    replace(main, page);
    try {
      const stopPage = await pick()(page, ...match.slice(1).map(decodeURIComponent));
      if (page.isConnected) stop = stopPage || null;
      else if (stopPage) stopPage();
    } catch (err) {
      page.replaceChildren(h('p', { class: 'error', role: 'alert' }, err.message));
    }
    return;
  }
  replace(main, h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '/' }, 'Back to the start')));
}

// Same-origin links stay in the page.
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[href]');
  // A download (the account's data, a blob: of this origin) is the browser's.
  if (!a || a.target || a.hasAttribute('download') || e.defaultPrevented || e.button !== 0
    || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/docs')) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});

window.addEventListener('popstate', render);
window.addEventListener('hexpost:navigate', render);
window.addEventListener('hexpost:unauthorized', () => {
  if (location.pathname !== '/login') {
    navigate(loginPath(), { replace: true });
    showStatus('Your session ended; please log in again.', 'error');
  }
});

// A game mail's link carries a one-time sign-in code after `#sign-in=`
// (a fragment: it never reaches the server in the page's URL, logs or
// Referer). It is taken out of the address bar at once; a browser that is
// signed in already has no use for it.
async function signInFromMailLink() {
  const code = new URLSearchParams(location.hash.slice(1)).get('sign-in');
  if (!code) return null;
  history.replaceState(null, '', location.pathname + location.search);
  const game = location.pathname.match(/^\/games\/([^/]+)$/);
  if (!game || await resumeSession()) return null;
  try {
    startSession(await api.mailSignIn(code, decodeURIComponent(game[1])));
    return null;
  } catch (err) {
    return err.message;
  }
}

async function start() {
  const failed = await signInFromMailLink();
  await resumeSession();
  await render();
  if (failed) showStatus(failed, 'error');
}

start();
