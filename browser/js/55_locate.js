  // ---------- stable locators ----------

  // stableLocator(el, testIdAttr): the most robust selector that finds el
  // and nothing else, for a recorded flow: role and name, label, test id,
  // then text ("" when none is unique); an iframe as frameLocator says. Each candidate is checked with the
  // same parts Go's parser makes of the string, so a replay finds the same
  // element.
  function stableLocator(el, testIdAttr) {
    try {
      if (!el || !el.isConnected) return '';
      // An iframe by what names it as the frame of a locator does (its
      // role's name is only its title, and Playwright has no such role).
      if (el.localName === 'iframe' || el.localName === 'frame') return frameLocator(el, testIdAttr);
      const q = (s) => JSON.stringify(s);
      // The common case without a search of the page: a control whose role
      // and name the last snapshot's tree holds once.
      const rec = refOfElement.get(el);
      if (rec && rec.name && INTERACTIVE_ROLES.has(rec.role) && nameCount(rec.role, rec.name) === 1 &&
          roleOf(el) === rec.role && accName(el, rec.role) === rec.name) {
        return 'role=' + rec.role + '[name=' + q(rec.name) + ']';
      }
      const cands = [];
      const role = roleOf(el);
      if (role && role !== 'generic' && role !== 'none' && role !== 'presentation') {
        const name = accName(el, role);
        if (name) cands.push(['role=' + role + '[name=' + q(name) + ']', [{ e: 'role', role, attrs: [{ n: 'name', op: '=', t: { m: 'exact', v: name } }] }]]);
      }
      for (const label of labelTexts(el)) {
        if (label) cands.push(['label=' + q(label), [{ e: 'label', text: { m: 'exact', v: label } }]]);
      }
      const tid = testIdAttr && el.getAttribute(testIdAttr);
      if (tid) cands.push(['testid=' + q(tid), [{ e: 'attr', attr: testIdAttr, value: tid }]]);
      const text = norm(el.textContent || '');
      if (text && text.length <= 80) cands.push(['text=' + q(text), [{ e: 'text', text: { m: 'exact', v: text } }]]);
      for (const [sel, parts] of cands) {
        const found = all(parts);
        if (found.length === 1 && found[0] === el) return sel;
      }
      return '';
    } catch (e) {
      return '';
    }
  }


  // frameLocator(el, testIdAttr): a CSS selector of the iframe (or frame)
  // el that finds it and nothing else in its document, for the frame part
  // of a recorded locator (`iframe[title="Pay"] >> role=button`): by its
  // test id, name, title or the path of its src (not its origin or query,
  // which may change from run to run), else by its place among the
  // document's frames (`iframe >> nth=1`).
  function frameLocator(el, testIdAttr) {
    try {
      const tag = el.localName === 'frame' ? 'frame' : 'iframe';
      // A value CSS reads back as it is: no control character (JSON's
      // escapes of those are not CSS's).
      const attr = (name, op, v) => (v && !/[\u0000-\u001f\u007f]/.test(v) ? tag + '[' + name + op + JSON.stringify(v) + ']' : '');
      const cands = [];
      if (testIdAttr) cands.push(attr(testIdAttr, '=', el.getAttribute(testIdAttr)));
      cands.push(attr('name', '=', el.getAttribute('name')), attr('title', '=', el.getAttribute('title')));
      const src = (el.getAttribute('src') || '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
      if (src.length > 1) cands.push(attr('src', '*=', src));
      const css = (s) => [{ e: 'css', css: [[{ css: s }]] }];
      for (const c of cands) {
        if (!c) continue;
        const found = all(css(c));
        if (found.length === 1 && found[0] === el) return c;
      }
      const i = all(css(tag)).indexOf(el);
      return i >= 0 ? tag + ' >> nth=' + i : '';
    } catch (e) {
      return '';
    }
  }

  // frameStepLocator(el, testIdAttr): what a recorded step names an element
  // of an iframe by, after its frame's part: its stable locator, else its
  // role and name (the frame's document is small; a replay that finds
  // several says so).
  function frameStepLocator(el, testIdAttr) {
    const stable = stableLocator(el, testIdAttr);
    if (stable) return stable;
    try {
      const role = roleOf(el);
      if (!role || role === 'generic' || role === 'none' || role === 'presentation') return '';
      const name = accName(el, role);
      return 'role=' + role + (name ? '[name=' + JSON.stringify(name) + ']' : '');
    } catch (e) {
      return '';
    }
  }

  // shownOnce(list): for each selector (parts), whether it finds one
  // element here and that element is visible: the texts an agent read that
  // are still on the page (a recorded flow's checks of what it read).
  function shownOnce(list) {
    return list.map((parts) => {
      try {
        const els = all(parts);
        return els.length === 1 && isVisible(els[0]);
      } catch (e) {
        return false;
      }
    });
  }
