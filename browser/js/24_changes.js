  // ---------- changes ----------
  // diffItems lists what changed between two trees of the same document:
  // nodes reused from the memo are the same objects, so an unchanged
  // subtree is skipped at once.

  function sameHead(a, b) {
    return a.role === b.role && a.name === b.name && a.attrs === b.attrs && a.ref === b.ref && a.pointer === b.pointer &&
      JSON.stringify(a.props) === JSON.stringify(b.props);
  }

  function diffItems(oldKids, newKids, chain, d) {
    // What did not move is the same item in both lists: only what lies
    // between the common head and tail is matched (1,500 rows, one changed).
    let a = 0, zo = oldKids.length, zn = newKids.length;
    while (a < zo && a < zn && oldKids[a] === newKids[a]) a++;
    while (zo > a && zn > a && oldKids[zo - 1] === newKids[zn - 1]) { zo--; zn--; }
    if (a > 0 || zo < oldKids.length || zn < newKids.length) { oldKids = oldKids.slice(a, zo); newKids = newKids.slice(a, zn); }
    const oldNodes = new Set(), byEl = new Map(), texts = new Map();
    for (const k of oldKids) {
      if (typeof k === 'string') { const t = norm(k); if (t) texts.set(t, (texts.get(t) || 0) + 1); } else { oldNodes.add(k); if (k.el && !byEl.has(k.el)) byEl.set(k.el, k); }
    }
    const matched = new Set();
    for (const k of newKids) {
      if (typeof k === 'string') {
        const t = norm(k);
        if (!t) continue;
        if (texts.get(t) > 0) texts.set(t, texts.get(t) - 1);
        else d.changed.push({ chain, it: k });
        continue;
      }
      if (oldNodes.has(k)) { matched.add(k); continue; }
      const o = byEl.get(k.el);
      if (o && !matched.has(o)) {
        matched.add(o);
        // A node of one line changes as a line.
        if (unit(k, EMPTY)) { if (!sameItem(o, k)) d.changed.push({ chain, it: k }); continue; }
        if (!sameHead(o, k)) d.changed.push({ chain, it: k, head: true });
        diffItems(o.children, k.children, chain.concat([k]), d);
        continue;
      }
      d.changed.push({ chain, it: k });
    }
    for (const o of oldNodes) if (!matched.has(o)) d.removed.push(o.role + (o.name ? ' ' + JSON.stringify(clip(o.name, 60)) : ''));
    for (const [t, n] of texts) for (let i = 0; i < n; i++) d.removed.push('text: ' + clip(t, 60));
  }
  const EMPTY = new Map();

  function sameItem(a, b) {
    if (typeof a === 'string' || typeof b === 'string') return a === b;
    if (a === b) return true;
    if (!sameHead(a, b) || a.children.length !== b.children.length) return false;
    return a.children.every((c, i) => sameItem(c, b.children[i]));
  }

  function renderChanges(d, budget, st) {
    const lines = [];
    const shown = []; // the chain of ancestor lines printed last
    for (const c of d.changed) {
      let i = 0;
      while (i < c.chain.length && shown[i] === c.chain[i]) i++;
      shown.length = i;
      for (; i < c.chain.length; i++) {
        lines.push('  '.repeat(i) + headOf(c.chain[i], st) + ':');
        shown.push(c.chain[i]);
      }
      const indent = '  '.repeat(c.chain.length);
      if (c.head) {
        const n = c.it;
        lines.push(indent + headOf(n, st) + (n.children.length ? ':' : ''));
        shown.push(n); // its changed children follow under it
        continue;
      }
      const left = Math.max(budget ? budget - lines.reduce((a, l) => a + l.length + 1, 0) : 0, budget ? 1024 : 0);
      lines.push(...renderFolded([c.it], indent, left, st, true));
    }
    if (d.removed.length) lines.push(`# removed ${d.removed.length} line(s)` + (d.removed.length <= 3 ? ': ' + d.removed.join(' | ') : ''));
    return lines;
  }

  // nameCount: how many elements of the latest whole-page tree have this
  // role and name, counting up to 2 (for stableLocator).
  function nameCount(role, name) {
    let last = null;
    for (const k of trees.keys()) last = k;
    if (!last) return -1;
    let n = 0;
    const visit = (items) => {
      for (const it of items) {
        if (n > 1) return;
        if (typeof it === 'string') continue;
        if (it.role === role && it.name === name) n++;
        if (it.children.length) visit(it.children);
      }
    };
    visit(trees.get(last));
    return n;
  }

  // ---------- snapshot() ----------

  const docId = Math.random().toString(36).slice(2, 10);
  // Changes up to this size, on a page four times larger, are shown as
  // changes without rendering the whole page to compare.
  const SMALL_CHANGE = 1024;
  let treeSeq = 0;
  const trees = new Map(); // token -> the top-level items of a whole-page walk (the last few)

  // snapshot(opts): the tree of the page (or of opts.root) as YAML.
  //   budget: fold to about this many bytes (0: never fold); from: with
  //   root, show its children from this 1-based index; fresh: walk every
  //   element again (else reuse what did not change); since: a token an
  //   earlier whole-page snapshot returned: answer with what changed since
  //   (kind "changes" or "none"), or the whole page when the change is not
  //   clearly smaller (kind "whole").
  function snapshot(opts) {
    opts = opts || {};
    const st = {
      seq: Math.max(Number(opts.refSeq) || 0, lastSeq),
      prefix: typeof opts.prefix === 'string' ? opts.prefix : '',
      depth: Number(opts.depth) || 0,
      refs: {},
      whole: !opts.root,
      reuse: false,
      trustBoxes: false, // see boxSeen
      // boxes: each element's line says where it is ([box=x,y,w,h], the
      // viewport's CSS pixels, read as it is rendered: --snapshot-boxes).
      boxes: !!opts.boxes,
      // A fresh read of the whole page (find, full) is not kept: the memo
      // and the baseline stay those of the snapshots answers show.
      keep: !(opts.fresh && !opts.root),
      folds: 0,
      view: null,
      // How fold lines name the target of a part whose element has no line of its own.
      rootTarget: typeof opts.rootTarget === 'string' && opts.rootTarget ?
        (/^[\w-]+$/.test(opts.rootTarget) ? opts.rootTarget : JSON.stringify(opts.rootTarget)) : '',
    };
    const budget = Number(opts.budget) || 0;
    try {
      styleCache = new Map();
      nameCache = new Map();
      labelCache = new Map();
      activeEl = deepActiveElement();
      if (observer) noteRecords(observer.takeRecords());
      if (!opts.root) {
        const k = sheetsKey();
        if (k !== sheetsSeen) { allDirty = true; sheetsSeen = k; }
      }
      st.reuse = !opts.fresh && !allDirty;
      if (ownsStale || !st.reuse) { owns = ownsMap(document); ownsStale = false; }
      ownerOf = owns;
      st.trustBoxes = st.reuse;
      if (st.reuse) noteControls();
      let items = [];
      if (opts.root) {
        // A subtree: the element itself and what is under it.
        const parent = opts.root.parentElement;
        const ps = parent ? styleOf(parent) : null;
        visitElement(opts.root, { textVisible: true, cursor: ps ? ps.cursor : 'auto' }, items, st);
      } else {
        track(document);
        const root = document.body || document.documentElement;
        if (root) {
          const rs = styleOf(root);
          walkChildren(root, { textVisible: rs.visibility === 'visible', cursor: rs.cursor }, items, st);
        }
      }
      items = tidy(items);
      let token = '';
      if (st.whole && st.keep) {
        dirtyPath = new Set();
        dirtyDeep = new Set();
        restyled = new Set();
        listChanged = new Set();
        dirtyText = new Set();
        // A change under an owned element is not on its owner's path: with
        // aria-owns on the page, the next walk reads everything again.
        allDirty = ownerOf.size > 0;
        token = docId + '.' + (++treeSeq);
        trees.set(token, items);
        for (const k of trees.keys()) if (trees.size > 4) trees.delete(k);
      }
      const from = Number(opts.from) || 0;
      let lines = null, kind = 'whole';
      let top = items, node = null;
      if (opts.interactiveOnly) top = collectRefNodes(items, []);
      else if (opts.root && items.length === 1 && typeof items[0] !== 'string') node = items[0];
      if (from > 0) {
        // An opened part from one of its children on: the node's line, then its children from there.
        const kids = node ? node.children : top;
        if (from > kids.length) throw Object.assign(new Error(`from=${from} is past the last of the ${kids.length} items there`), { input: true });
        lines = [];
        let indent = '';
        if (node) { lines.push(headOf(node, st) + ':'); indent = '  '; }
        const at = node && node.ref ? 'target=' + node.ref + ' ' : st.rootTarget ? 'target=' + st.rootTarget + ' ' : '';
        if (from > 1) lines.push(indent + `- \u2026 ${commas(from - 1)} earlier ${from === 2 ? 'item' : 'items'} [${at}from=1]`);
        lines.push(...renderPart(kids.slice(from - 1), node, indent, budget, st, from - 1));
      } else if (opts.root || opts.interactiveOnly) {
        lines = renderPart(top, null, '', budget, st, 0);
      } else {
        if (opts.since && !st.depth && trees.has(String(opts.since)) && !hasFrames()) {
          const d = { changed: [], removed: [] };
          diffItems(trees.get(String(opts.since)), items, [], d);
          if (!d.changed.length && !d.removed.length) { kind = 'none'; lines = []; } else {
            // The changes, unless the whole page is not clearly larger
            // (rendered only when the changes are not small anyway).
            const changes = renderChanges(d, budget, st);
            const size = bytesOf(changes);
            if (opts.onlyChanges || (size <= SMALL_CHANGE && larger(items, 4 * SMALL_CHANGE))) { lines = changes; kind = 'changes'; } else {
              const changeRefs = st.refs, changeFolds = st.folds;
              st.refs = {};
              st.folds = 0;
              const whole = renderFolded(items, '', budget, st);
              if (size < bytesOf(whole) * 0.7) { lines = changes; kind = 'changes'; st.refs = changeRefs; st.folds = changeFolds; } else lines = whole;
            }
          }
        }
        if (!lines) lines = renderFolded(items, '', budget, st);
      }
      return { yaml: lines.join('\n'), refSeq: st.seq, refs: st.refs, token, kind, folds: st.folds,
        frames: hasFrames() };
    } catch (e) {
      if (e && e.input) return { yaml: '', refSeq: st.seq, refs: {}, error: e.message, input: true };
      return { yaml: '', refSeq: st.seq, refs: {}, error: 'snapshot failed: ' + (e && e.message) };
    } finally {
      styleCache = nameCache = labelCache = activeEl = ownerOf = null;
    }
  }
