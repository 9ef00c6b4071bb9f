  // ---------- stable locators ----------

  // stableLocator(el, testIdAttr): the most robust selector that finds el
  // and nothing else, for a recorded flow: role and name, label, test id,
  // then text ("" when none is unique). Each candidate is checked with the
  // same parts Go's parser makes of the string, so a replay finds the same
  // element.
  function stableLocator(el, testIdAttr) {
    try {
      if (!el || !el.isConnected) return '';
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

