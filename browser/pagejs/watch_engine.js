// e2e-mcp's listener for the page-world watcher (pagejs/watch.js), run at
// document start in the engine's isolated world: it keeps when each timer
// an action's handler set is due, and take() says how long until the last
// of them fires (0: none pending), forgetting them.
(function (channel) {
  'use strict';
  if (globalThis.__e2eWatch) return;
  let due = 0;
  document.addEventListener(channel, (e) => {
    due = Math.max(due, performance.now() + (Number(e.detail) || 0));
  }, true);
  const take = () => {
    const left = due - performance.now();
    due = 0;
    return left > 0 ? left : 0;
  };
  Object.defineProperty(globalThis, '__e2eWatch', { value: { take }, configurable: false, enumerable: false, writable: false });
})
