// e2e-mcp web-vitals watcher: run at document start in the engine's
// isolated world of the sessions that measure web vitals (the audit group).
// The page's performance timeline keeps only some entries for observers
// that come later (Event Timing only events of 104 ms or more, long tasks
// none), so this observes from the start and keeps what the engine's
// vitals() reads: LCP candidates, layout shifts, interactions, long tasks.
// Each list is bounded; the page sees nothing of it.
(() => {
  'use strict';
  if (globalThis.__e2eVitals || window !== window.top) return;
  const MAX = 300;
  const log = { lcp: [], shifts: [], events: [], longtasks: [], firstInput: null, observers: [] };
  const keep = (list, e) => { if (list.length < MAX) list.push(e); };
  const handlers = {
    'largest-contentful-paint': (e) => { log.lcp.length >= MAX ? (log.lcp[MAX - 1] = e) : log.lcp.push(e); },
    'layout-shift': (e) => keep(log.shifts, e),
    event: (e) => { if (e.interactionId) keep(log.events, e); },
    'first-input': (e) => { log.firstInput = e; },
    longtask: (e) => keep(log.longtasks, e),
  };
  for (const [type, fn] of Object.entries(handlers)) {
    try {
      const o = new PerformanceObserver((list) => list.getEntries().forEach(fn));
      o.observe(type === 'event' ? { type, buffered: true, durationThreshold: 16 } : { type, buffered: true });
      log.observers.push([o, fn]);
    } catch (e) { /* an entry type this browser lacks */ }
  }
  // flush takes the entries observed but not yet delivered.
  log.flush = () => { for (const [o, fn] of log.observers) o.takeRecords().forEach(fn); };
  Object.defineProperty(globalThis, '__e2eVitals', { value: log, configurable: false, enumerable: false, writable: false });
})();
