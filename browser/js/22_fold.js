  // ---------- folding ----------
  // A page larger than the budget is folded: runs of same-role siblings
  // (rows, list items, cards, options) keep their first few items and fold
  // the rest into one line; then lines are kept by priority (landmarks,
  // headings, dialogs, form fields and buttons first, the rest in document
  // order) until the budget is spent, and what is left out becomes fold
  // lines too. A fold line says how to open it: the ref of the node it
  // belongs to and the index of its first item among that node's children.

  const RUN_MIN = 6;     // a run this long is folded...
  const RUN_KEEP = 3;    // ...after its first items,
  const VIEW_KEEP = 10;  // ...and, scrolled into the run, up to this many items on screen
  const TEXT_CLIP = 300; // longer text is clipped to...
  const TEXT_KEEP = 200;
  const FIRST_ROLES = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'region', 'form',
    'search', 'heading', 'dialog', 'alertdialog', 'alert', 'status', 'textbox', 'searchbox', 'combobox', 'checkbox',
    'radio', 'switch', 'slider', 'spinbutton', 'listbox', 'button', 'tablist', 'tab', 'menubar', 'iframe']);
  const NOUNS = { row: 'rows', listitem: 'list items', article: 'articles', option: 'options', menuitem: 'menu items',
    link: 'links', button: 'buttons', generic: 'items', paragraph: 'paragraphs', treeitem: 'tree items', cell: 'cells', gridcell: 'cells',
    heading: 'headings', tab: 'tabs', checkbox: 'checkboxes', radio: 'radio buttons', img: 'images', textbox: 'text boxes',
    group: 'groups', region: 'regions', term: 'terms', definition: 'definitions', figure: 'figures' };

  const sizes = new WeakMap(); // node -> [bytes, lines] rendered unindented (nodes never change once built)
  function sizeOf(it) {
    if (typeof it === 'string') return [Math.min(it.length, TEXT_CLIP) + 10, 1];
    if (it.fold) return [90, 1];
    let s = sizes.get(it);
    if (s) return s;
    let b = it.role.length + it.name.length + it.attrs.length + 18, l = 1;
    if (it.props) for (const [k, v] of it.props) { b += k.length + v.length + 8; l++; }
    for (const k of it.children) { const [cb, cl] = sizeOf(k); b += cb + 2 * cl; l += cl; }
    s = [b, l];
    sizes.set(it, s);
    return s;
  }
  // larger(items, limit): bytesAt(items, 0) > limit, reading only as much
  // of a tree whose size is not known yet as it takes to tell.
  function larger(items, limit) {
    let n = 0;
    for (const it of items) {
      if (typeof it !== 'string' && !it.fold && !sizes.has(it) && larger(it.children, limit - n)) return true;
      n += sizeOf(it)[0];
      if (n > limit) return true;
    }
    return false;
  }
  const TOUCHED = {}; // a view's key for the set of nodes with folds below them
  // bytesAt estimates what items take at depth, as view shows them.
  function bytesAt(items, depth, view) {
    const touched = view && view.get(TOUCHED);
    let n = 0;
    for (const it of items) {
      if (touched && typeof it !== 'string' && !it.fold && touched.has(it)) {
        n += it.role.length + it.name.length + it.attrs.length + 20 + 2 * depth + bytesAt(view.get(it) || it.children, depth + 1, view);
        continue;
      }
      const [b, l] = sizeOf(it);
      n += b + 2 * depth * l;
    }
    return n;
  }

  // onScreen: during one whole-page fold, the run items kept for being on
  // screen; keepWithin spends the budget on them first.
  let onScreen = null;

  // screenRun: when the page is scrolled into a run (its first item is off
  // screen), the run items from i on (before j) that are on screen, as
  // [first, count]; else null. A run is laid out down the page in order,
  // so a binary search finds the first.
  function screenRun(items, first, i, j) {
    const h = window.innerHeight;
    const rect = (k) => {
      const el = items[k].el;
      const r = el && el.getBoundingClientRect ? el.getBoundingClientRect() : null;
      return r && (r.width || r.height) ? r : null;
    };
    const r0 = rect(first);
    if (!r0 || (r0.bottom > 0 && r0.top < h)) return null;
    let lo = i, hi = j;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      const r = rect(m);
      if (!r) return null;
      if (r.bottom <= 0) lo = m + 1; else hi = m;
    }
    let n = 0;
    for (let k = lo; k < j && n < VIEW_KEEP; k++) {
      const r = rect(k);
      if (!r || r.top >= h) break;
      n++;
    }
    return n ? [lo, n] : null;
  }

  const pinCache = new WeakMap();
  // pinned: the node holds the focused element or a dialog; it is never folded.
  function pinned(it) {
    if (typeof it === 'string' || it.fold) return false;
    let p = pinCache.get(it);
    if (p !== undefined) return p;
    p = it.attrs.includes('[active]') || it.role === 'dialog' || it.role === 'alertdialog' || it.children.some(pinned);
    pinCache.set(it, p);
    return p;
  }

  function labelOf(it, depth) {
    if (typeof it === 'string') return clip(norm(it), 32);
    if (it.fold) return it.first;
    if (it.name) return clip(norm(it.name), 32);
    const h = depth === 0 && headingIn(it, 0);
    if (h) return clip(norm(h.name), 32);
    if (depth < 4) for (const k of it.children) { const l = labelOf(k, depth + 1); if (l) return l; }
    return '';
  }

  // headingIn: the first heading in a card-like item, if near the top.
  function headingIn(it, depth) {
    for (const k of it.children) {
      if (typeof k === 'string' || k.fold) continue;
      if (k.role === 'heading' && k.name) return k;
      const h = depth < 3 && headingIn(k, depth + 1);
      if (h) return h;
    }
    return null;
  }

  function foldOf(items, s, e, parent) {
    let count = 0, roles = new Set();
    for (let i = s; i < e; i++) {
      const it = items[i];
      count += it.fold ? it.count : 1;
      roles.add(typeof it === 'string' ? 'text' : it.fold ? it.noun : it.role);
    }
    const role = roles.size === 1 ? [...roles][0] : '';
    return { fold: true, count, noun: NOUNS[role] || (role === 'text' ? 'texts' : role && !role.includes(' ') ? role + 's' : role || 'items'),
      first: labelOf(items[s], 0), last: labelOf(items[e - 1], 0), parent, from: (items[s].fold ? items[s].from : s + 1) };
  }

  const commas = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

  function foldLine(f, st) {
    st.folds++;
    let s = `- \u2026 ${commas(f.count)} more ${f.count === 1 ? 'item' : f.noun}`;
    // A run of one kind is named by its first and last items; a mixed one by its first.
    if (f.first) s += f.count > 1 && f.last && f.last !== f.first && f.noun !== 'items' ? ` (${JSON.stringify(f.first)} \u2026 ${JSON.stringify(f.last)})` : ` (${JSON.stringify(f.first)})`;
    let target = '';
    if (f.parent && f.parent !== ROOT) {
      if (!f.parent.ref && f.parent.el) f.parent.ref = refFor(f.parent.el, f.parent.role, f.parent.name, st);
      target = 'target=' + f.parent.ref + ' ';
      st.refs[f.parent.ref] = { role: f.parent.role, name: f.parent.name };
    } else if (st.rootTarget) target = 'target=' + st.rootTarget + ' ';
    return s + ` [${target}from=${f.from}]`;
  }

  // Stage one: fold long runs of same-role siblings, clip long text.
  // It returns whether anything under parent was folded; view.get(TOUCHED)
  // holds the nodes that have folds below them.
  function foldRuns(parent, items, view) {
    let res = null, oi = null, touched = false; // the view's items, and where each was in items
    const keep = (it, i) => { res.push(it); oi.push(i); };
    const start = (i) => { if (!res) { res = items.slice(0, i); oi = res.map((_, k) => k); } };
    for (let i = 0; i < items.length;) {
      const it = items[i];
      if (typeof it === 'string') {
        if (it.length > TEXT_CLIP) {
          const t = norm(it);
          if (t.length > TEXT_CLIP) {
            start(i);
            keep(t.slice(0, TEXT_KEEP) + `\u2026 (${commas(t.length - TEXT_KEEP)} more characters)`, i);
            i++;
            continue;
          }
        }
        if (res) keep(it, i);
        i++;
        continue;
      }
      if (it.fold) { if (res) keep(it, i); i++; continue; }
      let j = i + 1;
      while (j < items.length && typeof items[j] !== 'string' && items[j].role === it.role) j++;
      if (j - i >= RUN_MIN && !CELL_ROLES.has(it.role)) { // a row's cells are its columns, not a run
        start(i);
        const seen = onScreen && screenRun(items, i, i + RUN_KEEP, j);
        let s = -1;
        for (let k = i; k < j; k++) {
          const shown = seen && k >= seen[0] && k < seen[0] + seen[1];
          if (shown) onScreen.add(items[k]);
          if (k - i < RUN_KEEP || shown || pinned(items[k])) {
            if (s >= 0) { keep(foldOf(items, s, k, parent), s); s = -1; }
            keep(items[k], k);
            if (foldRuns(items[k], items[k].children, view)) touched = true;
          } else if (s < 0) s = k;
        }
        if (s >= 0) keep(foldOf(items, s, j, parent), s);
        i = j;
        continue;
      }
      if (res) keep(it, i);
      if (foldRuns(it, it.children, view)) touched = true;
      i++;
    }
    if (res) { res.oi = oi; view.set(parent, res); }
    if (res || touched) view.set(TOUCHED, (view.get(TOUCHED) || new Set()).add(parent));
    return !!res || touched;
  }

  // unit: a node that renders as one line (its text or its cells inline).
  function unit(n, view) {
    const kids = view.get(n) || n.children;
    return !kids.length || (kids.length === 1 && typeof kids[0] === 'string' && !(n.props && n.props.length)) || inlineRow(n, kids);
  }

  const unitEntry = (e, view) => typeof e.it === 'string' || unit(e.it, view);

  // Stage two: keep lines by priority within the budget.
  // inOrder: document order alone decides (an opened part, read page by page).
  function keepWithin(rootItems, view, limit, depth0, inOrder) {
    const E = []; // {it, parent, size, first}
    const flat = (items, parent, depth, first) => {
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        const isNode = typeof it !== 'string' && !it.fold;
        const u = !isNode || unit(it, view);
        const [b, l] = sizeOf(it);
        const size = u ? (isNode ? b + 2 * depth * l : b + 2 * depth) : it.role.length + it.name.length + it.attrs.length + 20 + 2 * depth;
        const f = !inOrder && (first || it.fold || (isNode && (FIRST_ROLES.has(it.role) || pinned(it) || (onScreen && onScreen.has(it)))));
        const e = { it, parent, size, first: f, list: items, i };
        E.push(e);
        if (isNode && !u) flat(view.get(it) || it.children, e, depth + 1, first || it.role === 'dialog' || it.role === 'alertdialog');
      }
    };
    flat(rootItems, null, depth0, false);
    const keep = new Set();
    let used = 0;
    const add = (e) => {
      let cost = 0;
      for (let a = e; a && !keep.has(a); a = a.parent) cost += a.size;
      if (used + cost > limit) return false;
      for (let a = e; a && !keep.has(a); a = a.parent) keep.add(a);
      used += cost;
      return true;
    };
    for (const e of E) if (e.first) add(e);
    for (const e of E) if (!e.first && !add(e)) break;
    // The view: kept items, and a fold line for each run of items left out.
    const out = new Map(view);
    const lists = new Map(); // list -> [entries]
    for (const e of E) {
      let l = lists.get(e.list);
      if (!l) lists.set(e.list, l = { parent: e.parent ? e.parent.it : ROOT, entries: [] });
      l.entries.push(e);
    }
    for (const { parent, entries } of lists.values()) {
      if (parent !== ROOT && !entries.some((e) => keep.has(e)) && !keep.has(entries[0].parent)) continue;
      const res = [];
      let s = -1;
      for (let k = 0; k <= entries.length; k++) {
        if (k < entries.length && !keep.has(entries[k])) { if (s < 0) s = k; continue; }
        if (s >= 0 && k - s === 1 && !entries[s].it.fold && entries[s].size < 80 && unitEntry(entries[s], view)) {
          res.push(entries[s].it); // a fold line would not be shorter
          s = -1;
        }
        if (s >= 0) {
          const items = entries.slice(s, k).map((e) => e.it);
          const f = foldOf(items, 0, items.length, parent);
          const e0 = entries[s];
          f.from = items[0].fold ? items[0].from : (e0.list.oi ? e0.list.oi[e0.i] : e0.i) + 1;
          res.push(f);
          s = -1;
        }
        if (k < entries.length) res.push(entries[k].it);
      }
      out.set(parent, res);
    }
    return out;
  }

  const bytesOf = (lines) => lines.reduce((a, l) => a + l.length + 1, 0);

  // renderFolded renders a whole page's items within budget bytes (0: no
  // budget): long runs folded first, then the budget decides. A page that
  // fits comes back whole.
  function renderFolded(items, indent, budget, st) {
    const depth0 = indent.length / 2;
    if (!budget || bytesAt(items, depth0) <= budget * 1.3) {
      const lines = [];
      st.view = null;
      renderItems(items, indent, 1, lines, st);
      if (!budget || bytesOf(lines) <= budget) return lines;
    }
    onScreen = new Set();
    try {
      const runs = new Map();
      foldRuns(ROOT, items, runs);
      const top = runs.get(ROOT) || items;
      let view = bytesAt(top, depth0, runs) * 1.1 > budget ? keepWithin(top, runs, budget * 0.9, depth0) : runs;
      return renderView(items, view, indent, budget, st, (limit) => keepWithin(top, runs, limit, depth0), 1);
    } finally {
      onScreen = null;
    }
  }

  // renderPart renders items (an opened part, or the interactive list) with
  // as much as fits in the budget; fold lines of the top level belong to
  // node (null: the page, or the target) and count from its first child,
  // skip items before these.
  function renderPart(items, node, indent, budget, st, skip) {
    const depth0 = indent.length / 2;
    // The items' level for the depth limit: under node's line, or the top.
    const level = node ? 2 : 1;
    const pick = (limit) => {
      const view = keepWithin(items, new Map(), limit, depth0, true);
      for (const f of view.get(ROOT) || []) if (f.fold) { f.parent = node || ROOT; f.from += skip; }
      return view;
    };
    if (!budget || bytesAt(items, depth0) <= budget * 1.3) {
      const lines = [];
      st.view = null;
      renderItems(items, indent, level, lines, st);
      if (!budget || bytesOf(lines) <= budget) return lines;
    }
    return renderView(items, pick(budget * 0.9), indent, budget, st, pick, level);
  }

  // renderView renders a folded view, picking a smaller one until it fits.
  function renderView(items, view, indent, budget, st, pick, level) {
    let out = [];
    for (let limit = budget * 0.9, tries = 0; tries < 6; tries++) {
      st.view = view;
      st.folds = 0;
      out = [];
      renderItems(view.get(ROOT) || items, indent, level, out, st);
      if (bytesOf(out) <= budget) break;
      limit *= 0.75;
      view = pick(limit);
    }
    st.view = null;
    return out;
  }
