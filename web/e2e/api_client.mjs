// The few API calls the test makes beside the pages.

export class Api {
  constructor(base) {
    this.base = base;
  }

  async request(method, path, token, body) {
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base}/api/v1${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.code}: ${data.detail}`);
    return data;
  }

  login(email, password) {
    return this.request('POST', '/auth/token', null, { email, password });
  }

  game(token, id) {
    return this.request('GET', `/games/${id}`, token);
  }

  move(token, id, expected_move_number, action) {
    return this.request('POST', `/games/${id}/moves`, token, { expected_move_number, action });
  }
}
