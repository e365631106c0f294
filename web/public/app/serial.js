// One refresh of a page at a time. A game page is refreshed by the
// player's own moves, by its event stream and by the poller; two refreshes
// running at once redraw the page twice, pulling a half-filled form from
// under the player, and fetch the same log rows twice.

// A runner that starts each function given to it once the one before has
// settled, in the order given; a failure does not stop the ones after.
export function serial() {
  let last = Promise.resolve();
  return (fn) => {
    const run = last.then(() => fn());
    last = run.catch(() => {});
    return run;
  };
}

// `fn` through `run` (a `serial()` runner), with every call made while a
// call still waits to start folded into that one: a burst of news costs
// one refresh after the one under way, not one per notice.
export function coalesced(run, fn) {
  let waiting = null;
  return () => {
    waiting ??= run(() => {
      waiting = null;
      return fn();
    });
    return waiting;
  };
}
