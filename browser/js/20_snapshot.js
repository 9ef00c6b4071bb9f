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
    if (!wr) throw new Error(`ref_not_found: ${ref} was not handed out on this page; take a new snapshot`);
    const el = wr.deref();
    if (!el || !el.isConnected) throw new Error(`ref_stale: ${ref} is no longer attached to the page; take a new snapshot`);
    const rec = refOfElement.get(el);
    if (rec && rec.ref !== ref) throw new Error(`ref_stale: ${ref} changed and is now ${rec.ref}; take a new snapshot`);
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
    if ((INTERACTIVE_ROLES.has(role) || clicky) && visible && cs.cs.pointerEvents !== 'none') {
      const rec = st.trustBoxes && boxSeen.has(el) && refOfElement.get(el);
      if (rec && rec.role === role && rec.name === name && rec.ref.startsWith(st.prefix)) node.ref = rec.ref;
      else {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) { node.ref = refFor(el, role, name, st); boxSeen.add(el); } else boxSeen.delete(el);
      }
    }
    if (tag === 'input' || tag === 'textarea' || tag === 'select') { controls.set(el, controlState(el)); controlEls.add(el); }
    if (tag === 'input' || tag === 'textarea') {
      if (tag === 'textarea' || !NO_VALUE_TYPES.has(el.type)) { if (el.value) node.children.push(el.value); }
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
    if (node.pointer) key += ' [cursor=pointer]';
    return '- ' + yamlKey(key);
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
  // the whole page (style sheets, the viewport) voids the memo.

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

  function track(root) {
    if (tracked.has(root)) return;
    tracked.add(root);
    if (!observer) {
      observer = new MutationObserver(noteRecords);
      for (const type of ['input', 'change', 'focusin', 'focusout', 'mouseover', 'mouseout', 'toggle', 'transitionend', 'animationend']) {
        addEventListener(type, noteEvent, true);
      }
      addEventListener('resize', () => { allDirty = true; }, true);
    }
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  }

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
    const pick = (limit) => {
      const view = keepWithin(items, new Map(), limit, depth0, true);
      for (const f of view.get(ROOT) || []) if (f.fold) { f.parent = node || ROOT; f.from += skip; }
      return view;
    };
    if (!budget || bytesAt(items, depth0) <= budget * 1.3) {
      const lines = [];
      st.view = null;
      renderItems(items, indent, 2, lines, st);
      if (!budget || bytesOf(lines) <= budget) return lines;
    }
    return renderView(items, pick(budget * 0.9), indent, budget, st, pick, 2);
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
