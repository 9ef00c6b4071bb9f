// e2e-mcp page engine.
//
// Injected by Go into an isolated world of every frame, at document start. At load
// time it only defines globalThis.__e2e; all DOM work happens when Go calls it:
//
//   snapshot({refSeq, interactiveOnly, depth, prefix, root}) -> {yaml, refSeq, refs}
//   resolve(ref)      -> Element, or throws "ref_not_found: ..." / "ref_stale: ..."
//   describe(el)      -> 'button "Create account"'
//   clickPoint(el)    -> {x, y} | {error}
//   prepareFill(el)   -> {ok: true} | {error}
//   pageInfo()        -> {url, title}
//   target(t)         -> Element for a ref or a CSS selector (throws like resolve)
//   box(el)           -> {x, y, width, height} in document CSS pixels
//
// Everything is synchronous and, except resolve and target, never throws.
(() => {
  'use strict';
  if (globalThis.__e2e) return;

  // ---------- tables ----------

  const SKIP_TAGS = new Set(['head', 'script', 'style', 'noscript', 'template', 'meta', 'link', 'title', 'base']);
  // Elements without a node of their own: their content flows into the parent.
  const TRANSPARENT_TAGS = new Set(['label', 'b', 'i', 'strong', 'em', 'small', 'mark', 'code', 'kbd', 'samp',
    'var', 'abbr', 'cite', 'q', 'dfn', 'time', 'data', 'u', 's', 'del', 'ins', 'sub', 'sup', 'bdi', 'bdo',
    'font', 'big', 'tt', 'wbr', 'picture', 'slot']);
  const VALID_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell ' +
    'checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document ' +
    'emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log ' +
    'main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option ' +
    'paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox ' +
    'separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term ' +
    'textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'rowheader', 'switch', 'tab',
    'term', 'tooltip', 'treeitem']);
  // Roles whose elements get a ref when visible and hit-testable.
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox',
    'listbox', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'treeitem', 'iframe']);
  const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
  const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
  const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const NO_VALUE_TYPES = new Set(['checkbox', 'radio', 'file', 'password', 'submit', 'reset', 'button',
    'image', 'color', 'hidden']);
  const SECTIONING = 'article, aside, main, nav, section';

  // ---------- small helpers ----------

  const norm = (s) => (s || '').replace(/[\u200b\u00ad]/g, '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '\u2026' : s);
  const BR = { br: true }; // block boundary marker inside child lists

  // Per-call caches; set only while snapshot() runs.
  let styleCache = null;
  let nameCache = null;
  let labelCache = null;
  let activeEl = null;

  // The few computed-style values the engine reads (reading a CSS property is
  // not free), cached per element while a snapshot runs.
  function styleOf(el) {
    let s = styleCache && styleCache.get(el);
    if (s) return s;
    const cs = getComputedStyle(el);
    const display = cs.display;
    s = display === 'none' ? { display, visibility: 'hidden', cursor: '', inline: false, cs }
      : { display, visibility: cs.visibility, cursor: cs.cursor, cs,
        inline: display.startsWith('inline') || display === 'contents' };
    if (styleCache) styleCache.set(el, s);
    return s;
  }

  // Children in the flat tree: open shadow root, slot assignments, else light children.
  function childNodesOf(el) {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.localName === 'slot') {
      const assigned = el.assignedNodes();
      if (assigned.length) return assigned;
    }
    return el.childNodes;
  }

  // Labels of a control. el.labels is avoided: its first use per element scans
  // the whole document, which makes big pages quadratic. One pass per tree instead.
  function labelsOf(el) {
    const root = el.getRootNode();
    const cache = labelCache || new Map();
    let index = cache.get(root);
    if (!index) {
      index = new Map();
      if (root.querySelectorAll) {
        for (const label of root.querySelectorAll('label')) {
          const c = label.control;
          if (c) index.set(c, (index.get(c) || []).concat(label));
        }
      }
      cache.set(root, index);
    }
    return index.get(el) || [];
  }

  function deepActiveElement() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a === document.body || a === document.documentElement ? null : a;
  }

  function byId(el, id) {
    const root = el.getRootNode();
    return (root.getElementById && root.getElementById(id)) || document.getElementById(id);
  }

  function hiddenForAria(el) {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    const s = styleOf(el);
    return s.display === 'none' || s.visibility !== 'visible';
  }

  // ---------- roles ----------

  function isFocusable(el) {
    return el.hasAttribute('tabindex') || (el.localName === 'a' && el.hasAttribute('href')) ||
      ['button', 'input', 'select', 'textarea'].includes(el.localName);
  }

  function explicitRole(el) {
    const attr = el.getAttribute('role');
    if (!attr) return null;
    for (const tok of attr.trim().toLowerCase().split(/\s+/)) {
      if (tok === 'image') return 'img';
      if (VALID_ROLES.has(tok)) return tok;
    }
    return null;
  }

  function inputRole(el) {
    const list = el.hasAttribute('list');
    switch (el.type) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color': return 'button';
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return list ? 'combobox' : 'searchbox';
      case 'hidden': return null;
      default: return list ? 'combobox' : 'textbox';
    }
  }

  function implicitRole(el) {
    const tag = el.localName;
    switch (tag) {
      case 'a': return el.hasAttribute('href') ? 'link' : 'generic';
      case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'button': return 'button';
      case 'input': return inputRole(el);
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'optgroup': return 'group';
      case 'textarea': return 'textbox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': return el.getAttribute('alt') === '' && !el.hasAttribute('title') &&
        !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby') ? 'presentation' : 'img';
      case 'svg': return 'img';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'header': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'generic' : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'generic' : 'contentinfo';
      case 'form': return hasAuthorName(el) ? 'form' : 'generic';
      case 'section': return hasAuthorName(el) ? 'region' : 'generic';
      case 'search': return 'search';
      case 'table': return 'table';
      case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
      case 'tr': return 'row';
      case 'td': return tableIsGrid(el) ? 'gridcell' : 'cell';
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'caption': return 'caption';
      case 'dialog': return 'dialog';
      case 'details': return 'group';
      case 'summary': return 'button'; // our choice: a disclosure toggle acts like a button
      case 'fieldset': return 'group';
      case 'address': case 'hgroup': return 'group';
      case 'p': return 'paragraph';
      case 'blockquote': return 'blockquote';
      case 'hr': return 'separator';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'output': return 'status';
      case 'dl': return 'list';
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'figure': return 'figure';
      case 'math': return 'math';
      case 'iframe': return 'iframe';
      default: return TRANSPARENT_TAGS.has(tag) ? null : 'generic';
    }
  }

  function hasAuthorName(el) {
    return !!(norm(el.getAttribute('aria-label')) || el.hasAttribute('aria-labelledby') || norm(el.getAttribute('title')));
  }

  function tableIsGrid(el) {
    const t = el.closest('table');
    const r = t && t.getAttribute('role');
    return r === 'grid' || r === 'treegrid';
  }

  function roleOf(el) {
    const r = explicitRole(el);
    // Presentation is ignored on focusable elements (ARIA conflict resolution).
    if (r && !((r === 'none' || r === 'presentation') && isFocusable(el))) return r;
    return implicitRole(el);
  }

  // ---------- accessible names (accname, simplified) ----------

  function accName(el, role) {
    if (nameCache && nameCache.has(el)) return nameCache.get(el);
    let name = '';
    try {
      name = norm(textAlt(el, role, { visited: new Set(), root: true, labelledBy: false, hidden: false }));
    } catch (e) { name = ''; }
    if (nameCache) nameCache.set(el, name);
    return name;
  }

  // Text alternative of el. o.root: el is the element being named; o.labelledBy:
  // reached through aria-labelledby; o.hidden: include hidden content.
  function textAlt(el, role, o) {
    if (o.visited.has(el)) return '';
    o.visited.add(el);
    if (!o.root && !o.hidden && hiddenForAria(el)) return '';
    const tag = el.localName;
    if (role === undefined || role === null) role = roleOf(el);

    // 1. aria-labelledby, followed only once.
    if (!o.labelledBy) {
      const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
      const parts = [];
      for (const id of ids) {
        const t = byId(el, id);
        if (!t) continue;
        const hidden = o.hidden || hiddenForAria(t);
        parts.push(textAlt(t, null, { visited: new Set(t === el ? [] : [el]), root: t === el, labelledBy: true, hidden }));
      }
      const s = parts.join(' ');
      if (norm(s)) return s;
    }

    // 2. An embedded control inside another element's name contributes its value.
    if (!o.root) {
      if (role === 'textbox' || role === 'searchbox') {
        return tag === 'input' || tag === 'textarea' ? el.value : el.textContent;
      }
      if (role === 'combobox' || role === 'listbox') {
        if (tag === 'select') return Array.from(el.selectedOptions, (op) => op.label).join(' ');
        if (tag === 'input') return el.value;
      }
      if (role === 'slider' || role === 'spinbutton') {
        return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || el.value || '';
      }
    }

    // 3. aria-label.
    const label = el.getAttribute('aria-label');
    if (label && label.trim()) return label;

    // 4. Native host-language names.
    if (role !== 'presentation' && role !== 'none') {
      const native = nativeName(el, tag, o);
      if (native && native.trim()) return native;
    }

    // 5. Name from content (for some roles, and always while recursing).
    if (!o.root || NAME_FROM_CONTENT.has(role)) {
      const content = contentText(el, o);
      if (content.trim()) return content;
    }

    // 6. Tooltip, then placeholder for text fields.
    const title = el.getAttribute('title');
    if (title && title.trim()) return title;
    if (tag === 'input' || tag === 'textarea') return el.getAttribute('placeholder') || '';
    return el.getAttribute('aria-placeholder') || '';
  }

  function nativeName(el, tag, o) {
    if (tag === 'input') {
      const t = el.type;
      if (t === 'submit' || t === 'reset' || t === 'button') {
        const v = el.getAttribute('value');
        if (v && v.trim()) return v;
        return t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '';
      }
      if (t === 'image') return el.getAttribute('alt') || el.getAttribute('value') || '';
    }
    const labels = LABELABLE_TAGS.has(tag) ? labelsOf(el) : [];
    if (labels.length) {
      // The control itself is in o.visited, so its own value is not part of its label.
      const s = labels.map((l) => textAlt(l, null, { ...o, root: false, labelledBy: false })).join(' ');
      if (s.trim()) return s;
    }
    if (tag === 'img' || tag === 'area') return el.getAttribute('alt') || '';
    const firstChild = (name) => Array.from(el.children).find((c) => c.localName === name);
    let caption = null;
    if (tag === 'fieldset') caption = firstChild('legend');
    else if (tag === 'table') caption = firstChild('caption');
    else if (tag === 'svg') { const t = firstChild('title'); return t ? t.textContent : ''; }
    else if (tag === 'optgroup' || (tag === 'option' && el.hasAttribute('label'))) return el.getAttribute('label') || '';
    return caption ? textAlt(caption, null, { ...o, root: false }) : '';
  }

  function contentText(el, o) {
    let out = '';
    const list = childNodesOf(el);
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      if (child.nodeType === Node.TEXT_NODE) { out += child.data; continue; }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const tag = child.localName;
      if (SKIP_TAGS.has(tag)) continue;
      if (tag === 'br') { out += ' '; continue; }
      const s = textAlt(child, null, { ...o, root: false });
      out += styleOf(child).inline ? s : ' ' + s + ' ';
    }
    return out;
  }

  // ---------- states ----------

  function isDisabled(el, role) {
    const tag = el.localName;
    if (['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset'].includes(tag)) {
      try { if (el.matches(':disabled')) return true; } catch (e) { /* ignore */ }
    }
    if (el.getAttribute('aria-disabled') === 'true') return true;
    // aria-disabled on a container disables the widgets inside it.
    return !!(role && INTERACTIVE_ROLES.has(role) && el.parentElement &&
      el.parentElement.closest('[aria-disabled="true"]'));
  }

  function checkedState(el, role) {
    if (!CHECKABLE_ROLES.has(role)) return false;
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.type === 'checkbox' && el.indeterminate) return 'mixed';
      return el.checked;
    }
    const a = el.getAttribute('aria-checked');
    return a === 'mixed' ? 'mixed' : a === 'true';
  }

  function isInvalid(el) {
    const a = el.getAttribute('aria-invalid');
    if (a && a !== 'false') return true;
    if (!['input', 'select', 'textarea'].includes(el.localName)) return false;
    try { return el.matches(':user-invalid'); } catch (e) { return false; }
  }

  // Attributes in the fixed order; ref and cursor are added when rendering.
  function stateAttrs(el, role) {
    const tag = el.localName;
    let s = '';
    const checked = checkedState(el, role);
    if (checked === 'mixed') s += ' [checked=mixed]';
    else if (checked) s += ' [checked]';
    if (isDisabled(el, role)) s += ' [disabled]';
    const details = el.parentElement;
    if (el.getAttribute('aria-expanded') === 'true' ||
        (tag === 'summary' && details && details.localName === 'details' && details.open)) s += ' [expanded]';
    if (el === activeEl) s += ' [active]';
    if (isInvalid(el)) s += ' [invalid]';
    const lvl = parseInt(el.getAttribute('aria-level') || '', 10);
    if (role === 'heading') s += ` [level=${lvl > 0 ? lvl : /^h[1-6]$/.test(tag) ? +tag[1] : 2}]`;
    else if (lvl > 0) s += ` [level=${lvl}]`;
    const pressed = el.getAttribute('aria-pressed');
    if (pressed === 'true') s += ' [pressed]';
    else if (pressed === 'mixed') s += ' [pressed=mixed]';
    if ((tag === 'option' && el.selected) || el.getAttribute('aria-selected') === 'true') s += ' [selected]';
    if (el.required || el.getAttribute('aria-required') === 'true') s += ' [required]';
    return s;
  }

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
    if (!role || role === 'presentation' || role === 'none') role = clicky ? 'generic' : null;
    if (!role) { // no node of its own: content flows into the parent
      if (block) out.push(BR);
      if (!childrenHidden) walkChildren(el, ctx, out, st);
      if (block) out.push(BR);
      return;
    }

    const name = accName(el, role);
    const node = { role, name, attrs: stateAttrs(el, role), ref: '', pointer, props: null, children: [] };
    // Refs before children, so that numbers follow document order.
    if ((INTERACTIVE_ROLES.has(role) || clicky) && visible && cs.cs.pointerEvents !== 'none') {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) node.ref = refFor(el, role, name, st);
    }
    if (tag === 'input' || tag === 'textarea') {
      if (tag === 'textarea' || !NO_VALUE_TYPES.has(el.type)) { if (el.value) node.children.push(el.value); }
      const ph = el.getAttribute('placeholder');
      if (ph && norm(ph) && norm(ph) !== name) node.props = [['placeholder', ph]];
    } else if (tag !== 'svg' && tag !== 'iframe' && !childrenHidden) {
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
    if (tag !== 'input' && tag !== 'textarea' && kids.length === 1 && typeof kids[0] === 'string' &&
        norm(kids[0]) === name) node.children = [];
    out.push(node);
  }

  // Merge adjacent text runs (inline flow), drop block markers and blank text.
  function tidy(items) {
    const out = [];
    let buf = null;
    const flush = () => { if (buf !== null && norm(buf)) out.push(buf); buf = null; };
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
    lines.push(indent + key + ':');
    const sub = indent + '  ';
    for (const [k, v] of props) lines.push(sub + '- /' + k + ': ' + yamlValue(v));
    renderItems(kids, sub, level + 1, lines, st);
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

  // ---------- describe ----------

  function cssLabel(el) {
    let s = el.localName;
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
    for (const c of cls.slice(0, 2)) s += '.' + c;
    return s;
  }

  function describe(el) {
    try {
      if (!el || el.nodeType !== Node.ELEMENT_NODE) return String(el);
      let role = roleOf(el);
      if (role === 'presentation' || role === 'none') role = null;
      const name = role ? clip(accName(el, role), 60) : '';
      const quoted = name ? ' ' + JSON.stringify(name) : '';
      if (!role || role === 'generic') return cssLabel(el) + quoted;
      return role + quoted;
    } catch (e) {
      return '<element>';
    }
  }

  // ---------- actionability ----------

  function isVisible(el) {
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility !== 'visible') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function firstRect(el) {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    return null;
  }

  function elementFromPointDeep(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  // Is hit el itself, inside el (across shadow roots), or a label of el?
  function hitsTarget(hit, el) {
    for (let n = hit; n; n = n.parentElement || (n.parentNode && n.parentNode.host) || null) {
      if (n === el) return true;
      if (n.localName === 'label' && n.control === el) return true;
    }
    return false;
  }

  const round = (v) => Math.round(v * 100) / 100;

  function clickPoint(el) {
    try {
      if (!el || !el.isConnected) return { error: 'not attached' };
      if (!isVisible(el)) return { error: 'not visible' };
      if (isDisabled(el, roleOf(el))) return { error: 'disabled' };
      const vw = window.innerWidth, vh = window.innerHeight;
      const box = el.getBoundingClientRect();
      if (box.left < 0 || box.top < 0 || box.right > vw || box.bottom > vh) {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      }
      const r = firstRect(el);
      if (!r) return { error: 'not visible' };
      // Center of the part of the rect that is inside the viewport.
      const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
      const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
      if (right <= left || bottom <= top) return { error: 'not visible' };
      const x = (left + right) / 2, y = (top + bottom) / 2;
      const hit = elementFromPointDeep(x, y);
      if (!hit) return { error: 'not visible' };
      if (!hitsTarget(hit, el)) return { error: 'covered by ' + describe(hit) };
      return { x: round(x), y: round(y) };
    } catch (e) {
      return { error: 'internal: ' + (e && e.message) };
    }
  }

  function prepareFill(el) {
    try {
      if (!el || !el.isConnected) return { error: 'not attached' };
      const tag = el.localName;
      const field = (tag === 'input' && TEXT_INPUT_TYPES.has(el.type)) || tag === 'textarea';
      if (!field && !el.isContentEditable) return { error: 'not editable: ' + describe(el) };
      if ((field && el.disabled) || el.getAttribute('aria-disabled') === 'true') return { error: 'disabled' };
      if ((field && el.readOnly) || el.getAttribute('aria-readonly') === 'true') return { error: 'readonly' };
      if (!isVisible(el)) return { error: 'not visible' };
      el.focus();
      if (field) {
        el.select();
      } else {
        const range = document.createRange();
        range.selectNodeContents(el);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      return { ok: true };
    } catch (e) {
      return { error: 'internal: ' + (e && e.message) };
    }
  }

  // ---------- targets (used by the Go side) ----------

  // All open shadow roots under root, for shadow-piercing CSS queries.
  function shadowRoots(root, out) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.shadowRoot) { out.push(n.shadowRoot); shadowRoots(n.shadowRoot, out); }
    }
    return out;
  }

  // target(refOrSelector): a ref (e5, f1e3) or a CSS selector that must match
  // exactly one element. Throws "element_not_found:", "not_unique:" or
  // "invalid_input:" like resolve does.
  function target(t) {
    t = String(t);
    if (/^(f\d+)?e\d+$/.test(t)) return resolve(t);
    const sel = t.startsWith('css=') ? t.slice(4) : t;
    const found = [];
    try {
      for (const root of [document, ...shadowRoots(document, [])]) found.push(...root.querySelectorAll(sel));
    } catch (e) {
      throw new Error(`invalid_input: ${JSON.stringify(t)} is not a ref or a valid CSS selector`);
    }
    if (!found.length) throw new Error(`element_not_found: nothing matches ${JSON.stringify(t)}`);
    if (found.length > 1) {
      const list = found.slice(0, 5).map(describe).join(', ');
      throw new Error(`not_unique: ${JSON.stringify(t)} matches ${found.length} elements: ${list}${found.length > 5 ? ', ...' : ''}`);
    }
    return found[0];
  }

  // box(el): border box in CSS pixels relative to the document (for screenshot clips).
  function box(el) {
    if (!el || !el.isConnected) return { x: 0, y: 0, width: 0, height: 0 };
    const r = el.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
  }

  function pageInfo() {
    return { url: String(location.href), title: String(document.title || '') };
  }

  Object.defineProperty(globalThis, '__e2e', {
    value: Object.freeze({ version: 1, snapshot, resolve, target, describe, clickPoint, prepareFill, box, pageInfo }),
    configurable: false, enumerable: false, writable: false,
  });
})();
