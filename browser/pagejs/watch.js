// e2e-mcp's watcher in the page's own world, run before the page's scripts
// (browser/watch.go). An action's handler may start its work a little later
// (setTimeout(() => location.href = ..., 100)): a timer set while a trusted
// event of an action (a click, a key, an input, a submit, focus moving) is
// dispatched, due within cfg.max ms, is told to the engine's world by an
// event of a private name, so that the action waits until it has fired and
// shows what it did; so is a callback for the next frame asked for then
// (requestAnimationFrame: the action waits a frame), and a click on a
// download link (the action waits for the download to begin). setTimeout
// and requestAnimationFrame stay the page's own functions behind a proxy;
// a click listener on the window is added; nothing else of the page
// changes. With cfg.webdriver (a browser we did not launch, which may have
// been started with --enable-automation or headless) navigator.webdriver
// reads false, as it does in ours.
(function (cfg) {
  'use strict';
  const g = globalThis;
  const apply = Reflect.apply;
  if (cfg.webdriver && typeof Navigator === 'function') {
    const d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver');
    if (d && d.get && apply(d.get, navigator, []) === true) {
      Object.defineProperty(Navigator.prototype, 'webdriver', { ...d, get: new Proxy(d.get, { apply: () => false }) });
    }
  }
  const real = g.setTimeout;
  if (typeof real !== 'function' || typeof document === 'undefined') return;
  const doc = document;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const Custom = CustomEvent;
  const test = RegExp.prototype.test;
  const eventOf = Object.getOwnPropertyDescriptor(g, 'event') || Object.getOwnPropertyDescriptor(Window.prototype, 'event');
  const actionEvent = /^(?:(?:dbl|aux)?click|contextmenu|(?:mouse|pointer)(?:down|up)|touch(?:start|end)|key(?:down|up|press)|beforeinput|input|change|submit|reset|focus(?:in|out)?|blur|drop|dragend|paste|cut|copy)$/;
  // A click that reaches the window, not prevented, on a link that
  // downloads (<a download> in the document) begins a
  // download the browser tells of a moment later, on another channel:
  // the action waits for it to begin, so that its answer lists it.
  const El = Element;
  const closest = El.prototype.closest;
  const pathOf = Event.prototype.composedPath;
  g.addEventListener('click', (e) => {
    if (e.defaultPrevented) return;
    const path = apply(pathOf, e, []);
    for (const n of path) {
      if (n instanceof El && apply(closest, n, ['a[download][href]'])) {
        apply(dispatch, doc, [new Custom(cfg.channel, { detail: 'download' })]);
        return;
      }
    }
  });
  g.setTimeout = new Proxy(real, {
    apply(target, self, args) {
      const e = eventOf && eventOf.get ? apply(eventOf.get, g, []) : undefined;
      if (e && e.isTrusted && apply(test, actionEvent, [e.type])) {
        const delay = typeof args[1] === 'number' && args[1] > 0 ? args[1] : 0;
        if (delay <= cfg.max) apply(dispatch, doc, [new Custom(cfg.channel, { detail: delay })]);
      }
      return apply(target, self, args);
    },
  });
  // A callback for the next frame, asked for while an action's trusted
  // event is dispatched (an editor that puts its selection back, a menu
  // that moves focus into itself), is waited for too: one frame.
  const realFrame = g.requestAnimationFrame;
  if (typeof realFrame === 'function') {
    g.requestAnimationFrame = new Proxy(realFrame, {
      apply(target, self, args) {
        const e = eventOf && eventOf.get ? apply(eventOf.get, g, []) : undefined;
        if (e && e.isTrusted && apply(test, actionEvent, [e.type])) apply(dispatch, doc, [new Custom(cfg.channel, { detail: 'frame' })]);
        return apply(target, self, args);
      },
    });
  }
})
