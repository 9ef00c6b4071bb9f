// e2e-mcp's fake clock: runs in the page's own world, before its scripts,
// and replaces Date, performance.now and the timer functions with ones
// driven by a clock the agent controls (Playwright's clock semantics).
// The state it starts from comes from the server: the fake time at a real
// instant, whether it is paused, and a fixed time for Date if any.
(function (cfg) {
  if (globalThis.__e2eClock) { globalThis.__e2eClock.restore(cfg); return; }
  const real = {
    Date: globalThis.Date,
    setTimeout: globalThis.setTimeout.bind(globalThis),
    clearTimeout: globalThis.clearTimeout.bind(globalThis),
    perfNow: performance.now.bind(performance),
  };
  const realNow = () => real.Date.now();

  let fake = 0;        // the clock's time (ms since the epoch)
  let lastReal = 0;    // the real time fake was last brought up to
  let paused = false;
  let frozen = 0;      // > 0 while a step fires timers: time stands still
  let fixed = null;    // Date's time while set (setFixedTime)
  const perfBase = real.perfNow();
  let perfFake0 = 0;   // fake time when performance.now was perfBase

  function restore(c) {
    paused = !!c.paused;
    fixed = typeof c.fixed === 'number' ? c.fixed : null;
    fake = c.now + (paused ? 0 : Math.max(0, realNow() - c.realAt));
    lastReal = realNow();
    if (!perfFake0) perfFake0 = fake;
    schedule();
  }

  // now brings the clock up to the real time that passed while running.
  function now() {
    if (!paused && !frozen) { const r = realNow(); fake += r - lastReal; lastReal = r; }
    return fake;
  }
  // step runs f with the time standing still but where f puts it.
  function step(f) {
    now();
    frozen++;
    try { f(); } finally { frozen--; lastReal = realNow(); schedule(); }
  }
  const dateNow = () => (fixed !== null ? fixed : Math.floor(now()));

  // ---- timers ----
  const timers = new Map(); // id -> {fn, args, due, every}
  let nextID = 1;
  let handle = null;

  function add(fn, delay, args, repeat) {
    const id = nextID++;
    const ms = Math.max(0, Number(delay) || 0);
    const f = typeof fn === 'function' ? fn : () => (0, eval)(String(fn));
    timers.set(id, { fn: f, args, due: now() + ms, every: repeat ? Math.max(1, ms) : 0, seq: id });
    schedule();
    return id;
  }
  function fire(id, t) {
    if (t.every) t.due += t.every; else timers.delete(id);
    try { t.fn.apply(globalThis, t.args); } catch (e) { real.setTimeout(() => { throw e; }, 0); }
  }
  // next is the earliest timer due at or before limit (ties: first set).
  function next(limit) {
    let best = null, bestID = 0;
    for (const [id, t] of timers) {
      if (t.due <= limit && (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq))) { best = t; bestID = id; }
    }
    return best ? [bestID, best] : null;
  }
  // While the clock runs, a real timeout wakes it when a timer is due.
  function schedule() {
    if (handle !== null) { real.clearTimeout(handle); handle = null; }
    if (paused || !timers.size) return;
    let soonest = Infinity;
    for (const t of timers.values()) soonest = Math.min(soonest, t.due);
    handle = real.setTimeout(() => { handle = null; runDue(); }, Math.max(0, soonest - now()));
  }
  function runDue() {
    const limit = now();
    for (let n = 0, hit; n < 10000 && (hit = next(limit)); n++) fire(hit[0], hit[1]);
    schedule();
  }

  // ---- the controls ----
  // runFor: time passes by ms, every timer fires in order as it comes due.
  function runFor(ms) {
    step(() => {
      const target = fake + ms;
      for (let n = 0, hit; n < 100000 && (hit = next(target)); n++) { fake = Math.max(fake, hit[1].due); fire(hit[0], hit[1]); }
      fake = target;
    });
  }
  // fastForward: the clock jumps by ms; timers due by then fire once each.
  function fastForward(ms) {
    step(() => {
      fake += ms;
      const due = [...timers].filter(([, t]) => t.due <= fake).sort((a, b) => a[1].due - b[1].due || a[1].seq - b[1].seq);
      for (const [id, t] of due) {
        if (!timers.has(id)) continue;
        if (t.every) t.due = fake + t.every; else timers.delete(id);
        try { t.fn.apply(globalThis, t.args); } catch (e) { real.setTimeout(() => { throw e; }, 0); }
      }
    });
  }
  const api = {
    fastForward, runFor,
    pauseAt(t) { now(); paused = true; if (t > fake) fastForward(t - fake); else step(() => { fake = t; }); },
    resume() { now(); paused = false; lastReal = realNow(); schedule(); },
    setFixedTime(t) { fixed = t; },
    setSystemTime(t) { step(() => { fake = t; fixed = null; }); },
    state() { return { now: now(), realAt: realNow(), paused, fixed }; },
    restore,
  };

  // ---- the replacements ----
  function FakeDate(...args) {
    if (!new.target) return new real.Date(dateNow()).toString();
    return Reflect.construct(real.Date, args.length ? args : [dateNow()], new.target);
  }
  FakeDate.prototype = real.Date.prototype;
  FakeDate.now = dateNow;
  FakeDate.parse = real.Date.parse;
  FakeDate.UTC = real.Date.UTC;
  Object.defineProperty(FakeDate, 'name', { value: 'Date' });
  FakeDate.toString = () => real.Date.toString();
  globalThis.Date = FakeDate;
  globalThis.setTimeout = (fn, delay, ...args) => add(fn, delay, args, false);
  globalThis.setInterval = (fn, delay, ...args) => add(fn, delay, args, true);
  globalThis.clearTimeout = globalThis.clearInterval = (id) => { timers.delete(id); };
  performance.now = () => perfBase + (now() - perfFake0);
  Object.defineProperty(globalThis, '__e2eClock', { value: Object.freeze(api), enumerable: false });
  restore(cfg);
})
