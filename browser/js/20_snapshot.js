  // ---------- refs ----------

  const refOfElement = new WeakMap(); // element -> {ref, role, name}
  const elementOfRef = new Map();     // ref -> WeakRef(element), every ref handed out in this document
  let lastSeq = 0;

  function refFor(el, role, name, st) {
    const rec = refOfElement.get(el);
    if (rec && rec.role === role && rec.name === name && rec.ref.startsWith(st.prefix)) return rec.ref;
    const ref = st.prefix + 'e' + (++st.seq);
    lastSeq = Math.max(lastSeq, st.seq);
    refOfElement.set(el, { ref, role, name });
    elementOfRef.set(ref, new WeakRef(el));
    return ref;
  }

  function resolve(ref) {
    const wr = elementOfRef.get(String(ref));
    if (!wr) throw fail('ref_not_found', `${ref} was not handed out on this page; take a new snapshot`);
    const el = wr.deref();
    if (!el || !el.isConnected) throw fail('ref_stale', `${ref} is no longer attached to the page; take a new snapshot`);
    const rec = refOfElement.get(el);
    if (rec && rec.ref !== ref) throw fail('ref_stale', `${ref} changed and is now ${rec.ref}; take a new snapshot`);
    return el;
  }

  // ---------- snapshot: DOM -> tree ----------
  // A tree node is {role, name, attrs, ref, pointer, props, children}; children
  // holds nodes and raw strings (text), normalized only when rendering.

  const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

  function walkChildren(el, ctx, out, st) {
    if (el.shadowRoot && st.whole) track(el.shadowRoot);
    // Plain light children, without aria-owns on the page: the walk can
    // keep them child by child (kidsMemo).
    const plain = !el.shadowRoot && el.localName !== 'slot' && el.localName !== 'details' && !(ownerOf && ownerOf.size);
    if (plain && st.reuse && reuseKids(el, ctx, out, st)) return;
    let nodes = childNodesOf(el);
    if (el.localName === 'details' && !el.open) {
      const summary = Array.from(el.children).find((c) => c.localName === 'summary');
      nodes = summary ? [summary] : [];
    }
    const rec = plain && st.keep && nodes.length >= KIDS_MIN ?
      { tv: ctx.textVisible, cur: ctx.cursor, nodes: Array.from(nodes), ends: [], items: null } : null;
    const start = out.length;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.nodeType === Node.TEXT_NODE) { if (ctx.textVisible) out.push(n.data); }
      else if (n.nodeType === Node.ELEMENT_NODE && !(ownerOf && ownerOf.has(n))) visitElement(n, ctx, out, st);
      if (rec) rec.ends.push(out.length - start);
    }
    if (rec) { rec.items = out.slice(start); kidsMemo.set(el, rec); } else if (st.keep) kidsMemo.delete(el);
    // aria-owns: the owned elements are this one's last children, and only here.
    if (ownerOf && ownerOf.size && el.hasAttribute('aria-owns')) {
      for (const o of ownedOf(el)) if (ownerOf.get(o) === el) visitElement(o, ctx, out, st);
    }
  }

  // reuseKids adds what el's children added in the last walk that kept
  // them, reading again only the children on a path to a change: after a
  // click in a 1,500-row table, one row instead of 1,500 look-ups. False
  // when it cannot (no record, a child added, removed or moved, another
  // context): then the children are walked as usual.
  function reuseKids(el, ctx, out, st) {
    const rec = kidsMemo.get(el);
    if (!rec || rec.tv !== ctx.textVisible || rec.cur !== ctx.cursor || listChanged.has(el)) return false;
    const changed = [];
    for (const n of dirtyKidsOf(el, st)) {
      const i = rec.nodes.indexOf(n);
      if (i < 0) return false;
      changed.push(i);
    }
    changed.sort((a, b) => a - b);
    // Visit the changed children in document order (refs are numbered in
    // it), then splice their new items in from the last, so that the
    // offsets of the earlier ones still hold.
    const segs = [];
    for (const i of changed) {
      const n = rec.nodes[i], seg = [];
      if (n.nodeType === Node.TEXT_NODE) { if (ctx.textVisible) seg.push(n.data); }
      else if (n.nodeType === Node.ELEMENT_NODE) visitElement(n, ctx, seg, st);
      segs.push(seg);
    }
    const items = rec.items.slice(), ends = rec.ends.slice();
    for (let k = changed.length - 1; k >= 0; k--) {
      const i = changed[k], from = i ? rec.ends[i - 1] : 0, was = rec.ends[i] - from;
      items.splice(from, was, ...segs[k]);
      const shift = segs[k].length - was;
      if (shift) for (let j = i; j < ends.length; j++) ends[j] += shift;
    }
    append(out, items);
    if (st.keep) kidsMemo.set(el, { tv: rec.tv, cur: rec.cur, nodes: rec.nodes, ends, items });
    return true;
  }

  // dirtyKidsOf: el's children on a path to a change (elements) or changed
  // themselves (text), from the change sets, grouped once per walk.
  function dirtyKidsOf(el, st) {
    if (!st.kidsOf) {
      st.kidsOf = new Map();
      const add = (n) => {
        const p = n.parentNode;
        if (!p) return;
        const l = st.kidsOf.get(p);
        if (l) l.push(n); else st.kidsOf.set(p, [n]);
      };
      for (const n of dirtyPath) add(n);
      for (const n of dirtyText) add(n);
    }
    return st.kidsOf.get(el) || [];
  }

  // append pushes items onto out, in chunks that stay within the limit on
  // a call's arguments.
  function append(out, items) {
    for (let k = 0; k < items.length; k += 8192) out.push(...items.slice(k, k + 8192));
  }

  // walkContent is walkChildren with the element's ::before and ::after
  // text, which is page text too ("Name *" from a required marker).
  function walkContent(el, ctx, out, st) {
    const before = ctx.textVisible ? pseudoText(el, '::before') : '';
    if (before) out.push(before);
    walkChildren(el, ctx, out, st);
    const after = ctx.textVisible ? pseudoText(el, '::after') : '';
    if (after) out.push(after);
  }

  // visitElement adds what el contributes to its parent's children to out.
  // What it added is kept per element and reused by the next walk when
  // nothing under el has changed since (see change tracking below).
  function visitElement(el, pctx, out, st) {
    if (st.reuse) {
      const m = memo.get(el);
      if (m !== undefined && m.tv === pctx.textVisible && m.cur === pctx.cursor && !dirtyPath.has(el)) {
        for (let i = 0; i < m.items.length; i++) out.push(m.items[i]);
        return;
      }
    }
    const deep = st.reuse && dirtyDeep.has(el);
    if (deep) st.reuse = false;
    const re = st.trustBoxes && restyled.has(el);
    if (re) st.trustBoxes = false;
    const start = out.length;
    visitNode(el, pctx, out, st);
    if (st.keep) memo.set(el, { tv: pctx.textVisible, cur: pctx.cursor, items: out.slice(start) });
    if (deep) st.reuse = true;
    if (re) st.trustBoxes = true;
  }

  function visitNode(el, pctx, out, st) {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    if (tag === 'br') { if (pctx.textVisible) out.push('\n'); return; }
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (tag === 'input' && el.type === 'hidden') return;
    const cs = styleOf(el);
    if (cs.display === 'none') return;
    const visible = cs.visibility === 'visible';
    const block = !cs.inline;
    const ctx = { textVisible: visible, cursor: cs.cursor };
    const pointer = visible && cs.cursor === 'pointer' && pctx.cursor !== 'pointer';
    const clicky = visible && (pointer || el.hasAttribute('onclick') ||
      (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') ||
      (el.hasAttribute('tabindex') && el.tabIndex >= 0) ||
      (el.hasAttribute('contenteditable') && el.isContentEditable &&
        !(el.parentElement && el.parentElement.isContentEditable)));
    const childrenHidden = el.getAttribute('hidden') === 'until-found'; // content-visibility: hidden

    let role = visible ? roleOf(el) : null;
    // Text-level elements (em, code...) flow into their parent's text, and so
    // does a plain <tbody>: Chrome does not expose it either, and its rows are
    // what matters.
    if (!role || role === 'presentation' || role === 'none' ||
        ((TEXT_LEVEL_TAGS.has(tag) || (tag === 'tbody' && !hasAuthorName(el))) &&
          !el.hasAttribute('role'))) role = clicky ? 'generic' : null;
    if (!role) { // no node of its own: content flows into the parent
      if (block) out.push(BR);
      if (!childrenHidden) walkContent(el, ctx, out, st);
      if (block) out.push(BR);
      return;
    }

    // A row's name from content is its cells' text, which is listed under it anyway.
    const name = role === 'row' && !hasAuthorName(el) ? '' : accName(el, role);
    // [cursor=pointer] only says something where the role does not already say "clickable".
    const node = { role, name, attrs: stateAttrs(el, role), ref: '', pointer: pointer && !INTERACTIVE_ROLES.has(role),
      props: null, children: [], el };
    // Refs before children, so that numbers follow document order.
    if ((INTERACTIVE_ROLES.has(role) || clicky || gridCell(el, role)) && visible && cs.cs.pointerEvents !== 'none') {
      const rec = st.trustBoxes && boxSeen.has(el) && refOfElement.get(el);
      if (rec && rec.role === role && rec.name === name && rec.ref.startsWith(st.prefix)) node.ref = rec.ref;
      else {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) { node.ref = refFor(el, role, name, st); boxSeen.add(el); } else boxSeen.delete(el);
      }
    }
    if (tag === 'input' || tag === 'textarea' || tag === 'select') { controls.set(el, controlState(el)); controlEls.add(el); }
    if (tag === 'input' || tag === 'textarea') {
      // A secret field's value is not shown, however the page shows it now
      // (a password revealed by its eye button).
      if (!secretField(el, cs.cs) && (tag === 'textarea' || !NO_VALUE_TYPES.has(el.type)) && el.value) node.children.push(el.value);
      const ph = el.getAttribute('placeholder');
      // A textbox's placeholder, when it is not its name (Playwright's rule:
      // not for a searchbox or a combobox).
      if (role === 'textbox' && ph && norm(ph) && norm(ph) !== name) node.props = [['placeholder', ph]];
    } else if (tag !== 'iframe' && (role !== 'img' || tag === 'svg') && !childrenHidden) {
      // An img's children are presentational, but an <svg>'s are walked as
      // Playwright walks them: controls drawn in it (<g role=button>) and
      // its text.
      walkContent(el, ctx, node.children, st);
    }
    if (role === 'link' && el.hasAttribute('href')) node.props = [['url', el.getAttribute('href')]];

    node.children = tidy(node.children);
    const kids = node.children;
    if (role === 'generic' && !name && !node.ref) {
      if (!kids.length) return;
      if (kids.length === 1) { // unwrap: the only child takes the generic's place
        if (block) out.push(BR);
        out.push(kids[0]);
        if (block) out.push(BR);
        return;
      }
    }
    if (role === 'img' && !name && !node.ref && !kids.length) return;
    // Text that only repeats the name goes; so does a cell's name that only
    // repeats the name of the one element in it (- cell: - button "Edit").
    if (tag !== 'input' && tag !== 'textarea' && kids.length && kids.every((k) => typeof k === 'string') &&
        kids.join('').replace(/[\s\u200b\u00ad]+/g, '') === name.replace(/\s+/g, '')) node.children = [];
    else if (CELL_ROLES.has(role) && kids.length === 1 && typeof kids[0] !== 'string' && kids[0].name === name &&
        !node.ref && !hasAuthorName(el)) {
      // A data cell holding just that element gives way to it: the element
      // keeps the cell's place in the row, so columns still line up.
      if ((role === 'cell' || role === 'gridcell') && !node.attrs && !node.pointer) {
        if (block) out.push(BR);
        out.push(kids[0]);
        if (block) out.push(BR);
        return;
      }
      node.name = '';
    }
    out.push(node);
  }

  // gridCell: a cell of an interactive grid (grid, treegrid), which an
  // agent clicks, double-clicks to edit or moves through by keys: AG Grid's
  // cells take focus by script (tabindex=-1), so nothing else marks them.
  function gridCell(el, role) {
    if (role === 'gridcell') return true;
    if (role !== 'columnheader' && role !== 'rowheader') return false;
    const grid = el.closest('[role=grid],[role=treegrid],table');
    return !!grid && /^(tree)?grid$/.test(grid.getAttribute('role') || '');
  }

  // Merge adjacent text runs (inline flow), drop block markers and blank text.
  function tidy(items) {
    const out = [];
    let buf = null;
    const flush = () => { if (buf !== null && /[^\s\u200b\u00ad]/.test(buf)) out.push(buf); buf = null; };
    for (const it of items) {
      if (typeof it === 'string') buf = buf === null ? it : buf + it;
      else { flush(); if (it !== BR) out.push(it); }
    }
    flush();
    return out;
  }

  // ---------- snapshot: tree -> YAML ----------

  function yamlValue(s) {
    if (s === '' || /^[\s\-\[\]{}#&*!|>'"%@`,?:~]/.test(s) || /\s$/.test(s) || /[\n\r\t]/.test(s) ||
        s.includes(': ') || s.includes(' #') || s.endsWith(':') ||
        /^(true|false|yes|no|on|off|null|y|n)$/i.test(s) ||
        /^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(s) || /^[-+]?\.(inf|nan)$/i.test(s) ||
        /^0[xo][0-9a-f]+$/i.test(s)) return JSON.stringify(s);
    return s;
  }

  // The children a render shows of a node: a folded view's when it has one
  // (st.view maps a node, or ROOT for the top level, to its shown items).
  const ROOT = { role: '', children: [] };
  const kidsOf = (node, st) => (st.view && st.view.get(node)) || node.children;

  function renderItems(items, indent, level, lines, st) {
    for (const it of items) {
      if (typeof it === 'string') {
        const t = norm(it);
        if (t) lines.push(indent + '- text: ' + yamlValue(t));
      } else if (it.fold) lines.push(indent + foldLine(it, st));
      else renderNode(it, indent, level, lines, st);
    }
  }

  function headOf(node, st) {
    let key = node.role + (node.name ? ' ' + JSON.stringify(node.name) : '') + node.attrs;
    if (node.ref) {
      key += ` [ref=${node.ref}]`;
      st.refs[node.ref] = { role: node.role, name: node.name };
    }
    if (st.boxes) key += boxOf(node);
    if (node.pointer) key += ' [cursor=pointer]';
    return '- ' + yamlKey(key);
  }

  // boxOf is a node's element's box as --snapshot-boxes shows it: read
  // when the line is written, so a line that did not change keeps the box
  // it was shown with.
  function boxOf(node) {
    if (!node.el || typeof node.el.getBoundingClientRect !== 'function') return '';
    const r = node.el.getBoundingClientRect();
    return ` [box=${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}]`;
  }

  // yamlKey: a node's line stays a YAML key when its name holds ": ", " #"
  // or a line break: then it is single-quoted, as Playwright writes it
  // (- 'combobox "Colour: Red" [ref=e11]':).
  function yamlKey(s) {
    return /:(\s|$)|\s#|[\n\r]/.test(s) ? "'" + s.replace(/'/g, "''") + "'" : s;
  }

  function renderNode(node, indent, level, lines, st) {
    // At the depth limit, keep the node's own text but cut nested elements.
    const cut = st.depth > 0 && level >= st.depth && node.children.some((c) => typeof c !== 'string');
    const kids = cut ? [] : kidsOf(node, st);
    // A node that holds a fold gets a ref, for its fold line's target.
    if (!node.ref && node.el && kids !== node.children && kids.some((k) => k.fold)) node.ref = refFor(node.el, node.role, node.name, st);
    const key = headOf(node, st);
    const props = node.props || [];
    if (!props.length && kids.length === 1 && typeof kids[0] === 'string') {
      lines.push(indent + key + ': ' + yamlValue(norm(kids[0])));
      return;
    }
    if (!props.length && !kids.length) { lines.push(indent + key); return; }
    if (inlineRow(node, kids)) {
      lines.push(indent + key + ': ' + kids.map((k) => inlineItem(k, st)).join(' | '));
      return;
    }
    lines.push(indent + key + ':');
    const sub = indent + '  ';
    for (const [k, v] of props) lines.push(sub + '- /' + k + ': ' + yamlValue(v));
    renderItems(kids, sub, level + 1, lines, st);
  }

  // A table row whose cells are leaves is one line, its cells separated by
  // " | ": a row reads as a row, its refs sit beside the data that tells
  // them apart, and a 1,500-row table takes a quarter less text. A cell
  // that holds a few controls (a button and a link) is still a leaf: its
  // items are listed inside it, separated by ", ".
  function inlineRow(node, kids) {
    return node.role === 'row' && !(node.props && node.props.length) && kids.length > 0 &&
      kids.every((k) => inlineLeaf(k) || inlineCell(k));
  }

  // inlineLeaf: a node with no children and no property but a link's URL
  // (an iframe is never one: its document is stitched in under it).
  function inlineLeaf(n) {
    return typeof n !== 'string' && !n.fold && n.role !== 'iframe' && !n.children.length &&
      (!n.props || (n.props.length === 1 && n.props[0][0] === 'url'));
  }

  function inlineCell(n) {
    return typeof n !== 'string' && !n.fold && CELL_ROLES.has(n.role) && !n.props && n.children.length > 0 &&
      n.children.length <= 4 && n.children.every((k) => typeof k === 'string' || inlineLeaf(k));
  }

  function inlineItem(n, st) {
    // A cell listing its items needs no name: it is made of them.
    let s = n.role + (n.name && !n.children.length ? ' ' + JSON.stringify(n.name) : '') + n.attrs;
    if (n.ref) {
      s += ` [ref=${n.ref}]`;
      st.refs[n.ref] = { role: n.role, name: n.name };
    }
    if (st.boxes) s += boxOf(n);
    if (n.pointer) s += ' [cursor=pointer]';
    if (n.props) s += ` [url=${n.props[0][1]}]`;
    if (n.children.length) {
      s += ': ' + n.children.map((k) => (typeof k === 'string' ? JSON.stringify(norm(k)) : inlineItem(k, st))).join(', ');
    }
    return s;
  }

  // interactiveOnly: every ref'd node, flat, with its props and own text.
  function collectRefNodes(items, out) {
    for (const it of items) {
      if (typeof it === 'string') continue;
      if (it.ref) out.push({ ...it, children: it.children.filter((c) => typeof c === 'string') });
      collectRefNodes(it.children, out);
    }
    return out;
  }

  // ---------- change tracking ----------
  // A walk keeps what each element produced (memo). A MutationObserver and
  // the events that change state without a mutation (input, change, focus)
  // mark the elements on the path to a change; the next walk reuses every
  // element off those paths, so after an action on a 1,500-row page only the
  // changed row and its ancestors are walked again. Anything that can restyle
  // the whole page (style sheets, the viewport, media features) voids the memo.

  const memo = new WeakMap();   // element -> {tv, cur, items}
  // What walkChildren added for an element of many children, child by child
  // (items, and where each child's part ends): reuseKids.
  const kidsMemo = new WeakMap(); // element -> {tv, cur, nodes, ends, items}
  const KIDS_MIN = 16;
  let listChanged = new Set();  // elements whose child list changed
  let dirtyText = new Set();    // text nodes whose data changed
  let dirtyPath = new Set();    // elements with a change somewhere under them
  let dirtyDeep = new Set();    // elements whose whole subtree must be walked again
  let restyled = new Set();     // elements whose attributes changed or whose transition ended
  let allDirty = true;
  // Elements given a ref once their box was found to have a size. Measuring
  // a box forces layout, which after a change to a big table costs 10 ms or
  // more; an element walked again only because something near it changed
  // (text beside it, hover, focus) keeps the verdict while its role and name
  // hold and neither it nor an ancestor was restyled since.
  const boxSeen = new WeakSet();
  let observer = null;
  const tracked = new WeakSet(); // document and shadow roots observed

  function markPath(n) {
    let el = n && (n.nodeType === 1 ? n : n.parentNode);
    while (el) {
      if (el.nodeType !== 1) { el = el.host || null; continue; } // a shadow root: go on from its host
      if (dirtyPath.has(el)) return;
      dirtyPath.add(el);
      if (el.assignedSlot) markPath(el.assignedSlot);
      el = el.parentNode;
    }
  }

  // owns: the page's aria-owns map (ownsMap), read again only when a
  // change could alter it: an aria-owns or id attribute, or nodes added or
  // removed while it is not empty or that bring an aria-owns.
  let owns = new Map();
  let ownsStale = true;

  function noteRecords(records) {
    for (const r of records) {
      if (r.type === 'attributes' && (r.attributeName === 'aria-owns' || r.attributeName === 'id')) ownsStale = true;
      else if (r.type === 'childList' && !ownsStale) {
        if (owns.size) ownsStale = true;
        else {
          for (const n of r.addedNodes) {
            if (n.nodeType === 1 && (n.hasAttribute('aria-owns') || n.querySelector('[aria-owns]'))) { ownsStale = true; break; }
          }
        }
      }
      const t = r.target;
      const el = t.nodeType === 1 ? t : t.parentElement;
      if (el && (el.localName === 'style' || el.localName === 'link' || el.closest('head'))) { allDirty = true; continue; }
      if (r.type === 'attributes') { dirtyDeep.add(t); restyled.add(t); }
      else if (r.type === 'childList') {
        listChanged.add(t);
        if (framesSeen !== null) for (const l of [r.addedNodes, r.removedNodes]) {
          for (const n of l) if (n.nodeType === 1 && (FRAME_TAGS.has(n.localName) || n.querySelector('iframe, frame'))) framesSeen = null;
        }
      } else if (t.nodeType === 3) dirtyText.add(t);
      markPath(t);
    }
  }

  function noteEvent(e) {
    const t = e.composedPath ? e.composedPath()[0] : e.target;
    if (!t || t.nodeType !== 1) return;
    markPath(t);
    if (e.type === 'mouseover' || e.type === 'mouseout' || e.type === 'focusin' || e.type === 'focusout') {
      // :hover and :focus-within restyle the element and its ancestors
      // (".card:hover .tip"): the nearest ones are read again whole.
      for (let el = t, n = 0; el && n < 3; el = el.parentElement, n++) dirtyDeep.add(el);
      return;
    }
    dirtyDeep.add(t);
    if (e.type === 'transitionend' || e.type === 'animationend' || e.type === 'toggle') restyled.add(t);
    if (t.localName === 'input' && t.type === 'radio' && t.name) {
      for (const r of (t.form || t.getRootNode()).querySelectorAll('input[type=radio]')) if (r.name === t.name) markPath(r);
    }
  }

  // A script that sets a control's value, checked state or selection
  // changes no attribute and fires no event: each walk compares them with
  // what the last walk read.
  const controls = new WeakMap(); // control -> its state when last read
  const controlState = (el) => el.localName === 'select' ? 'i' + el.selectedIndex :
    (el.checked ? 'c' : 'u') + (el.indeterminate ? 'm' : '') + el.value;
  // The controls a walk read, so that comparing them costs what they
  // number, not a search of the whole document.
  const controlEls = new Set();
  function noteControls() {
    for (const el of controlEls) {
      if (!el.isConnected) { controlEls.delete(el); continue; }
      if (controls.get(el) !== controlState(el)) { dirtyDeep.add(el); markPath(el); }
    }
  }

  // Style sheets added, removed or edited through the CSSOM can restyle
  // anything: a change in their count or in their rules' voids the memo.
  let sheetsSeen = '';
  function sheetsKey() {
    let k = document.styleSheets.length + '/' + (document.adoptedStyleSheets || []).length;
    for (const sh of document.styleSheets) { try { k += ',' + sh.cssRules.length; } catch (e) { k += ',x'; } }
    return k;
  }

  // hasFrames: whether the document has an iframe or frame. Asking the
  // document walks all of it (a few milliseconds on a big page, twice per
  // snapshot); the answer is kept until a mutation adds or removes one.
  const FRAME_TAGS = new Set(['iframe', 'frame']);
  let framesSeen = null;
  function hasFrames() {
    if (framesSeen === null || !tracked.has(document)) framesSeen = !!document.querySelector('iframe, frame');
    return framesSeen;
  }

  // restyleAll voids the memo after a change the page cannot tell (media
  // emulated from outside), then resolves once the page has run its own
  // media listeners: Chrome finds the changed queries in one frame's style
  // update and dispatches their events in the next, so two frames. A hidden
  // tab gets no frames: at once.
  function restyleAll() {
    allDirty = true;
    return new Promise((done) => {
      if (document.visibilityState === 'hidden') { done(true); return; }
      requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
      setTimeout(() => done(true), 500);
    });
  }

  function track(root) {
    if (tracked.has(root)) return;
    tracked.add(root);
    if (!observer) {
      observer = new MutationObserver(noteRecords);
      for (const type of ['input', 'change', 'focusin', 'focusout', 'mouseover', 'mouseout', 'toggle', 'transitionend', 'animationend']) {
        addEventListener(type, noteEvent, true);
      }
      addEventListener('resize', () => { allDirty = true; }, true);
      // Emulated media (or the system's dark mode) restyle without a
      // mutation or a resize.
      for (const q of ['print', '(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(forced-colors: active)', '(prefers-contrast: more)']) {
        matchMedia(q).addEventListener('change', () => { allDirty = true; });
      }
    }
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  }
