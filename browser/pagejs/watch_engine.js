// e2e-mcp's listener for the page-world watcher (pagejs/watch.js), run at
// document start in the engine's isolated world: it keeps when each timer
// an action's handler set is due, and whether a download link was
// clicked or a callback asked for the next frame; take() says how long
// until the last timer fires (ms, 0: none pending), whether a download is
// to begin and whether a frame callback waits, forgetting them.
(function (channel) {
  'use strict';
  if (globalThis.__e2eWatch) return;
  let due = 0;
  let download = false;
  let frame = false;
  document.addEventListener(channel, (e) => {
    if (e.detail === 'download') {
      download = true;
      return;
    }
    if (e.detail === 'frame') {
      frame = true;
      return;
    }
    due = Math.max(due, performance.now() + (Number(e.detail) || 0));
  }, true);
  const take = () => {
    const left = due - performance.now();
    const out = { ms: left > 0 ? left : 0, download, frame };
    due = 0;
    download = false;
    frame = false;
    return out;
  };
  Object.defineProperty(globalThis, '__e2eWatch', { value: { take }, configurable: false, enumerable: false, writable: false });
})
