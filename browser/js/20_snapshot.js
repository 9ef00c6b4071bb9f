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
    let nodes = childNodesOf(el);
    if (el.localName === 'details' && !el.open) {
      const summary = Array.from(el.children).find((c) => c.localName === 'summary');
      nodes = summary ? [summary] : [];
    }
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.nodeType === Node.TEXT_NODE) { if (ctx.textVisible) out.push(n.data); }
      else if (n.nodeType === Node.ELEMENT_NODE) visitElement(n, ctx, out, st);
    }
  }

  function visitElement(el, pctx, out, st) {
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
      if (!childrenHidden) walkChildren(el, ctx, out, st);
      if (block) out.push(BR);
      return;
    }

    // A row's name from content is its cells' text, which is listed under it anyway.
    const name = role === 'row' && !hasAuthorName(el) ? '' : accName(el, role);
    // [cursor=pointer] only says something where the role does not already say "clickable".
    const node = { role, name, attrs: stateAttrs(el, role), ref: '', pointer: pointer && !INTERACTIVE_ROLES.has(role),
      props: null, children: [] };
    // Refs before children, so that numbers follow document order.
    if ((INTERACTIVE_ROLES.has(role) || clicky) && visible && cs.cs.pointerEvents !== 'none') {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) node.ref = refFor(el, role, name, st);
    }
    if (tag === 'input' || tag === 'textarea') {
      if (tag === 'textarea' || !NO_VALUE_TYPES.has(el.type)) { if (el.value) node.children.push(el.value); }
      const ph = el.getAttribute('placeholder');
      if (ph && norm(ph) && norm(ph) !== name) node.props = [['placeholder', ph]];
    } else if (tag !== 'svg' && tag !== 'iframe' && role !== 'img' && !childrenHidden) { // img: children are presentational
      walkChildren(el, ctx, node.children, st);
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

  function renderItems(items, indent, level, lines, st) {
    for (const it of items) {
      if (typeof it === 'string') {
        const t = norm(it);
        if (t) lines.push(indent + '- text: ' + yamlValue(t));
      } else renderNode(it, indent, level, lines, st);
    }
  }

  function renderNode(node, indent, level, lines, st) {
    let key = '- ' + node.role + (node.name ? ' ' + JSON.stringify(node.name) : '') + node.attrs;
    if (node.ref) {
      key += ` [ref=${node.ref}]`;
      st.refs[node.ref] = { role: node.role, name: node.name };
    }
    if (node.pointer) key += ' [cursor=pointer]';
    // At the depth limit, keep the node's own text but cut nested elements.
    const cut = st.depth > 0 && level >= st.depth && node.children.some((c) => typeof c !== 'string');
    const kids = cut ? [] : node.children;
    const props = node.props || [];
    if (!props.length && kids.length === 1 && typeof kids[0] === 'string') {
      lines.push(indent + key + ': ' + yamlValue(norm(kids[0])));
      return;
    }
    if (!props.length && !kids.length) { lines.push(indent + key); return; }
    // A table row whose cells are all leaves is one line, its cells
    // separated by " | ": a row reads as a row, its refs sit beside the
    // data that tells them apart, and a 1,500-row table takes a quarter
    // less text.
    if (node.role === 'row' && !props.length && kids.every(inlineLeaf)) {
      lines.push(indent + key + ': ' + kids.map((k) => inlineItem(k, st)).join(' | '));
      return;
    }
    lines.push(indent + key + ':');
    const sub = indent + '  ';
    for (const [k, v] of props) lines.push(sub + '- /' + k + ': ' + yamlValue(v));
    renderItems(kids, sub, level + 1, lines, st);
  }

  // inlineLeaf: a node with no children and no property but a link's URL
  // (an iframe is never one: its document is stitched in under it).
  function inlineLeaf(n) {
    return typeof n !== 'string' && n.role !== 'iframe' && !n.children.length &&
      (!n.props || (n.props.length === 1 && n.props[0][0] === 'url'));
  }

  function inlineItem(n, st) {
    let s = n.role + (n.name ? ' ' + JSON.stringify(n.name) : '') + n.attrs;
    if (n.ref) {
      s += ` [ref=${n.ref}]`;
      st.refs[n.ref] = { role: n.role, name: n.name };
    }
    if (n.pointer) s += ' [cursor=pointer]';
    if (n.props) s += ` [url=${n.props[0][1]}]`;
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

  function snapshot(opts) {
    opts = opts || {};
    const st = {
      seq: Math.max(Number(opts.refSeq) || 0, lastSeq),
      prefix: typeof opts.prefix === 'string' ? opts.prefix : '',
      depth: Number(opts.depth) || 0,
      refs: {},
    };
    try {
      styleCache = new Map();
      nameCache = new Map();
      labelCache = new Map();
      activeEl = deepActiveElement();
      let items = [];
      if (opts.root) {
        // A subtree: the element itself and what is under it.
        const parent = opts.root.parentElement;
        const ps = parent ? styleOf(parent) : null;
        visitElement(opts.root, { textVisible: true, cursor: ps ? ps.cursor : 'auto' }, items, st);
      } else {
        const root = document.body || document.documentElement;
        if (root) {
          const rs = styleOf(root);
          walkChildren(root, { textVisible: rs.visibility === 'visible', cursor: rs.cursor }, items, st);
        }
      }
      items = tidy(items);
      if (opts.interactiveOnly) items = collectRefNodes(items, []);
      const lines = [];
      renderItems(items, '', 1, lines, st);
      return { yaml: lines.join('\n'), refSeq: st.seq, refs: st.refs };
    } catch (e) {
      return { yaml: '', refSeq: st.seq, refs: {}, error: 'snapshot failed: ' + (e && e.message) };
    } finally {
      styleCache = nameCache = labelCache = activeEl = null;
    }
  }

