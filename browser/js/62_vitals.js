  // ---------- web vitals ----------
  // vitals(refSeq, prefix) -> a promise of {watched, ttfb, fcp, lcp, cls,
  // inp, firstInput, longTasks, refSeq}, times in ms from the navigation's
  // start. It waits two frames first, so that what the last frame painted
  // is reported. With the watcher (browser/measure/vitals.js) it reads what
  // was observed from document start; without it, what the timeline
  // buffered.
  // Elements are named by refs, handed out as candidates() does.

  // Two frames, then (while the document has not painted content yet, as
  // right after the load of a small page: its paint is reported a frame or
  // two after it shows) up to a second for its first contentful paint.
  function painted() {
    const frames = new Promise((done) => {
      requestAnimationFrame(() => requestAnimationFrame(done));
      setTimeout(done, 250); // a hidden tab paints no frames
    });
    const fcp = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    return frames.then(() => (fcp() || document.visibilityState !== 'visible') ? null : new Promise((done) => {
      let o = null;
      const end = () => { if (o) o.disconnect(); done(); };
      try {
        o = new PerformanceObserver(() => { if (fcp()) requestAnimationFrame(end); });
        o.observe({ type: 'paint' });
      } catch (e) { /* no paint timing */ }
      setTimeout(end, 1000);
    }));
  }

  function vitals(refSeq, prefix) {
    return painted().then(() => withCaches(() => {
      const st = { seq: Math.max(Number(refSeq) || 0, lastSeq), prefix: prefix || '', refs: {} };
      const named = (node) => {
        const el = node && (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement);
        if (!el || !el.isConnected) return null;
        let role = roleOf(el);
        if (!role || role === 'presentation' || role === 'none') role = 'generic';
        const name = accName(el, role);
        let what = describe(el);
        const t = name ? '' : norm(el.innerText || el.textContent || '');
        if (t) what += ' ' + JSON.stringify(clip(t, 60));
        return { ref: refFor(el, role, name, st), role, name: clip(name, 80), what };
      };
      const log = globalThis.__e2eVitals;
      if (log) log.flush();
      const buffered = (type) => {
        try {
          const o = new PerformanceObserver(() => {});
          o.observe({ type, buffered: true });
          const r = o.takeRecords();
          o.disconnect();
          return r;
        } catch (e) { return []; }
      };
      const nav = performance.getEntriesByType('navigation')[0];
      const since = (nav && nav.activationStart) || 0;
      const out = { watched: !!log, refSeq: 0 };
      if (nav && nav.responseStart > 0) out.ttfb = Math.max(0, nav.responseStart - since);
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      if (fcp) out.fcp = Math.max(0, fcp.startTime - since);

      const lcps = log ? log.lcp : buffered('largest-contentful-paint');
      const lcp = lcps[lcps.length - 1];
      if (lcp) {
        out.lcp = { ms: Math.max(0, lcp.startTime - since), size: lcp.size, url: clip(lcp.url || '', 120),
          element: named(lcp.element) };
      }

      // CLS: the largest session window (shifts at most 1 s apart, 5 s in
      // all) of shifts without recent input.
      const shifts = (log ? log.shifts : buffered('layout-shift')).filter((e) => !e.hadRecentInput);
      let best = { value: 0, entries: [] }, cur = { value: 0, entries: [] };
      for (const e of shifts) {
        const first = cur.entries[0], last = cur.entries[cur.entries.length - 1];
        if (last && (e.startTime - last.startTime > 1000 || e.startTime - first.startTime > 5000)) cur = { value: 0, entries: [] };
        cur.value += e.value;
        cur.entries.push(e);
        if (cur.value > best.value) best = { value: cur.value, entries: cur.entries.slice() };
      }
      const moved = new Map();
      for (const e of best.entries) {
        for (const s of e.sources || []) {
          const el = s.node && (s.node.nodeType === Node.ELEMENT_NODE ? s.node : s.node.parentElement);
          if (el && !moved.has(el) && moved.size < 5) moved.set(el, Math.round(e.startTime - since));
        }
      }
      out.cls = { value: best.value, shifts: shifts.length,
        elements: [...moved].map(([el, at]) => Object.assign(named(el) || { what: '(removed)' }, { at })).filter(Boolean) };

      // INP: the longest interaction (the 98th percentile past 50 of them).
      const events = log ? log.events : buffered('event').filter((e) => e.interactionId);
      // Each interaction's longest event; its target, from whichever of
      // its events still names one (a pointerdown's may be null).
      const byId = new Map(), targetOf = new Map();
      for (const e of events) {
        const had = byId.get(e.interactionId);
        const busy = (x) => x.processingEnd - x.processingStart;
        if (!had || e.duration > had.duration || (e.duration === had.duration && busy(e) > busy(had))) byId.set(e.interactionId, e);
        if (e.target && !targetOf.has(e.interactionId)) targetOf.set(e.interactionId, e.target);
      }
      const worst = [...byId.values()].sort((a, b) => b.duration - a.duration);
      out.firstInput = !!(log ? log.firstInput : buffered('first-input')[0]);
      if (worst.length) {
        const e = worst[Math.min(worst.length - 1, Math.floor(worst.length / 50))];
        out.inp = { ms: e.duration, interactions: worst.length, event: e.name, target: named(e.target || targetOf.get(e.interactionId)),
          inputDelay: Math.max(0, e.processingStart - e.startTime), processing: Math.max(0, e.processingEnd - e.processingStart),
          presentation: Math.max(0, e.startTime + e.duration - e.processingEnd) };
      }

      const tasks = log ? log.longtasks : buffered('longtask');
      if (log || tasks.length) {
        let tbt = 0, longest = null;
        for (const t of tasks) {
          tbt += Math.max(0, t.duration - 50);
          if (!longest || t.duration > longest.duration) longest = t;
        }
        out.longTasks = { count: tasks.length, tbt, longest: longest ? longest.duration : 0,
          longestAt: longest ? Math.max(0, longest.startTime - since) : 0 };
      }
      out.refSeq = st.seq;
      return out;
    }));
  }
