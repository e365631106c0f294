// Follows a game's live event stream and says when something happened, so
// the page reloads at once instead of on the poller's next tick. The stream
// is read with fetch, not EventSource: EventSource cannot send the
// Authorization header, and the API takes no token in the URL (URLs end up
// in logs, history and Referer headers). While the stream is up the poller
// rests; when it fails or ends, the poller takes over and the stream is
// tried again later.

import { streamResponse } from './api.js';

const RETRY_MS = 30000;

export class LiveStream {
  // `path`: the stream under /api/v1; `since()`: the last move number
  // shown (sent as Last-Event-ID); `onChange()`: something happened;
  // `onUp()` / `onDown()`: the stream started / stopped carrying news.
  constructor(path, { since, onChange, onUp, onDown }) {
    Object.assign(this, { path, since, onChange, onUp, onDown });
    this.stopped = false;
    this.retry = null;
    this.abort = null;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    this.abort?.abort();
  }

  async connect() {
    if (this.stopped) return;
    this.abort = new AbortController();
    let up = false;
    try {
      const res = await streamResponse(this.path, this.since(), this.abort.signal);
      up = true;
      this.onUp();
      await this.read(res.body.getReader());
    } catch {
      // Refused, unreachable or cut: polling covers it.
    }
    if (this.stopped) return;
    if (up || !this.retry) this.onDown();
    // A game that is over sends nothing more.
    if (!this.ended) this.retry = setTimeout(() => this.connect(), RETRY_MS);
  }

  // Events are separated by a blank line; a comment (heartbeat) starts
  // with a colon and says nothing happened.
  async read(reader) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith(':')) continue;
        if (/^event: end$/m.test(event)) this.ended = true;
        this.onChange();
      }
    }
  }
}
