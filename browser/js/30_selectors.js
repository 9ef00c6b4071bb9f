  // ---------- selectors ----------
  // Go parses the selector (browser/selector.go) and sends its parts as JSON;
  // this evaluates them. A chain starts at the document; each part queries
  // inside every element the previous part found (open shadow roots
  // included), nth= and visible= filter what was found so far.

  const TEXT_SKIP = new Set(['script', 'style', 'noscript', 'head', 'template']);


  // The element's parent in the flat tree: across a shadow root to its host.
  function flatParent(el) {
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.host ? p.host : null;
  }

  // Every element under root (not root itself), through open shadow roots.
  function allUnder(root) {
    const out = [];
    const visit = (node) => {
      for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
        out.push(c);
        if (c.shadowRoot) visit(c.shadowRoot);
        visit(c);
      }
    };
    if (root.shadowRoot) visit(root.shadowRoot);
    visit(root);
    return out;
  }

  // Open shadow roots under root, root's own included.
  function rootsUnder(root) {
    const roots = [root];
    if (root.shadowRoot) roots.push(...rootsUnder(root.shadowRoot));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(...rootsUnder(el.shadowRoot));
    return roots;
  }

  // ---- text ----

  let textCache = null;

  // Text matching reads the DOM as Playwright does: an element's children,
  // then its open shadow root's; a <slot> has only its fallback content
  // (the slotted nodes count for the host's light DOM, once). Nothing in
  // <head> is page text.
  const inHead = (el) => !!(el.ownerDocument.head && el.ownerDocument.head.contains(el));
  const buttonInput = (el) => el.localName === 'input' && (el.type === 'submit' || el.type === 'button' || el.type === 'reset');

  // The element's normalized text, shadow content included; a button-like
  // input's text is its value.
  function fullText(el) {
    if (textCache && textCache.has(el)) return textCache.get(el);
    let t = '';
    if (buttonInput(el)) t = el.value || '';
    else {
      const parts = [];
      const walk = (node) => {
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (c.nodeType === Node.TEXT_NODE) parts.push(c.data);
          else if (c.nodeType === Node.ELEMENT_NODE && !TEXT_SKIP.has(c.localName)) parts.push(fullText(c));
        }
      };
      walk(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      t = parts.join('');
    }
    t = norm(t);
    if (textCache) textCache.set(el, t);
    return t;
  }

  // The element's own text runs: consecutive text-node children, normalized.
  function ownRuns(el) {
    if (buttonInput(el)) return [norm(el.value)];
    const runs = [];
    let cur = '';
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === Node.TEXT_NODE) cur += c.data;
      else if (c.nodeType === Node.ELEMENT_NODE) { if (norm(cur)) runs.push(norm(cur)); cur = ''; }
    }
    if (norm(cur)) runs.push(norm(cur));
    return runs;
  }

  const regexCache = new Map();
  function regexOf(tm) {
    const key = tm.f + '/' + tm.v;
    let re = regexCache.get(key);
    if (!re) {
      try { re = new RegExp(tm.v, (tm.f || '').replace(/[gy]/g, '')); } catch (e) {
        throw fail('invalid_input', `regular expression /${tm.v}/${tm.f || ''}: ${e.message}`);
      }
      regexCache.set(key, re);
    }
    return re;
  }

  // matchString tests one string (already normalized) against a matcher.
  function matchString(tm, s) {
    switch (tm.m) {
      case 'lax': return s.toLowerCase().includes(norm(tm.v).toLowerCase());
      case 'exact': return s === norm(tm.v);
      case 'iexact': return s.toLowerCase() === norm(tm.v).toLowerCase();
      case 'regex': return regexOf(tm).test(s);
    }
    return false;
  }

  // Does el match the text matcher as a text= selector does? lax and regex
  // look at the whole text; exact forms at the element's own text runs.
  function elementMatchesText(tm, el) {
    if (tm.m === 'exact' || tm.m === 'iexact') {
      return ownRuns(el).some((r) => matchString(tm, r)) || (el.children.length === 0 && matchString(tm, fullText(el)));
    }
    return matchString(tm, fullText(el));
  }

  // Keep the deepest: drop an element when one of its flat-tree children
  // also matched (lax and regex select the smallest element with the text).
  function deepest(els) {
    const set = new Set(els);
    const hasMatchedChild = new Set();
    for (const el of els) {
      const p = flatParent(el);
      if (p && set.has(p)) hasMatchedChild.add(p);
    }
    return els.filter((el) => !hasMatchedChild.has(el));
  }

  // textQuery: the elements under root with the text; after >>, root itself
  // too (button >> "Next" is the button).
  function textQuery(tm, root) {
    const under = root.nodeType === Node.ELEMENT_NODE ? [root, ...allUnder(root)] : allUnder(root);
    const els = under.filter((el) => !TEXT_SKIP.has(el.localName) && !inHead(el) && elementMatchesText(tm, el));
    return tm.m === 'lax' || tm.m === 'regex' ? deepest(els) : els;
  }

  // ---- role ----

  function hiddenForAriaDeep(el) {
    for (let n = el; n; n = flatParent(n)) {
      if (n.getAttribute('aria-hidden') === 'true' || n.hasAttribute('inert')) return true;
    }
    // display: contents has no box for checkVisibility: its own visibility
    // and its nearest boxed ancestor's decide. The options of a <select>
    // have no box either: the select's visibility is theirs (not its
    // optgroups', as Playwright has it), but display: none on the option or
    // its optgroup still hides it (an option a page took out of the list).
    let box = el;
    if (el.localName === 'option' && el.closest('select')) {
      box = el.closest('select');
      for (let n = el; n && n !== box; n = n.parentElement) if (getComputedStyle(n).display === 'none') return true;
    }
    while (box && getComputedStyle(box).display === 'contents') {
      if (getComputedStyle(box).visibility !== 'visible') return true;
      box = flatParent(box);
    }
    if (!box) return false;
    return box.checkVisibility ? !box.checkVisibility({ visibilityProperty: true }) : hiddenForAria(box);
  }

  function description(el) {
    const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    if (ids.length) return norm(ids.map((id) => { const d = byId(el, id); return d ? fullText(d) : ''; }).join(' '));
    return norm(el.getAttribute('aria-description') || '');
  }

  function matchOp(attr, value) {
    const tm = attr.t;
    if (tm.m === 'regex') return regexOf(tm).test(value);
    let a = value, b = norm(tm.v);
    if (tm.m === 'iexact') { a = a.toLowerCase(); b = b.toLowerCase(); }
    switch (attr.op) {
      case '=': return a === b;
      case '*=': return a.includes(b);
      case '^=': return a.startsWith(b);
      case '$=': return a.endsWith(b);
      case '~=': return a.split(/\s+/).includes(b);
      case '|=': return a === b || a.startsWith(b + '-');
    }
    return false;
  }

  function levelOf(el, role) {
    if (role === 'heading' && /^h[1-6]$/.test(el.localName)) return +el.localName[1]; // native level first
    const lvl = parseInt(el.getAttribute('aria-level') || '', 10);
    if (lvl > 0) return lvl;
    return role === 'heading' ? 2 : 0;
  }

  function roleMatches(p, el) {
    const role = roleOf(el);
    if (role !== p.role) return false;
    for (const a of p.attrs || []) {
      switch (a.n) {
        case 'name': if (!matchOp(a, accName(el, role))) return false; break;
        case 'description': if (!matchOp(a, description(el))) return false; break;
        case 'checked': { const c = checkedState(el, role); if ((c === 'mixed' ? 'mixed' : !!c) !== a.v) return false; break; }
        case 'pressed': {
          const v = el.getAttribute('aria-pressed');
          if ((v === 'mixed' ? 'mixed' : v === 'true') !== a.v) return false;
          break;
        }
        case 'selected': {
          const s = (el.localName === 'option' && el.selected) || el.getAttribute('aria-selected') === 'true';
          if (s !== a.v) return false;
          break;
        }
        case 'expanded': { // no aria-expanded: neither true nor false
          const v = el.getAttribute('aria-expanded');
          if ((v === 'true' ? true : v === 'false' ? false : undefined) !== a.v) return false;
          break;
        }
        case 'disabled': if (isDisabled(el, role) !== a.v) return false; break;
        case 'level': if (levelOf(el, role) !== a.v) return false; break;
      }
    }
    return true;
  }

  function roleQuery(p, root) {
    const includeHidden = (p.attrs || []).some((a) => a.n === 'include-hidden' && a.v === true);
    return allUnder(root).filter((el) => roleMatches(p, el) && (includeHidden || !hiddenForAriaDeep(el)));
  }

  // ---- css ----

  // Does el match one compound: its native part and the engine's pseudos?
  function compoundMatches(c, el) {
    try {
      if (c.css !== '*' && !el.matches(c.css)) return false;
    } catch (e) {
      throw fail('invalid_input', `${JSON.stringify(c.css)} is not valid CSS: ${e.message}`);
    }
    for (const ps of c.ps || []) {
      if (ps.sel) {
        if (!selectorPseudoMatches(ps, el)) return false;
        continue;
      }
      if (ps.n !== 'visible' && (TEXT_SKIP.has(el.localName) || inHead(el))) return false;
      switch (ps.n) {
        case 'visible': if (!isVisible(el)) return false; break;
        case 'has-text': if (!matchString(ps.t, fullText(el))) return false; break;
        case 'text': case 'text-matches':
          if (!matchString(ps.t, fullText(el))) return false;
          // The smallest element only: no child has the text too.
          for (let ch = el.firstElementChild; ch; ch = ch.nextElementSibling) if (matchString(ps.t, fullText(ch))) return false;
          if (el.shadowRoot) for (const ch of el.shadowRoot.children) if (matchString(ps.t, fullText(ch))) return false;
          break;
        case 'text-is': if (!elementMatchesText(ps.t, el)) return false; break;
      }
    }
    return true;
  }

  // Does the chain of compounds up to index i match, ending at el? Inside
  // :has(), scope keeps the chain's elements below it, and first, when
  // given, is the element its first compound must match.
  function chainMatches(chain, i, el, scope, first) {
    if (!compoundMatches(chain[i], el)) return false;
    if (i === 0) return !first || el === first;
    const up = (n) => { const p = flatParent(n); return p === scope ? null : p; };
    switch (chain[i].c) {
      case '>': { const p = up(el); return !!p && chainMatches(chain, i - 1, p, scope, first); }
      case '+': { const s = el.previousElementSibling; return !!s && chainMatches(chain, i - 1, s, scope, first); }
      case '~':
        for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (chainMatches(chain, i - 1, s, scope, first)) return true;
        return false;
      default: // descendant, across shadow roots
        for (let a = up(el); a; a = up(a)) if (chainMatches(chain, i - 1, a, scope, first)) return true;
        return false;
    }
  }

  // :is() and :where() match el when an alternative ends at el, :not()
  // when none does (across shadow roots, as Playwright's engine reads them);
  // :has() when an alternative, read from el (> a child, + ~ a following
  // sibling, else a descendant, shadow roots included), matches something.
  function selectorPseudoMatches(ps, el) {
    const ends = (chain) => chainMatches(chain, chain.length - 1, el);
    switch (ps.n) {
      case 'is': case 'where': return ps.sel.some(ends);
      case 'not': return !ps.sel.some(ends);
    }
    return ps.sel.some((chain) => {
      const last = chain.length - 1;
      const rel = chain[0].c || '';
      if (rel === '') return allUnder(el).some((n) => chainMatches(chain, last, n, el));
      // The chain starts at one of these (a child, or a following sibling):
      // it ends there or below it.
      const starts = rel === '>' ? [...el.children, ...(el.shadowRoot ? el.shadowRoot.children : [])] : [];
      for (let s = el.nextElementSibling; s && rel !== '>'; s = rel === '+' ? null : s.nextElementSibling) starts.push(s);
      return starts.some((first) => (last === 0 ? [first] : [first, ...allUnder(first)])
        .some((n) => chainMatches(chain, last, n, flatParent(first), first)));
    });
  }

  function cssQuery(p, root) {
    const out = [];
    const seen = new Set();
    const roots = rootsUnder(root);
    for (const chain of p.css) {
      const last = chain[chain.length - 1];
      const native = last.css;
      let candidates = [];
      for (const r of roots) {
        try {
          candidates.push(...r.querySelectorAll(native));
        } catch (e) {
          throw fail('invalid_input', `${JSON.stringify(native)} is not valid CSS: ${e.message}`);
        }
      }
      for (const el of candidates) {
        if (!seen.has(el) && chainMatches(chain, chain.length - 1, el)) { seen.add(el); out.push(el); }
      }
    }
    // Matches from several roots or alternatives: put them in flat-tree order.
    if (out.length > 1 && (roots.length > 1 || p.css.length > 1)) {
      const order = new Map(allUnder(root).map((el, i) => [el, i]));
      out.sort((a, b) => order.get(a) - order.get(b));
    }
    return out;
  }

  // ---- the rest ----

  function xpathQuery(p, root) {
    let expr = p.xpath;
    if (root.nodeType !== Node.DOCUMENT_NODE && expr.startsWith('/')) expr = '.' + expr;
    const doc = root.ownerDocument || root;
    let res;
    try {
      res = doc.evaluate(expr, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    } catch (e) {
      throw fail('invalid_input', `xpath ${JSON.stringify(p.xpath)}: ${e.message}`);
    }
    const out = [];
    for (let i = 0; i < res.snapshotLength; i++) {
      const n = res.snapshotItem(i);
      if (n.nodeType === Node.ELEMENT_NODE) out.push(n);
    }
    return out;
  }

  // labelTexts: what label= matches, from the first source that exists, as
  // Playwright reads it: aria-labelledby's elements, else aria-label, else
  // the <label>s of the control.
  function labelTexts(el) {
    const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    const by = ids.map((id) => byId(el, id)).filter(Boolean);
    if (by.length) return by.map(fullText);
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return [norm(aria)];
    return labelsOf(el).map(fullText);
  }

  function attrTextQuery(attr, tm, root) {
    return allUnder(root).filter((el) => {
      const v = el.getAttribute(attr);
      return v !== null && matchString(tm, norm(v));
    });
  }

  function queryPart(p, root) {
    switch (p.e) {
      case 'css': return cssQuery(p, root);
      case 'text': return textQuery(p.text, root);
      case 'role': return roleQuery(p, root);
      case 'xpath': return xpathQuery(p, root);
      case 'attr': return allUnder(root).filter((el) => el.getAttribute(p.attr) === p.value);
      case 'label': return allUnder(root).filter((el) => labelTexts(el).some((t) => matchString(p.text, t)));
      case 'placeholder': case 'alt': case 'title': return attrTextQuery(p.e, p.text, root);
    }
    throw fail('invalid_input', `unknown selector engine ${p.e}`);
  }

  const isFrameOwner = (el) => el.localName === 'iframe' || el.localName === 'frame';

  // query(parts, from) -> {els} for the chain's matches in this document, or
  // {frame: k} when part k must run inside the single iframe the chain has
  // reached (Go continues in that frame).
  function runChain(parts) {
    let set = [document];
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k];
      if (p.e === 'nth') {
        const n = p.n || 0; // Go leaves out 0, the first
        const i = n < 0 ? set.length + n : n;
        set = i >= 0 && i < set.length ? [set[i]] : [];
        continue;
      }
      if (p.e === 'visible') {
        set = set.filter((el) => el.nodeType === Node.ELEMENT_NODE && isVisible(el) === !!p.visible);
        continue;
      }
      if (k > 0 && set.length > 0 && set.every(isFrameOwner)) {
        if (set.length > 1) {
          throw fail('not_unique', `the selector reaches ${set.length} iframes before part ${k + 1}: ${set.slice(0, 5).map(describe).join(', ')}`);
        }
        frameOwner = set[0];
        return { frame: k };
      }
      const next = [];
      const seen = new Set();
      for (const root of set) {
        for (const el of queryPart(p, root)) if (!seen.has(el)) { seen.add(el); next.push(el); }
      }
      set = next;
    }
    return { els: set.filter((el) => el.nodeType === Node.ELEMENT_NODE) };
  }

  // The iframe the last query stopped at, for Go to enter.
  let frameOwner = null;

  function withCaches(fn) {
    const outer = nameCache;
    if (!outer) { styleCache = new Map(); nameCache = new Map(); labelCache = new Map(); textCache = new Map(); }
    try { return fn(); } finally {
      if (!outer) styleCache = nameCache = labelCache = textCache = null;
    }
  }

  // one(parts, text): the single element the selector matches, or a typed
  // error: element_not_found, not_unique (with the count; Go asks
  // candidates() for the list), or enter_frame (Go takes frameOwner and
  // continues in that frame with the remaining parts).
  function one(parts, text) {
    return withCaches(() => {
      frameOwner = null;
      const r = runChain(parts);
      if (r.frame !== undefined) throw fail('enter_frame', 'the selector goes on inside an iframe', r.frame);
      if (!r.els.length) throw fail('element_not_found', `nothing matches ${JSON.stringify(text)}`);
      if (r.els.length > 1) throw fail('not_unique', `${JSON.stringify(text)} matches ${r.els.length} elements`, 0, 'many_matches');
      return r.els[0];
    });
  }

  // all(parts): every element the selector matches here (for counts and lists).
  function all(parts) {
    return withCaches(() => {
      const r = runChain(parts);
      return r.els || [];
    });
  }

  // candidates(parts, refSeq, prefix): describe up to 10 matches, each with a
  // ref (an existing one, or a new one numbered after refSeq).
  function candidates(parts, refSeq, prefix) {
    return withCaches(() => {
      const els = runChain(parts).els || [];
      const st = { seq: Math.max(Number(refSeq) || 0, lastSeq), prefix: prefix || '', refs: {} };
      const list = els.slice(0, 10).map((el) => {
        let role = roleOf(el);
        if (!role || role === 'presentation' || role === 'none') role = 'generic';
        const name = accName(el, role);
        return describe(el) + ' [ref=' + refFor(el, role, name, st) + ']';
      });
      return { list, total: els.length, refSeq: st.seq };
    });
  }

  function takeFrameOwner() {
    const f = frameOwner;
    frameOwner = null;
    return f;
  }
