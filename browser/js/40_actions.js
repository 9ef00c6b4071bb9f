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

  // isVisible: a box with a size and visibility: visible. An element with
  // display: contents has no box of its own: it is visible when something
  // it holds is (Playwright's rule).
  function isVisible(el) {
    const cs = getComputedStyle(el);
    if (cs.display === 'contents') {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === Node.ELEMENT_NODE && isVisible(c)) return true;
        if (c.nodeType === Node.TEXT_NODE && c.data.trim()) {
          const range = document.createRange();
          range.selectNodeContents(c);
          const r = range.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) return true;
        }
      }
      return false;
    }
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    if (cs.display === 'none' || cs.visibility !== 'visible') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function firstRect(el) {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    return null;
  }

  // elementFromPointDeep: the element at x, y, down through open shadow
  // roots. Over text slotted into a component (a Shoelace button's label),
  // the browser answers with the host, since the text is the host's own
  // child; the slot the text is assigned to stands for it then.
  function elementFromPointDeep(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (inner && inner !== hit) { hit = inner; continue; }
      const slot = slottedTextAt(hit, x, y);
      if (!slot) break;
      hit = slot;
    }
    return hit;
  }

  // slottedTextAt: the slot that the host's text child under x, y is
  // assigned to, if any.
  function slottedTextAt(host, x, y) {
    for (let c = host.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== Node.TEXT_NODE || !c.assignedSlot || !c.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(c);
      for (const r of range.getClientRects()) {
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return c.assignedSlot;
      }
    }
    return null;
  }

  // Is hit el itself, inside el in the flat tree (through slots and shadow
  // roots: a label slotted into a component's button), or a label of el?
  function hitsTarget(hit, el) {
    for (let n = hit; n; n = n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null) {
      if (n === el) return true;
      if (n.localName === 'label' && n.control === el) return true;
    }
    return false;
  }

  const round = (v) => Math.round(v * 100) / 100;

  // clickPoint(el, anyState): where a click hits el; anyState skips the
  // enabled check (hovering and dragging work on disabled elements too).
  function clickPoint(el, anyState) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      if (!isVisible(el)) return refuse('not_visible', 'not visible');
      if (!anyState && isDisabled(el, roleOf(el))) return refuse('disabled', 'disabled');
      const vw = window.innerWidth, vh = window.innerHeight;
      const box = el.getBoundingClientRect();
      if (box.left < 0 || box.top < 0 || box.right > vw || box.bottom > vh) {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      }
      const r = firstRect(el);
      if (!r) return refuse('not_visible', 'not visible');
      // Center of the part of the rect that is inside the viewport.
      const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
      const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
      if (right <= left || bottom <= top) return refuse('not_visible', 'not visible');
      const x = (left + right) / 2, y = (top + bottom) / 2;
      const hit = elementFromPointDeep(x, y);
      if (!hit) return refuse('not_visible', 'not visible');
      if (!hitsTarget(hit, el)) return refuse('covered', 'covered by ' + describe(hit));
      return { x: round(x), y: round(y) };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  function prepareFill(el) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      const tag = el.localName;
      const field = (tag === 'input' && TEXT_INPUT_TYPES.has(el.type)) || tag === 'textarea';
      if (!field && !el.isContentEditable) return refuse('not_editable', 'not editable: ' + describe(el), true);
      if ((field && el.disabled) || el.getAttribute('aria-disabled') === 'true') return refuse('disabled', 'disabled');
      if ((field && el.readOnly) || el.getAttribute('aria-readonly') === 'true') return refuse('readonly', 'readonly');
      if (!isVisible(el)) return refuse('not_visible', 'not visible');
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
      return { ok: true, secret: tag === 'input' && el.type === 'password' };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // pageInfo reads nothing that needs layout (window.scrollX does): it is
  // part of every answer, often right after the page changed, and a forced
  // layout of a big table costs 10 ms or more.
  function pageInfo() {
    return { url: String(location.href), title: String(document.title || '') };
  }

  // loadedInfo(): pageInfo once a just-loaded page has had its first
  // rendering update, when it has an autofocus element still to focus: the
  // browser focuses it there, after the load event on a busy machine. A
  // promise then, waiting at most 100 ms; at once otherwise.
  function loadedInfo() {
    const active = document.activeElement;
    if ((active && active !== document.body) || !document.querySelector('[autofocus]')) return pageInfo();
    return new Promise((resolve) => {
      const done = () => resolve(pageInfo());
      requestAnimationFrame(done);
      setTimeout(done, 100);
    });
  }

  function inViewport(r) {
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  }

  // frameOffset(iframe): where the iframe's content starts in this frame's
  // viewport (inside its border and padding), after scrolling it into view
  // (then a promise).
  function frameOffset(el) {
    const measure = () => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return { x: r.left + el.clientLeft + parseFloat(cs.paddingLeft || '0'), y: r.top + el.clientTop + parseFloat(cs.paddingTop || '0') };
    };
    if (inViewport(el.getBoundingClientRect())) return measure();
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    // The browser hit-tests an out-of-process iframe with compositor data
    // that catches up with a scroll only on the next frames: wait for them,
    // or input sent now lands where the iframe was.
    return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(measure()))));
  }

  // viewRect(el): the element's box in this frame's viewport, after scrolling
  // it into view if no part of it shows, with the window's scroll offsets.
  // refBoxes: where the elements of refs are in the viewport (those that
  // show in it, with a size), and the viewport's size.
  function refBoxes(refs) {
    const out = [];
    for (const ref of refs) {
      const wr = elementOfRef.get(ref);
      const el = wr && wr.deref();
      if (!el || !el.isConnected) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) continue;
      out.push({ ref, x: r.left, y: r.top, width: r.width, height: r.height });
    }
    return { boxes: out, width: innerWidth, height: innerHeight };
  }

  function viewRect(el) {
    let r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.right < 0 || r.top > window.innerHeight || r.left > window.innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      r = el.getBoundingClientRect();
    }
    return { x: r.left, y: r.top, width: r.width, height: r.height, scrollX: window.scrollX, scrollY: window.scrollY };
  }

