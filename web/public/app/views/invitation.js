// The invitation link from the mail: what the game is, then accept or
// decline. Logging in or signing up here comes back to this page.

import { api, currentUser } from '../api.js';
import { h } from '../dom.js';
import { navigate, showStatus } from '../nav.js';
import { variantName } from '../format.js';

export async function invitationView(main, token) {
  main.append(h('h1', {}, 'Invitation'));
  let game;
  try {
    game = await api.invitation(token);
  } catch (err) {
    main.append(h('p', { class: 'error', role: 'alert' }, err.message));
    return;
  }
  // The API does not name the inviter before the game starts (the mail does).
  const inviter = game.players.find((p) => p.user_id === game.created_by)?.display_name;
  main.append(h('p', { class: 'invite-summary' },
    `${inviter ?? 'You are invited'}${inviter ? ' invites you' : ''} to a game of ${variantName(game.variant)} `,
    `(${Math.round(game.time_limit_secs / 3600)} hours per decision).`));
  const here = encodeURIComponent(location.pathname);
  if (!currentUser()) {
    // Signing up from the invitation proves the address it was mailed to:
    // the account is made at once, without a code.
    const invitation = encodeURIComponent(token);
    main.append(h('p', {}, 'To accept, ', h('a', { href: `/login?next=${here}` }, 'log in'), ' or ',
      h('a', { href: `/signup?next=${here}&invitation=${invitation}` }, 'sign up'),
      ' with the address the invitation was sent to.'));
  } else {
    main.append(h('button', {
      type: 'button', class: 'primary', onclick: async () => {
        try {
          const started = await api.accept(token);
          navigate(`/games/${started.id}`, { replace: true });
          showStatus('Invitation accepted: the game has started.');
        } catch (err) {
          showStatus(err.message, 'error');
        }
      },
    }, 'Accept and start the game'));
  }
  main.append(' ', h('button', {
    type: 'button', onclick: async () => {
      try {
        await api.decline(token);
        main.replaceChildren(h('h1', {}, 'Invitation declined'), h('p', {}, 'The inviter is told by e-mail.'));
      } catch (err) {
        showStatus(err.message, 'error');
      }
    },
  }, 'Decline'));
}
