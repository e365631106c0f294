// My games: the ones waiting for me first, then by last change. The list
// follows the account's event stream (a game starts, ends, or begins to
// wait for me) and falls back to polling while the stream is down.

import { api, currentUser } from '../api.js';
import { h, replace } from '../dom.js';
import { deadline, variantName, when } from '../format.js';
import { Poller } from '../poll.js';
import { LiveStream } from '../stream.js';

export function sortGames(games) {
  return [...games].sort((a, b) =>
    Number(b.awaiting_you) - Number(a.awaiting_you) || b.updated_at - a.updated_at);
}

function opponent(game, me) {
  const other = game.players.find((p) => p.user_id !== me.id);
  return other ? other.display_name : 'not joined yet';
}

function statusText(game) {
  if (game.awaiting_you) return 'Your move';
  if (game.status === 'active') return 'Waiting for your opponent';
  if (game.status === 'finished') {
    return game.winner_seat === null || game.winner_seat === undefined ? 'Finished'
      : game.winner_seat === game.your_seat ? 'Finished: you won' : 'Finished: you lost';
  }
  if (game.status === 'open') return 'Invitation sent';
  return game.status;
}

function gameItems(games, me) {
  if (!games.length) return [h('p', {}, 'No games yet.')];
  return [h('ul', { class: 'games' }, games.map((g) => {
    const due = deadline(g);
    return h('li', { class: `game-item${g.awaiting_you ? ' yours' : ''}`, dataset: { game: g.id } },
      h('a', { href: `/games/${g.id}` },
        h('strong', {}, `${variantName(g.variant)} against ${opponent(g, me)}`),
        h('span', { class: 'badge' }, statusText(g))),
      h('small', {}, due ? `Decision due by ${when(due)}` : `Last change ${when(g.updated_at)}`));
  }))];
}

export async function gamesView(main) {
  const me = currentUser();
  const list = h('div', { class: 'game-list' });
  main.append(h('h1', {}, 'My games'), h('p', {}, h('a', { href: '/new', class: 'button' }, 'Start a new game')), list);
  let shown = '';
  // Whether the list changed.
  const load = async () => {
    const games = sortGames(await api.games());
    const text = JSON.stringify(games);
    if (text === shown) return false;
    shown = text;
    replace(list, gameItems(games, me));
    return true;
  };
  await load();
  const poller = new Poller(load);
  poller.start();
  const stream = new LiveStream('/account/stream', {
    since: () => undefined,
    onChange: () => load().catch(() => poller.reset(true)),
    onUp: () => poller.stop(),
    onDown: () => poller.start(),
  });
  stream.start();
  return () => {
    stream.stop();
    poller.stop();
  };
}
