// The public REST API, and the session. A login is a server-side session
// with two tokens. The refresh token lives in an HttpOnly cookie that only
// /api/v1/auth sees, so no script (ours or an injected one) can read it; it
// keeps the browser signed in for weeks. The access token, good for an
// hour, lives in sessionStorage: other tabs and sites never see it, and a
// new tab or a reload after it expired gets a fresh one from the cookie.
// Refreshes happen a minute before expiry, and again when a request is
// answered 401; one refresh at a time per tab.

const TOKEN_KEY = 'hexpost.token';
const EXPIRES_KEY = 'hexpost.expires';
// Not secret: the name shown, and the hint that a refresh cookie may exist.
const USER_KEY = 'hexpost.user';
const EARLY_MS = 60000;

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || `request failed (${status})`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code;
  }
}

export function currentUser() {
  const raw = localStorage.getItem(USER_KEY);
  return raw ? JSON.parse(raw) : null;
}

let refreshTimer = null;
let refreshing = null;

export function startSession(tokenResponse) {
  sessionStorage.setItem(TOKEN_KEY, tokenResponse.access_token);
  const expiresAt = Date.now() + tokenResponse.expires_in * 1000;
  sessionStorage.setItem(EXPIRES_KEY, String(expiresAt));
  localStorage.setItem(USER_KEY, JSON.stringify(tokenResponse.user));
  scheduleRefresh(expiresAt);
}

// The signed-in user's name and address changed (an address change).
export function updateUser(user) {
  if (currentUser()) localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function endSession() {
  clearTimeout(refreshTimer);
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(EXPIRES_KEY);
  localStorage.removeItem(USER_KEY);
}

// When to refresh a token that expires at `expiresAt`: a minute early,
// and at once if that is past.
export function refreshDelay(expiresAt, now = Date.now()) {
  return Math.max(0, expiresAt - EARLY_MS - now);
}

function scheduleRefresh(expiresAt) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(() => {}), refreshDelay(expiresAt));
}

// New tokens from the refresh cookie; ends the session when the server
// refuses (revoked, expired, or reused). Concurrent callers share one try.
export function refresh() {
  refreshing ??= (async () => {
    try {
      const res = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: '{}',
      });
      const text = await res.text();
      const data = text ? JSON.parse(text) : null;
      if (res.ok) {
        startSession(data);
        return true;
      }
      if (res.status === 401) signedOut();
      throw new ApiError(res.status, data);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function signedOut() {
  endSession();
  window.dispatchEvent(new CustomEvent('hexpost:unauthorized'));
}

// At start: a fresh access token if this tab has none or an old one while
// a session is remembered. False when the session is gone.
export async function resumeSession() {
  if (!currentUser()) return false;
  const expiresAt = Number(sessionStorage.getItem(EXPIRES_KEY) || 0);
  if (sessionStorage.getItem(TOKEN_KEY) && expiresAt - EARLY_MS > Date.now()) {
    scheduleRefresh(expiresAt);
    return true;
  }
  try {
    return await refresh();
  } catch (err) {
    // Offline or the server briefly away: keep the session, try later.
    return err instanceof ApiError ? false : Boolean(currentUser());
  }
}

async function send(method, path, body, extraHeaders = {}, retried = false) {
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
  if (res.status === 401 && token && !retried) {
    // Expired early (a sleeping laptop): one refresh, then the request
    // again; a refused refresh sends the player to log in.
    if (await refresh().catch(() => false)) return send(method, path, body, extraHeaders, true);
  } else if (res.status === 401 && token) {
    signedOut();
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
  // A session at once (with an invitation mailed to `email`), or
  // `{status: 'code_sent'}`: the code mailed to the address confirms it.
  register: (email, display_name, password, invitation_token) =>
    request('POST', '/accounts', {
      email, display_name, password, refresh_cookie: true,
      ...(invitation_token ? { invitation_token } : {}),
    }),
  confirm: (email, code) => request('POST', '/accounts/confirm', { email, code, refresh_cookie: true }),
  requestReset: (email) => request('POST', '/auth/password-reset', { email }),
  reset: (email, code, new_password) =>
    request('POST', '/auth/password-reset/confirm', { email, code, new_password }),
  requestSignIn: (email) => request('POST', '/auth/sign-in-code', { email }),
  signInWithCode: (email, code) =>
    request('POST', '/auth/sign-in-code/redeem', { email, code, refresh_cookie: true }),
  me: () => request('GET', '/me'),
  changeEmail: (new_email, password) => request('PUT', '/account/email', { new_email, password: password || null }),
  confirmEmail: (email, code) => request('POST', '/account/email/confirm', { email, code }),
  deleteAccount: (password) => request('POST', '/account/delete', { password: password || null }),
  exportData: () => request('GET', '/account/export'),
  login: (email, password) => request('POST', '/auth/token', { email, password, refresh_cookie: true }),
  mailSignIn: (code, game_id) => request('POST', '/auth/mail-link', { code, game_id, refresh_cookie: true }),
  logout: () => request('POST', '/auth/logout'),
  sessions: () => request('GET', '/account/sessions'),
  revokeSession: (id) => request('DELETE', `/account/sessions/${enc(id)}`),
  revokeAllSessions: () => request('DELETE', '/account/sessions'),
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
