// The public REST API, and the session. The access token lives in
// sessionStorage: it survives a reload of the tab (a player coming back from
// a mail link keeps their session) but not the closing of the browser, and
// other tabs and sites never see it. It expires after an hour anyway.

const TOKEN_KEY = 'hexpost.token';
const USER_KEY = 'hexpost.user';

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || `request failed (${status})`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code;
  }
}

export function currentUser() {
  const raw = sessionStorage.getItem(USER_KEY);
  return raw && sessionStorage.getItem(TOKEN_KEY) ? JSON.parse(raw) : null;
}

export function startSession(tokenResponse) {
  sessionStorage.setItem(TOKEN_KEY, tokenResponse.access_token);
  sessionStorage.setItem(USER_KEY, JSON.stringify(tokenResponse.user));
}

export function endSession() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

async function send(method, path, body, extraHeaders = {}) {
  const headers = { Accept: 'application/json', ...extraHeaders };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 304) return { res, data: null };
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (res.status === 401 && token) {
    // Expired or revoked: the router sends the player to log in again.
    endSession();
    window.dispatchEvent(new CustomEvent('hexpost:unauthorized'));
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return { res, data };
}

// An event stream's response, once it answered 200 (an ApiError else).
export async function streamResponse(path, lastEventId, signal) {
  const headers = { Accept: 'text/event-stream' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastEventId !== undefined) headers['Last-Event-ID'] = String(lastEventId);
  const res = await fetch(`/api/v1${path}`, { headers, signal });
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text ? JSON.parse(text) : null);
  }
  return res;
}

async function request(method, path, body) {
  return (await send(method, path, body)).data;
}

const enc = encodeURIComponent;

export const api = {
  register: (email, display_name, password) =>
    request('POST', '/accounts', { email, display_name, password }),
  login: (email, password) => request('POST', '/auth/token', { email, password }),
  games: () => request('GET', '/games?per_page=100'),
  createGame: (body) => request('POST', '/games', body),
  game: (id) => request('GET', `/games/${enc(id)}`),
  // The game with its ETag, or null while it is the one that ETag names.
  gameIfChanged: async (id, etag) => {
    const { res, data } = await send('GET', `/games/${enc(id)}`, undefined, etag ? { 'If-None-Match': etag } : {});
    return res.status === 304 ? null : { game: data, etag: res.headers.get('ETag') };
  },
  log: (id, after, limit = 500) =>
    request('GET', `/games/${enc(id)}/log?limit=${limit}${after === undefined ? '' : `&after=${after}`}`),
  move: (id, expected_move_number, action) =>
    request('POST', `/games/${enc(id)}/moves`, { expected_move_number, action }),
  resign: (id) => request('POST', `/games/${enc(id)}/resign`),
  cancel: (id) => request('POST', `/games/${enc(id)}/cancel`),
  invitation: (token) => request('GET', `/invitations/${enc(token)}`),
  accept: (token) => request('POST', `/invitations/${enc(token)}/accept`),
  decline: (token) => request('POST', `/invitations/${enc(token)}/decline`),
  topology: () => request('GET', '/topology'),
  settings: () => request('GET', '/account/notifications'),
  saveSettings: (change) => request('PUT', '/account/notifications', change),
  startVacation: (id, days) => request('POST', `/games/${enc(id)}/vacation`, { days }),
  endVacation: (id) => request('DELETE', `/games/${enc(id)}/vacation`),
};
