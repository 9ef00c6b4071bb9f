  // ---------- accessibility audit ----------
  // audit(root, refSeq, prefix, limit) -> {findings, totals, refSeq, unknownContrast}
  //
  // Checks the page (root null) or one element against the rules of
  // docs/audit.md, reading roles and names as the snapshot does (roleOf,
  // accName) and computed styles. Each finding names its element by a ref,
  // handed out as candidates() does, so the agent can act on it. Go keeps
  // the table of rules (criterion, level, fix); here each finding is
  // {rule, ref, role, name, what}. Every rule lists at most limit elements
  // and counts the rest. Only this frame's document is read.

  const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox',
    'radio', 'switch']);
  const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option',
    'treeitem']);

  // Every element under root, open shadow roots included, in document order.
  function auditElements(root) {
    const out = [];
    const visit = (el) => {
      if (SKIP_TAGS.has(el.localName)) return;
      out.push(el);
      if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(c);
      for (const c of el.children) visit(c);
    };
    visit(root);
    return out;
  }

  // Whether el is rendered (a box, visibility visible).
  function rendered(el) {
    if (typeof el.checkVisibility === 'function') {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) return false;
    } else if (!el.getClientRects().length) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  }

  // Whether el or an ancestor (across shadow roots) has aria-hidden="true";
  // cached per call.
  function ariaHiddenIn(el, cache) {
    if (!el || el.nodeType !== Node.ELEMENT_NODE) return false;
    if (cache.has(el)) return cache.get(el);
    const up = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
    const v = el.getAttribute('aria-hidden') === 'true' || ariaHiddenIn(up, cache);
    cache.set(el, v);
    return v;
  }

  // Whether the keyboard reaches el (Tab stops at it).
  function tabbable(el) {
    if (el.disabled || el.hasAttribute('inert') || el.closest('[inert]')) return false;
    if (el.hasAttribute('tabindex')) return el.tabIndex >= 0;
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    return (el.localName === 'a' || el.localName === 'area') && el.hasAttribute('href') ||
      ['button', 'select', 'textarea', 'iframe', 'summary'].includes(el.localName) ||
      (el.localName === 'input' && el.type !== 'hidden');
  }

  // A field's label, from anything but its placeholder (a placeholder is
  // gone as soon as one types: WCAG does not take it for a label).
  function labelled(el) {
    if (norm(el.getAttribute('aria-label')) || norm(el.getAttribute('title'))) return true;
    const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    if (ids.some((id) => { const t = byId(el, id); return t && norm(t.textContent); })) return true;
    if (LABELABLE_TAGS.has(el.localName) && labelsOf(el).some((l) => norm(l.textContent))) return true;
    return false;
  }

  // ---- contrast ----

  // parseColor reads a computed color: rgb(), rgba() or color(srgb ...);
  // null for what it cannot read (oklch... in a computed value).
  function parseColor(s) {
    let m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(s || '');
    if (m) {
      let a = m[4] === undefined ? 1 : Number(m[4]);
      if (m[5]) a /= 100;
      return [Number(m[1]), Number(m[2]), Number(m[3]), a];
    }
    m = /^color\(srgb\s+([\d.e-]+)\s+([\d.e-]+)\s+([\d.e-]+)(?:\s*\/\s*([\d.]+))?\s*\)$/.exec(s || '');
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : Number(m[4])];
    return null;
  }

  // over paints color c (with its alpha) over the opaque color under.
  const over = (c, under) => [0, 1, 2].map((i) => c[i] * c[3] + under[i] * (1 - c[3])).concat(1);

  // luminance is WCAG 2's relative luminance of an opaque sRGB color.
  function luminance(c) {
    const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  }

  // contrastRatio of two opaque colors, 1 to 21.
  function contrastRatio(a, b) {
    const la = luminance(a), lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');

  // backgroundOf is the opaque color behind el's text: the background
  // colors of el and its ancestors, blended from the canvas (white) up; null
  // when an image or gradient is behind it (no color can be told).
  function backgroundOf(el, cache) {
    const layers = [];
    let base = [255, 255, 255, 1];
    for (let e = el; e; e = e.parentElement || (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null)) {
      if (cache.has(e)) { base = cache.get(e); if (!base) return null; break; }
      const cs = getComputedStyle(e);
      if (cs.backgroundImage && cs.backgroundImage !== 'none') { cache.set(e, null); return null; }
      const c = parseColor(cs.backgroundColor);
      if (!c) return null;
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) { base = [c[0], c[1], c[2], 1]; layers.pop(); break; }
    }
    for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
    if (el) cache.set(el, base);
    return base;
  }

  // textContrast is el's text color against its background: {ratio, need,
  // large, fg, bg}, or {unknown: true} over an image or gradient.
  function textContrast(el, cache) {
    const cs = getComputedStyle(el);
    const bg = backgroundOf(el, cache || new Map());
    const fgc = parseColor(cs.color);
    if (!bg || !fgc) return { unknown: true };
    const fg = over(fgc, bg);
    const px = parseFloat(cs.fontSize) || 16;
    const large = px >= 24 || (px >= 18.66 && Number(cs.fontWeight) >= 700);
    return { ratio: contrastRatio(fg, bg), need: large ? 3 : 4.5, large, fg: hex(fg), bg: hex(bg), px };
  }

  // ownText is el's own text (its text node children), trimmed.
  function ownText(el) {
    let s = '';
    for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) s += n.data;
    return norm(s);
  }

  function audit(root, refSeq, prefix, limit) {
    return withCaches(() => {
      const whole = !root;
      root = root || document.body || document.documentElement;
      const st = { seq: Math.max(Number(refSeq) || 0, lastSeq), prefix: prefix || '', refs: {} };
      const findings = [];
      const totals = {};
      const hidden = new Map();
      const bgCache = new Map();
      let unknownContrast = 0;
      const add = (rule, el, what) => {
        totals[rule] = (totals[rule] || 0) + 1;
        if (totals[rule] > limit) return;
        let role = roleOf(el);
        if (!role || role === 'presentation' || role === 'none') role = 'generic';
        const name = accName(el, role);
        findings.push({ rule, ref: refFor(el, role, name, st), role, name: clip(name, 80), what: what || describe(el) });
      };
      const els = auditElements(root);
      const headings = [];
      let main = false;
      const ids = new Map();
      const scope = root.getRootNode();
      if (scope.querySelectorAll) {
        for (const e of scope.querySelectorAll('[id]')) ids.set(e.id, (ids.get(e.id) || 0) + 1);
      }
      for (const el of els) {
        const isHidden = ariaHiddenIn(el, hidden);
        const shown = rendered(el);
        // Focusable but hidden from assistive technology.
        if (isHidden && shown && tabbable(el)) {
          add('focusable-hidden', el, describe(el) + ' inside aria-hidden="true"');
        }
        if (isHidden || !shown) continue;
        const role = roleOf(el);
        if (role === 'main') main = true;
        if (role === 'heading') headings.push(el);
        // Images without a text alternative (alt="" is decorative: no role).
        if (el.localName === 'img' && role === 'img' && !accName(el, 'img')) {
          add('img-alt', el, 'img ' + JSON.stringify(clip((el.getAttribute('src') || '').split('/').pop(), 60)) + ' has no alt');
        } else if (el.localName !== 'img' && explicitRole(el) === 'img' && !accName(el, 'img')) {
          add('img-alt', el, cssLabel(el) + ' role="img" has no name');
        }
        // Form fields without a label.
        const native = ['input', 'select', 'textarea'].includes(el.localName);
        if (FIELD_ROLES.has(role)) {
          if (native ? !labelled(el) : !accName(el, role)) {
            const ph = norm(el.getAttribute('placeholder'));
            add('field-label', el, cssLabel(el) + (ph ? ' has only a placeholder (' + JSON.stringify(clip(ph, 40)) + ')' : ' has no label'));
          }
        } else if (role && CONTROL_ROLES.has(role) && !accName(el, role)) {
          add('control-name', el, cssLabel(el) + ' (' + role + ') has no accessible name');
        }
        // References to ids that more than one element carries.
        const refs = [];
        if (el.localName === 'label' && el.htmlFor) refs.push(['for', el.htmlFor]);
        for (const a of ['aria-labelledby', 'aria-describedby']) {
          for (const id of (el.getAttribute(a) || '').split(/\s+/).filter(Boolean)) refs.push([a, id]);
        }
        for (const [attr, id] of refs) {
          if ((ids.get(id) || 0) > 1) add('duplicate-id', el, describe(el) + ' ' + attr + '="' + id + '": ' + ids.get(id) + ' elements have that id');
        }
        // Text contrast.
        if (ownText(el) && !el.disabled && !el.closest('[aria-disabled="true"]')) {
          const c = textContrast(el, bgCache);
          if (c.unknown) unknownContrast++;
          else if (c.ratio < c.need) {
            add('contrast', el, JSON.stringify(clip(ownText(el), 40)) + ' ' + c.ratio.toFixed(2) + ':1, needs ' + c.need +
              ':1 (' + c.fg + ' on ' + c.bg + ', ' + Math.round(c.px * 10) / 10 + 'px' + (c.large ? ', large' : '') + ')');
          }
        }
      }
      // Heading levels, in document order.
      let prev = 0;
      for (const h of headings) {
        const lvl = Number(h.getAttribute('aria-level')) || Number((/^h([1-6])$/.exec(h.localName) || [])[1]) || 2;
        if (prev && lvl > prev + 1) add('heading-order', h, 'h' + lvl + ' ' + JSON.stringify(clip(accName(h, 'heading'), 50)) + ' follows h' + prev);
        prev = lvl;
      }
      if (whole) {
        if (!headings.some((h) => (Number(h.getAttribute('aria-level')) || Number((/^h([1-6])$/.exec(h.localName) || [])[1])) === 1)) {
          add('page-h1', root, 'the page has no level-1 heading');
        }
        if (!main) add('landmark-main', root, 'the page has no main landmark');
        else {
          // Text outside every landmark (the top-level blocks that hold it).
          const LANDMARKS = new Set(['banner', 'main', 'contentinfo', 'navigation', 'complementary', 'region', 'search', 'form']);
          for (const el of root.children) {
            if (SKIP_TAGS.has(el.localName) || ariaHiddenIn(el, hidden) || !rendered(el)) continue;
            if (LANDMARKS.has(roleOf(el)) || el.querySelector('main, [role=main]')) continue;
            if (norm(el.innerText || '')) add('region', el, describe(el) + ' is outside every landmark');
          }
        }
      }
      return { findings, totals, refSeq: st.seq, unknownContrast };
    });
  }
