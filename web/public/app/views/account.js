// The account itself: its address (moved once the new address confirms
// it), a download of everything the server holds about it, and its
// deletion. Changing the address and deleting ask for the password, which
// may be left out within ten minutes of signing in.

import { api, endSession, updateUser } from '../api.js';
import { h } from '../dom.js';
import { navigate, showStatus } from '../nav.js';
import { linkCode } from './auth.js';
import { field, form as plainForm } from '../forms.js';

const form = (label, fields, button, act, buttonAttrs = {}) =>
  plainForm(label, fields, button, act, { heading: true, buttonAttrs });

const passwordField = () => field('password', 'Password (not needed within ten minutes of signing in)', {
  type: 'password', autocomplete: 'current-password',
});

function download(document_, name) {
  const blob = new Blob([JSON.stringify(document_, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function confirmAddressForm(email) {
  return form('Confirm the new address', [
    field('email', 'New address', { type: 'email', required: true, value: email ?? '', autocomplete: 'email' }),
    field('code', 'Code from the mail to the new address', { required: true, placeholder: 'XXXXX-XXXXX', autocomplete: 'one-time-code' }),
  ], 'Move the account', async (data) => {
    const user = await api.confirmEmail(data.get('email'), data.get('code'));
    updateUser(user);
    showStatus(`Your account now uses ${user.email}.`);
    navigate('/account', { replace: true });
  });
}

export async function accountView(main) {
  const me = await api.me();
  const moved = h('div');
  main.append(
    h('h1', {}, 'Your account'),
    h('p', { class: 'account-summary' }, `${me.display_name}, ${me.email}`),
    form('Change your address', [
      field('new_email', 'New address', { type: 'email', required: true, autocomplete: 'email' }),
      passwordField(),
    ], 'Mail the new address a code', async (data) => {
      const sent = await api.changeEmail(data.get('new_email'), data.get('password'));
      moved.replaceChildren(
        h('p', { class: 'code-sent' }, `We mailed a code to ${sent.email}. The account moves once it is entered; until then your mail goes to ${me.email}.`),
        confirmAddressForm(sent.email));
    }),
    moved,
    h('section', { class: 'card' },
      h('h2', {}, 'Your data'),
      h('p', {}, 'Everything the server holds about you: your account and settings, where you are signed in, your keys, your games with your moves, and the mails sent to you.'),
      h('button', {
        type: 'button', class: 'download', onclick: async () => {
          try {
            download(await api.exportData(), 'hexpost-account.json');
          } catch (err) {
            showStatus(err.message, 'error');
          }
        },
      }, 'Download your data (JSON)')),
    form('Delete your account', [
      h('p', {}, 'Your running games are resigned and your games not yet started cancelled; your address, name, password, sessions, keys, settings and mails are deleted. Finished games stay for your opponents, with your seat shown as "a deleted player". There is no undo.'),
      passwordField(),
      h('p', {}, h('label', {}, h('input', { type: 'checkbox', name: 'sure', required: true }), ' I want to delete my account')),
    ], 'Delete my account', async (data) => {
      await api.deleteAccount(data.get('password'));
      endSession();
      navigate('/', { replace: true });
      showStatus('Your account is deleted.');
    }, { class: 'danger' }),
  );
}

// The address-change mail's link: works signed in or not, since the code
// proves the new address.
export async function confirmEmailView(main) {
  main.append(h('h1', {}, 'Confirm your new address'));
  const link = linkCode();
  if (link) {
    try {
      const user = await api.confirmEmail(link.email, link.code);
      updateUser(user);
      main.append(h('p', { class: 'done' }, `Your account now uses ${user.email}.`));
      return;
    } catch (err) {
      main.append(h('p', { class: 'error', role: 'alert' }, err.message));
    }
  }
  main.append(confirmAddressForm(link?.email));
}
