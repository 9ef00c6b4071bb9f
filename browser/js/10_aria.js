  // ---------- tables ----------

  const SKIP_TAGS = new Set(['head', 'script', 'style', 'noscript', 'template', 'meta', 'link', 'title', 'base']);
  // Elements without a node of their own: their content flows into the parent.
  const TRANSPARENT_TAGS = new Set(['label', 'b', 'i', 'small', 'kbd', 'samp',
    'var', 'abbr', 'cite', 'q', 'data', 'u', 'bdi', 'bdo',
    'font', 'big', 'tt', 'wbr', 'picture', 'slot']);
  // Text-level semantics (em, code, time...): they have ARIA roles, but a
  // snapshot flows their text into the parent's, as it does for <b>.
  const TEXT_LEVEL_TAGS = new Set(['code', 'del', 'dfn', 'em', 'ins', 'mark', 's', 'strong', 'sub', 'sup', 'time']);
  const VALID_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell ' +
    'checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document ' +
    'emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log ' +
    'main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option ' +
    'paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox ' +
    'separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term ' +
    'textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
    'term', 'tooltip', 'treeitem']);
  // Roles whose elements get a ref when visible and hit-testable.
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox',
    'listbox', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'treeitem', 'iframe']);
  const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
  const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
  const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const NO_VALUE_TYPES = new Set(['checkbox', 'radio', 'file', 'submit', 'reset', 'button',
    'image', 'hidden']);
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
    // One object shape for all (before/after: ::before/::after text, filled lazily).
    s = display === 'none' ? { display, visibility: 'hidden', cursor: '', inline: false, cs, before: '', after: '' }
      : { display, visibility: cs.visibility, cursor: cs.cursor,
        inline: display.startsWith('inline') || display === 'contents', cs, before: undefined, after: undefined };
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

  // aria-owns: the elements el claims as its children, after its own (not
  // one of its ancestors, nor itself). ownerOf maps an owned element to its
  // owner for one snapshot or name computation (ownsMap).
  function ownedOf(el) {
    const ids = (el.getAttribute('aria-owns') || '').split(/\s+/).filter(Boolean);
    const out = [];
    for (const id of ids) {
      const o = byId(el, id);
      if (o && o !== el && !o.contains(el) && !out.includes(o)) out.push(o);
    }
    return out;
  }
  let ownerOf = null;
  function ownsMap(root) {
    const m = new Map();
    for (const owner of root.querySelectorAll('[aria-owns]')) for (const o of ownedOf(owner)) if (!m.has(o)) m.set(o, owner);
    return m;
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

  // Global ARIA attributes that make a browser ignore role none/presentation
  // (ARIA conflict resolution; Chrome does not count aria-label/labelledby).
  const GLOBAL_ARIA = ['aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby',
    'aria-details', 'aria-dropeffect', 'aria-errormessage', 'aria-flowto', 'aria-grabbed', 'aria-haspopup',
    'aria-invalid', 'aria-keyshortcuts', 'aria-live', 'aria-owns', 'aria-relevant', 'aria-roledescription'];

  // Whether role none/presentation on el holds, rather than being ignored.
  function presentationHolds(el) {
    return !isFocusable(el) && !GLOBAL_ARIA.some((a) => el.hasAttribute(a));
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
      case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
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
      // An aside nested in sectioning content is a landmark only when named (html-aam).
      case 'aside': return !hasAuthorName(el) && el.parentElement &&
        el.parentElement.closest('article, aside, nav, section') ? 'generic' : 'complementary';
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
      case 'li': return inheritsPresentation(el, el.parentElement, /^(ul|ol|menu)$/) ? 'none' : 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'header': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'generic' : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'generic' : 'contentinfo';
      case 'form': return hasAuthorName(el) ? 'form' : 'generic';
      case 'section': return hasAuthorName(el) ? 'region' : 'generic';
      case 'search': return 'search';
      case 'table': return 'table';
      case 'thead': case 'tbody': case 'tfoot': case 'tr': case 'td': case 'th':
        return inheritsPresentation(el, el.closest('table'), /^table$/) ? 'none' : tablePartRole(el, tag);
      case 'caption': return 'caption';
      case 'dialog': return 'dialog';
      case 'details': return 'group';
      // <summary> has no role, as for Playwright (getByRole('button') does not
      // find it, so a flow exported to Playwright must not say button); it is
      // focusable, so the snapshot lists it with a ref (see oracle-differences.md).
      case 'summary': return null;
      case 'fieldset': return 'group';
      case 'hgroup': return 'group';
      // <address> and <dl> have no role for Playwright (Chrome: group, list).
      case 'address': return null;
      case 'p': return 'paragraph';
      case 'blockquote': return 'blockquote';
      case 'hr': return 'separator';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'output': return 'status';
      case 'dl': return null;
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'figure': return 'figure';
      case 'math': return 'math';
      case 'iframe': return 'iframe';
      case 'code': return 'code';
      case 'del': case 's': return 'deletion';
      case 'dfn': return 'term';
      case 'em': return 'emphasis';
      case 'ins': return 'insertion';
      case 'mark': return 'mark';
      case 'strong': return 'strong';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'time': return 'time';
      default: return TRANSPARENT_TAGS.has(tag) ? null : 'generic';
    }
  }

  function hasAuthorName(el) {
    return !!(norm(el.getAttribute('aria-label')) || el.hasAttribute('aria-labelledby') || norm(el.getAttribute('title')));
  }

  // The parts of a list or table whose owner has role none/presentation lose
  // their implicit roles too (ARIA: presentational role inheritance).
  function inheritsPresentation(el, owner, ownerTag) {
    if (!owner || !ownerTag.test(owner.localName)) return false;
    const r = explicitRole(owner);
    return (r === 'none' || r === 'presentation') && presentationHolds(owner);
  }

  function tablePartRole(el, tag) {
    if (tag === 'tr') return 'row';
    if (tag === 'td') return tableIsGrid(el) ? 'gridcell' : 'cell';
    if (tag !== 'th') return 'rowgroup';
    const scope = (el.getAttribute('scope') || '').toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    // Auto scope: a th in a row of data cells heads that row.
    const row = el.parentElement;
    if (!row || (row.parentElement && row.parentElement.localName === 'thead')) return 'columnheader';
    for (const c of row.children) if (c.localName === 'td' && norm(c.textContent)) return 'rowheader';
    return 'columnheader';
  }

  function tableIsGrid(el) {
    const t = el.closest('table');
    const r = t && t.getAttribute('role');
    return r === 'grid' || r === 'treegrid';
  }

  function roleOf(el) {
    const r = explicitRole(el);
    // Presentation is ignored on focusable elements and on elements with
    // global ARIA attributes (ARIA conflict resolution).
    if (r && !((r === 'none' || r === 'presentation') && !presentationHolds(el))) return r;
    return implicitRole(el);
  }

  // ---------- accessible names (accname, simplified) ----------

  // Roles that ARIA says take no name (title and aria-label included).
  const NAMING_PROHIBITED = new Set(['caption', 'code', 'definition', 'deletion', 'emphasis', 'generic', 'insertion',
    'mark', 'paragraph', 'presentation', 'strong', 'subscript', 'suggestion', 'superscript', 'term', 'time']);

  function accName(el, role) {
    if (nameCache && nameCache.has(el)) return nameCache.get(el);
    let name = '';
    if (role === undefined || role === null) role = roleOf(el);
    if (NAMING_PROHIBITED.has(role || '')) {
      if (nameCache) nameCache.set(el, name);
      return name;
    }
    try {
      name = norm(textAlt(el, role, { visited: new Set(), root: true, labelledBy: false, hidden: false,
        treeitem: role === 'treeitem' }));
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
        // The element named is not marked visited: a label that holds it
        // (<label id=l>Colour: <select aria-labelledby=l>) counts its value,
        // as an embedded control's (accname 2C; Playwright: "Colour: Red").
        parts.push(textAlt(t, null, { visited: new Set(), root: t === el, labelledBy: true, hidden }));
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

    // 4. Native host-language names. A file input is named by its labels
    // (an empty one names it nothing), else by the text of its button,
    // "Choose File", as Playwright and Chrome name it: never by its title.
    if (role !== 'presentation' && role !== 'none' && tag === 'input' && el.type === 'file') {
      const labels = o.labelledBy ? [] : labelsOf(el);
      if (!labels.length) return 'Choose File';
      return labels.map((l) => textAlt(l, null, { ...o, root: false, labelledBy: false })).join(' ');
    }
    if (role !== 'presentation' && role !== 'none') {
      const native = nativeName(el, tag, o);
      if (native && native.trim()) return native;
    }

    // 5. Name from content (for some roles, and always while recursing or
    // when reached through aria-labelledby: a control that names itself
    // with its own id, as Headless UI's ListboxButton, counts its text).
    if (!o.root || o.labelledBy || NAME_FROM_CONTENT.has(role)) {
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
        // An empty value leaves the default label, as for Playwright.
        if (el.getAttribute('value')) return el.getAttribute('value');
        return t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '';
      }
      if (t === 'image') return el.getAttribute('alt') || el.getAttribute('value') || '';
    }
    // Reached through aria-labelledby, a control's own <label for> is not
    // read again (accname 2B/2D, as Playwright and Chrome): the label that
    // names it is already one of the ids.
    const labels = LABELABLE_TAGS.has(tag) && !o.labelledBy ? labelsOf(el) : [];
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
    else if (tag === 'figure') caption = firstChild('figcaption');
    else if (tag === 'svg') { const t = firstChild('title'); return t ? t.textContent : ''; }
    else if (tag === 'optgroup' || (tag === 'option' && el.hasAttribute('label'))) return el.getAttribute('label') || '';
    return caption ? textAlt(caption, null, { ...o, root: false }) : '';
  }

  // The elements of a document or shadow root that ::before/::after rules
  // with content may apply to, or null when that cannot be known (a
  // cross-origin style sheet, a selector querySelectorAll rejects). Reading a
  // pseudo-element's style costs as much as a layout query, so a snapshot
  // asks only for these. Cached per snapshot, in styleCache under the root.
  function pseudoCandidates(root) {
    if (styleCache.has(root)) return styleCache.get(root);
    let cands = new Set();
    let found = false;
    const visit = (rules) => {
      for (const r of rules) {
        if (r.cssRules && r.cssRules.length) visit(r.cssRules); // @media, @supports, @layer, nesting
        if (r.styleSheet) visit(r.styleSheet.cssRules); // @import
        const sel = r.selectorText;
        if (!sel || !/:(before|after)\b/.test(sel) || !r.style) continue;
        const c = r.style.getPropertyValue('content');
        if (!c || c === 'none' || c === 'normal' || c === '""' || c === "''") continue;
        found = true;
        // The rule's elements: its selector without the pseudo-element.
        const base = sel.replace(/::?(before|after)\b/g, '').replace(/(^|[\s,>+~(])(?=\s*(,|$|\)))/g, '$1*');
        for (const el of root.querySelectorAll(base)) cands.add(el);
      }
    };
    try {
      for (const sheet of root.styleSheets || []) visit(sheet.cssRules); // throws when cross-origin
      for (const sheet of root.adoptedStyleSheets || []) visit(sheet.cssRules);
      if (root.host && found) cands = null; // :host rules style the host from inside: not worth modelling
    } catch (e) { cands = null; }
    styleCache.set(root, cands);
    return cands;
  }

  // CSS generated content of el's ::before or ::after: its strings, or its
  // alternative text when it has one (content: "→" / "Next"). Cached per snapshot.
  function pseudoText(el, which) {
    const s = styleOf(el);
    const key = which === '::before' ? 'before' : 'after';
    if (s[key] !== undefined) return s[key];
    let out = '';
    const cands = styleCache && pseudoCandidates(el.getRootNode());
    if (cands && !cands.has(el)) { s.before = s.after = ''; return ''; }
    const ps = getComputedStyle(el, which);
    const c = ps.display === 'none' || ps.visibility === 'hidden' ? '' : ps.content;
    if (c && c !== 'none' && c !== 'normal') {
      // Strings outside functions (url(), counter()...) are text; a / starts the alternative text.
      const strs = [];
      let alt = null;
      let depth = 0;
      for (let i = 0; i < c.length; i++) {
        const ch = c[i];
        if (ch === '(') depth++;
        else if (ch === ')') depth--;
        else if (ch === '/' && !depth) alt = strs.length;
        if (ch !== '"' && ch !== "'") continue;
        let str = '';
        for (i++; i < c.length && c[i] !== ch; i++) {
          if (c[i] !== '\\') { str += c[i]; continue; }
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(c.slice(i + 1, i + 8));
          if (hex) { str += String.fromCodePoint(parseInt(hex[0], 16)); i += hex[0].length; } else str += c[++i] || '';
        }
        if (!depth) strs.push(str);
      }
      out = (alt === null ? strs : strs.slice(alt)).join('');
    }
    s[key] = out;
    return out;
  }

  function contentText(el, o) {
    let out = pseudoText(el, '::before');
    let list = childNodesOf(el);
    if (el.hasAttribute('aria-owns')) list = [...list, ...ownedOf(el)];
    // A row holds cells only: text between them (whitespace) is not content.
    const row = el.localName === 'tr' || el.getAttribute('role') === 'row';
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      if (child.nodeType === Node.TEXT_NODE) { if (!row) out += child.data; continue; }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const tag = child.localName;
      if (SKIP_TAGS.has(tag)) continue;
      if (tag === 'br') { out += ' '; continue; }
      // A tree item is named by its own text, not by the items nested in it.
      if (o.treeitem && roleOf(child) === 'group') continue;
      const s = textAlt(child, null, { ...o, root: false });
      // Only inline boxes join their neighbours' words; inline-block and the rest separate them.
      const d = styleOf(child).display;
      out += d === 'inline' || d === 'contents' ? s : ' ' + s + ' ';
    }
    return out + pseudoText(el, '::after');
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
    // h1-h6 keep their own level over aria-level (html-aam), as Playwright has it.
    if (role === 'heading') s += ` [level=${/^h[1-6]$/.test(tag) ? +tag[1] : lvl > 0 ? lvl : 2}]`;
    else if (lvl > 0) s += ` [level=${lvl}]`;
    const pressed = el.getAttribute('aria-pressed');
    if (pressed === 'true') s += ' [pressed]';
    else if (pressed === 'mixed') s += ' [pressed=mixed]';
    if ((tag === 'option' && el.selected) || el.getAttribute('aria-selected') === 'true') s += ' [selected]';
    if (el.required || el.getAttribute('aria-required') === 'true') s += ' [required]';
    return s;
  }

