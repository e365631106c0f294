// The places this account is signed in: each browser or client with its
// sign-in, last use and address, and a button that ends it. Ending this
// browser's own session signs it out here at once; another one is signed
// out when it next needs a fresh access token (within the hour).

import { api, endSession } from '../api.js';
import { h } from '../dom.js';
import { navigate, showStatus } from '../nav.js';
import { when } from '../format.js';

// A short name for a user agent string: the browser and the system.
export function deviceName(userAgent) {
  if (!userAgent) return 'Unknown client';
  const browser = ['Edg', 'Firefox', 'Chrome', 'Safari'].find((b) => userAgent.includes(`${b}/`));
  const system = ['Android', 'iPhone', 'iPad', 'Windows', 'Mac OS X', 'Linux'].find((s) => userAgent.includes(s));
  if (!browser) return userAgent.slice(0, 60);
  const name = browser === 'Edg' ? 'Edge' : browser;
  return system ? `${name} on ${system === 'Mac OS X' ? 'macOS' : system}` : name;
}

function signedOutHere() {
  endSession();
  navigate('/login', { replace: true });
  showStatus('You are signed out.');
}

export async function sessionsView(main) {
  const list = await api.sessions();
  const end = async (session) => {
    await api.revokeSession(session.id);
    if (session.current) signedOutHere();
    else navigate('/sessions', { replace: true });
  };
  main.append(
    h('h1', {}, 'Where you are signed in'),
    h('ul', { class: 'sessions' }, list.map((s) => h('li', { class: 'session-item', dataset: { session: s.id } },
      h('strong', {}, deviceName(s.user_agent), s.current ? ' (this browser)' : ''),
      h('small', {}, `Signed in ${when(s.created_at)}, last active ${when(s.last_used_at)}, from ${s.ip}`),
      h('button', { type: 'button', onclick: () => end(s).catch((err) => showStatus(err.message, 'error')) },
        s.current ? 'Sign out' : 'End this session')))),
    h('p', {}, h('button', {
      type: 'button', class: 'danger',
      onclick: async () => {
        await api.revokeAllSessions();
        signedOutHere();
      },
    }, 'Sign out everywhere')),
  );
}
