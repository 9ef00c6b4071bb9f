  // ---------- drift: what a changed page still holds ----------

  // A recorded step keeps a fingerprint of its target (fingerprint); when a
  // replay's target finds nothing or more than one element, Go asks for
  // every element a target could have meant (pageElements) and scores them
  // against the fingerprint (package drift). Both describe an element the
  // same way, with the engine's own role and name.

  // Ancestors that say where an element is: landmarks, forms, named groups.
  const PLACE_ROLES = new Set(['banner', 'main', 'contentinfo', 'navigation', 'complementary', 'region', 'search',
    'form', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar', 'tabpanel', 'group']);

  function placeOf(el, role) {
    const name = accName(el, role);
    if (role === 'group' && !name) return ''; // an unnamed wrapper says nothing
    return name ? role + ' ' + JSON.stringify(clip(name, 80)) : role;
  }

  // The inputs that are buttons, not fields a step types into.
  const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);

  // fieldKind(el): the kind of field an element is, for a step that types
  // or sets a value ({ type, secret }), or null for another element: an
  // input's type (the DOM's, lower case, 'text' for an unknown one),
  // textarea, select, contenteditable; secret when it hides what is typed
  // (secretField: a password field, or text masked with
  // -webkit-text-security, now or when the engine saw it). A heal
  // never moves a step onto a field of another kind (package drift).
  function fieldKind(el) {
    let type = '';
    if (el.localName === 'input') type = BUTTON_INPUTS.has(el.type) ? '' : el.type;
    else if (el.localName === 'textarea' || el.localName === 'select') type = el.localName;
    else if (el.isContentEditable) type = 'contenteditable';
    if (!type) return null;
    return { type, secret: secretField(el) };
  }

  // info(el, testIdAttr, heading): the element's fingerprint; heading is the
  // heading it comes under ('' for none).
  function info(el, testIdAttr, heading) {
    let role = roleOf(el) || '';
    if (role === 'presentation' || role === 'none') role = '';
    const out = { role, name: role ? accName(el, role) : '', tag: el.localName };
    const kind = fieldKind(el);
    if (kind) {
      out.type = kind.type;
      if (kind.secret) out.secret = true;
    }
    const tid = testIdAttr && el.getAttribute(testIdAttr);
    if (tid) out.testId = tid;
    const labels = labelTexts(el).filter(Boolean);
    if (labels.length) out.label = clip(labels[0], 200);
    const ph = el.getAttribute('placeholder');
    if (ph && norm(ph)) out.placeholder = clip(norm(ph), 200);
    if (role === 'link' && el.getAttribute('href')) out.href = clip(el.getAttribute('href'), 300);
    const within = [];
    for (let a = flatParent(el); a; a = flatParent(a)) {
      const r = roleOf(a);
      if (PLACE_ROLES.has(r)) {
        const p = placeOf(a, r);
        if (p) within.unshift(p);
      }
    }
    if (heading) within.push(heading);
    if (within.length) out.within = within;
    return out;
  }

  const headingLine = (el) => 'heading ' + JSON.stringify(clip(accName(el, 'heading'), 80));

  // fingerprint(el, testIdAttr): the fingerprint of one element, for the
  // recorder.
  function fingerprint(el, testIdAttr) {
    try {
      if (!el || !el.isConnected) return null;
      return withCaches(() => {
        let heading = '';
        for (const e of allUnder(document)) {
          if (e === el) break;
          if (roleOf(e) === 'heading' && !hiddenForAriaDeep(e)) heading = headingLine(e);
        }
        return info(el, testIdAttr, heading);
      });
    } catch (e) {
      return null;
    }
  }

  // What a step's target can be: a control, a heading (what expects check),
  // or anything with a test id, a label or a placeholder.
  const TARGET_ROLES = new Set([...INTERACTIVE_ROLES, 'heading', 'status', 'alert', 'img', 'dialog', 'tabpanel']);
  const MAX_DRIFT_ELEMENTS = 400;

  // pageElements(testIdAttr, parts): every visible element of the page a
  // target could mean, in document order, each with its fingerprint and a
  // locator that finds it and nothing else (the recorder's forms: role and
  // name when unique, else stableLocator's, else role and name with nth=);
  // and how many elements the failing target's parts match here now.
  function pageElements(testIdAttr, parts) {
    return withCaches(() => {
      let matched = -1;
      try { matched = all(parts).length; } catch (e) { /* a target into an iframe: unknown */ }
      const found = [];
      let heading = '';
      for (const el of allUnder(document)) {
        if (TEXT_SKIP.has(el.localName) || inHead(el)) continue;
        const role = roleOf(el);
        const tagged = (testIdAttr && el.hasAttribute(testIdAttr)) || el.hasAttribute('placeholder');
        if (!TARGET_ROLES.has(role) && !tagged) continue;
        if (hiddenForAriaDeep(el)) continue;
        found.push({ el, info: info(el, testIdAttr, heading) });
        if (role === 'heading') heading = headingLine(el);
        if (found.length >= MAX_DRIFT_ELEMENTS) break;
      }
      // Every visible element of a target role is in found, so counting
      // there is counting what role=R[name="N"] finds.
      const count = new Map();
      const key = (i) => i.role + '\u0000' + i.name;
      for (const f of found) count.set(key(f.info), (count.get(key(f.info)) || 0) + 1);
      const seen = new Map();
      const elements = found.map(({ el, info: i }) => {
        const k = key(i);
        const nth = seen.get(k) || 0;
        seen.set(k, nth + 1);
        const byRole = i.role && TARGET_ROLES.has(i.role) ?
          'role=' + i.role + (i.name ? '[name=' + JSON.stringify(i.name) + ']' : '') : '';
        if (byRole && count.get(k) === 1) return Object.assign(i, { locator: byRole });
        const stable = stableLocator(el, testIdAttr);
        if (stable) return Object.assign(i, { locator: stable });
        return Object.assign(i, { locator: byRole ? byRole + ' >> nth=' + nth : '' });
      });
      return { elements, matched };
    });
  }
