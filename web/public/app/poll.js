// Keeps a page fresh for a player who leaves it open for days: polls
// quickly after a change and backs off while nothing happens (and further
// while the tab is hidden); a change, a move or the tab coming back resets
// the pace.

const FAST_MS = 3000;
const SLOW_MS = 60000;
const HIDDEN_MS = 300000;

export class Poller {
  constructor(check) {
    this.check = check;
    this.delay = FAST_MS;
    this.timer = null;
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.reset(true);
    };
  }

  start() {
    this.stopped = false;
    clearTimeout(this.timer);
    document.addEventListener('visibilitychange', this.onVisible);
    this.schedule();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = null;
    document.removeEventListener('visibilitychange', this.onVisible);
  }

  reset(now = false) {
    if (this.stopped) return;
    this.delay = FAST_MS;
    clearTimeout(this.timer);
    if (now) this.tick();
    else this.schedule();
  }

  schedule() {
    const hidden = document.visibilityState === 'hidden';
    this.timer = setTimeout(() => this.tick(), hidden ? Math.max(this.delay, HIDDEN_MS) : this.delay);
  }

  async tick() {
    let changed = false;
    try {
      changed = await this.check();
    } catch {
      // A network hiccup: try again later at the slower pace.
    }
    this.delay = changed ? FAST_MS : Math.min(SLOW_MS, Math.round(this.delay * 1.5));
    if (!this.stopped) this.schedule();
  }
}
