  // ---------- waiting and checks ----------
  //
  // Go waits for a condition with one call: until() returns a promise that
  // checks the condition now, again after DOM mutations (at most once an
  // animation frame), on the events named, and every POLL_MS for what no
  // mutation announces (styles, layout, a URL set by pushState). It resolves
  // with the first result that is ok (or final: waiting cannot change it),
  // or at the timeout with the last result and timedOut set. An exception of
  // the check rejects it (not_unique, enter_frame, invalid_input go to Go).
  //
  //   waitText(parts, gone, ms)         -> {ok, count, seen}   visible text (dis)appears
  //   waitState(get, state, ms)         -> {ok, now, seen}     visible/hidden/attached/detached
  //   waitURL(src, flags, rel, ms)      -> {ok, now}           location matches a regular expression
  //   waitLoad(state, ms)               -> {ok, now}           document.readyState
  //   expect(get, check, want, ms)      -> {ok, now, seen}     one element's state, text or value
  //   expectCount(parts, n, ms)         -> {ok, now}           how many elements a selector matches
  //   content(el, format, max)          -> {text, total}       innerText or outerHTML, cut at max

  const POLL_MS = 100;

  function until(check, timeout, events) {
    return new Promise((resolve, reject) => {
      let last = { ok: false }, done = false, frame = 0, poll = 0, timer = 0, obs = null;
      const stop = () => {
        done = true;
        clearTimeout(timer);
        clearInterval(poll);
        if (frame) cancelAnimationFrame(frame);
        if (obs) obs.disconnect();
        for (const [t, type] of events || []) t.removeEventListener(type, run, true);
      };
      function run() {
        frame = 0;
        if (done) return;
        try { last = check(); } catch (e) { stop(); reject(e); return; }
        if (last.ok || last.final) { stop(); resolve(last); }
      }
      run();
      if (done) return;
      obs = new MutationObserver(() => { if (!frame && !done) frame = requestAnimationFrame(run); });
      obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      for (const [t, type] of events || []) t.addEventListener(type, run, true);
      poll = setInterval(run, POLL_MS);
      timer = setTimeout(() => {
        run();
        if (!done) { stop(); resolve(Object.assign({}, last, { ok: false, timedOut: true })); }
      }, Math.max(0, timeout));
    });
  }

  // probe(get): the element get() yields, or null when there is none (not
  // found, or a ref whose element left the page).
  function probe(get) {
    try { return get(); } catch (e) {
      if (e instanceof EngineError && (e.code === 'element_not_found' || e.code === 'ref_stale')) return null;
      throw e;
    }
  }

  function waitText(parts, gone, timeout) {
    return until(() => withCaches(() => {
      const els = (runChain(parts).els || []).filter(isVisible);
      return { ok: gone ? els.length === 0 : els.length > 0, count: els.length, seen: els.length ? describe(els[0]) : '' };
    }), timeout);
  }

  function waitState(get, state, timeout) {
    return until(() => {
      const el = probe(get);
      const now = !el ? 'detached' : isVisible(el) ? 'visible' : 'hidden';
      const ok = now === state || (state === 'attached' && !!el) || (state === 'hidden' && !el);
      return { ok, now, seen: el ? describe(el) : '' };
    }, timeout);
  }

  function regexArg(src, flags, what) {
    try { return new RegExp(src, (flags || '').replace(/[gy]/g, '')); } catch (e) {
      throw fail('invalid_input', `${what} /${src}/${flags || ''}: ${e.message}`);
    }
  }

  // waitURL: rel matches the path, query and fragment instead of the whole URL.
  function waitURL(src, flags, rel, timeout) {
    const re = regexArg(src, flags, 'url');
    return until(() => {
      const url = rel ? location.pathname + location.search + location.hash : location.href;
      return { ok: re.test(url), now: location.href };
    }, timeout, [[window, 'hashchange'], [window, 'popstate']]);
  }

  // waitLoad: 'load' waits for readyState complete, 'domcontentloaded' for
  // interactive (or complete).
  function waitLoad(state, timeout) {
    return until(() => {
      const rs = document.readyState;
      return { ok: state === 'load' ? rs === 'complete' : rs !== 'loading', now: rs };
    }, timeout, [[document, 'readystatechange'], [window, 'load']]);
  }

  // matches(want, s): want is {m: 'contains' | 'equals' | 'regex', v, f}.
  // Contains compares whitespace-normalized text; equals is exact.
  function matches(want, s) {
    switch (want.m) {
      case 'regex': return regexArg(want.v, want.f, 'expected').test(s);
      case 'contains': return norm(s).includes(norm(want.v));
    }
    return s === want.v;
  }

  const VALUE_TAGS = new Set(['input', 'textarea', 'select']);

  function checkElement(el, check, want) {
    if (check === 'count') { const n = el ? 1 : 0; return { ok: n === want.n, now: String(n) }; }
    if (!el) return { ok: check === 'hidden', now: 'not found' };
    const role = roleOf(el);
    switch (check) {
      case 'visible': case 'hidden': {
        const v = isVisible(el);
        return { ok: v === (check === 'visible'), now: v ? 'visible' : 'hidden' };
      }
      case 'enabled': case 'disabled': {
        const d = isDisabled(el, role);
        return { ok: d === (check === 'disabled'), now: d ? 'disabled' : 'enabled' };
      }
      case 'checked': case 'unchecked': {
        if (!CHECKABLE_ROLES.has(role)) return { ok: false, final: true, now: 'not a checkbox, radio or switch' };
        const c = checkedState(el, role);
        const now = c === 'mixed' ? 'mixed' : c ? 'checked' : 'unchecked';
        return { ok: now === check, now };
      }
      case 'text': {
        const t = fullText(el);
        return { ok: matches(want, t), now: t };
      }
      case 'value': {
        if (!VALUE_TAGS.has(el.localName)) return { ok: false, final: true, now: 'no value (not an input, textarea or select)' };
        // A secret field's value is not shown, however it got there (a
        // saved password the browser filled is no value the agent typed).
        return { ok: matches(want, el.value), now: secretField(el) ? 'the hidden value of a password field' : el.value };
      }
    }
    throw fail('invalid_input', `check ${check}`);
  }

  function expect(get, check, want, timeout) {
    return until(() => {
      const el = probe(get);
      const r = checkElement(el, check, want);
      r.seen = el ? describe(el) : '';
      return r;
    }, timeout);
  }

  function expectCount(parts, n, timeout) {
    return until(() => withCaches(() => {
      frameOwner = null;
      const r = runChain(parts);
      if (r.frame !== undefined) throw fail('enter_frame', 'the selector goes on inside an iframe', r.frame);
      return { ok: r.els.length === n, now: String(r.els.length) };
    }), timeout);
  }

  function content(el, format, max) {
    const root = el || (format === 'html' ? document.documentElement : document.body || document.documentElement);
    if (!root) return { text: '', total: 0 };
    const s = format === 'html' ? root.outerHTML : String(root.innerText ?? root.textContent ?? '');
    return { text: s.length > max ? s.slice(0, max) : s, total: s.length };
  }
