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

  // describeCover: what covers a target, as describe says it; an element
  // with no name of its own (the paragraph of a cookie banner) is placed
  // in the nearest named part of the page around it (dialog "Cookie
  // consent"), which a snapshot shows with the buttons that close it.
  function describeCover(hit) {
    const d = describe(hit);
    if (!hit || hit.nodeType !== Node.ELEMENT_NODE || d.includes('"')) return d;
    try {
      let n = hit.assignedSlot || hit.parentElement || (hit.parentNode && hit.parentNode.host) || null;
      for (let depth = 0; n && depth < 30; depth++) {
        const role = roleOf(n);
        if (role && role !== 'generic' && role !== 'presentation' && role !== 'none') {
          const name = clip(accName(n, role), 60);
          if (name) return d + ' in ' + role + ' ' + JSON.stringify(name);
        }
        n = n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null;
      }
    } catch (e) { /* the description alone */ }
    return d;
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

  // clickPoint(el, anyState, action): where a click hits el; anyState
  // skips the enabled check (hovering and dragging work on disabled
  // elements too). action numbers the action that asks (its retries ask
  // again with the same number).
  //
  // It scrolls only as far as needed: an element of which a part shows
  // (and is not covered there) is hit at the centre of that part, with no
  // scroll at all. A scroll moves the page under the resting pointer: over
  // a hover-only menu it closes the menu that shows el, the page snaps
  // back, the menu reopens, and every retry would scroll again. So while
  // the pointer rests on an ancestor of el (the menu item that opened
  // it), el is scrolled to the nearest edge, once an action.
  function clickPoint(el, anyState, action) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      if (!isVisible(el)) return refuse('not_visible', 'not visible');
      if (!anyState && isDisabled(el, roleOf(el))) return refuse('disabled', 'disabled');
      const box = el.getBoundingClientRect();
      const shown = visiblePart(box);
      if (!shown) bringIntoView(el, action);
      let at = pointOn(el);
      if (at.code === 'covered' && shown && !inViewport(box) && bringIntoView(el, action)) at = pointOn(el);
      return at;
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // visiblePart(r): the part of r inside the viewport, or null.
  function visiblePart(r) {
    const left = Math.max(r.left, 0), right = Math.min(r.right, window.innerWidth);
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
    return right > left && bottom > top ? { left, right, top, bottom } : null;
  }

  // pointOn(el): the centre of the part of el's first box inside the
  // viewport, if el is what is hit there.
  function pointOn(el) {
    const r = firstRect(el);
    const part = r && visiblePart(r);
    if (!part) return refuse('not_visible', r ? 'not visible (outside the viewport)' : 'not visible');
    const x = (part.left + part.right) / 2, y = (part.top + part.bottom) / 2;
    const hit = elementFromPointDeep(x, y);
    if (!hit) return refuse('not_visible', 'not visible');
    if (!hitsTarget(hit, el)) return refuse('covered', 'covered by ' + describeCover(hit));
    return { x: round(x), y: round(y) };
  }

  // bringIntoView scrolls el to the centre (a part of it under a sticky
  // header is not hit), or to the nearest edge while the pointer rests on
  // an ancestor of el, and only once in an action then (see clickPoint).
  // It says whether it scrolled.
  let scrolledIn = null;
  function bringIntoView(el, action) {
    const under = hoveredAncestor(el);
    if (under && action !== undefined && scrolledIn === action) return false;
    scrolledIn = action;
    const at = under ? 'nearest' : 'center';
    el.scrollIntoView({ block: at, inline: at, behavior: 'instant' });
    return true;
  }

  // hoveredAncestor(el): the ancestor of el (in the flat tree) the pointer
  // rests on, leaving out the document's body and root, which it always
  // does.
  function hoveredAncestor(el) {
    for (let n = el.assignedSlot || el.parentElement || (el.parentNode && el.parentNode.host); n; n = n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null) {
      if (n === n.ownerDocument.body || n === n.ownerDocument.documentElement) break;
      if (n.matches(':hover')) return n;
    }
    return null;
  }

  // editingHost(el): the outermost contenteditable element el is in (el
  // itself for an editor's root): what takes focus for text typed into any
  // part of a rich-text editor.
  function editingHost(el) {
    let host = el;
    for (let n = el.parentElement; n && n.isContentEditable; n = n.parentElement) host = n;
    return host;
  }

  // holdsFocus(el): focus is on el, or inside it (an editor's inner
  // textarea), or on the editing host el is part of. Shadow roots are
  // crossed: a custom element's inner input counts for its host. In an
  // iframe, the frame must have the page's focus too (its document keeps
  // its active element when focus moves to the parent).
  function holdsFocus(el) {
    let a = el.ownerDocument.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    if (!a || (window.top !== window && !el.ownerDocument.hasFocus())) return false;
    if (a === el || el.contains(a) || (el.shadowRoot && el.shadowRoot.contains(a))) return true;
    return el.isContentEditable && a.isContentEditable && a.contains(el);
  }

  // editState(el): what typing into el changes: a field's value, an
  // editor's text and element count (a markdown shortcut turns "# " into a
  // heading: the text shrinks, the elements change).
  function editState(el) {
    if (el.localName === 'input' || el.localName === 'textarea') return 'v:' + el.value;
    if (el.editContext) return 'e:' + el.editContext.text;
    return 't:' + el.childElementCount + ':' + el.getElementsByTagName('*').length + ':' + el.textContent;
  }

  // caretAtStart puts a collapsed selection at the first position in el,
  // unless the selection is in el already (focus() on an editing host
  // keeps a selection inside it).
  function caretAtStart(el) {
    const sel = el.ownerDocument.getSelection();
    if (!sel) return;
    if (sel.rangeCount && el.contains(sel.getRangeAt(0).startContainer)) return;
    const range = el.ownerDocument.createRange();
    range.setStart(el, 0);
    range.collapse(true);
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // typing is the element text is being typed into, and its editState
  // before: typedInto() tells whether the keys reached it.
  let typing = null;

  // prepareFill(el, atCaret): focus el and select its content, which the
  // text then replaces; atCaret keeps the caret where it is instead (where
  // the agent put it in a document), as Playwright's pressSequentially
  // does: an element focused only now gets a collapsed selection at its
  // start (an input at position 0, an editor at its first position unless
  // focusing it restored a selection of its own inside it).
  function prepareFill(el, atCaret) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      const tag = el.localName;
      const field = (tag === 'input' && TEXT_INPUT_TYPES.has(el.type)) || tag === 'textarea';
      // An EditContext's element (Monaco's input) takes text through focus
      // alone, as Playwright's pressSequentially types into it; it may have
      // no size, and its content is no DOM to select.
      const context = !field && !el.isContentEditable && !!el.editContext;
      if (!field && !el.isContentEditable && !context) return refuse('not_editable', 'not editable: ' + describe(el), true);
      if ((field && el.disabled) || el.getAttribute('aria-disabled') === 'true') return refuse('disabled', 'disabled');
      if ((field && el.readOnly) || el.getAttribute('aria-readonly') === 'true') return refuse('readonly', 'readonly');
      if (!context && !isVisible(el)) return refuse('not_visible', 'not visible');
      const secret = secretField(el);
      const host = field || context ? el : editingHost(el);
      const focused = holdsFocus(el);
      if (!focused) host.focus();
      if (atCaret) {
        if (!focused) {
          // An input at position 0 (a textarea keeps its caret: Monaco
          // and CodeMirror 5 type through one and restore their own);
          // an editor where focus() put its selection, else at its start.
          if (tag === 'input') {
            try { el.setSelectionRange(0, 0); } catch (e) { /* a type without a selection */ }
          } else if (!field) {
            caretAtStart(el);
          }
        }
      } else if (context) {
        typing = { el: new WeakRef(el), before: editState(el) };
        return { ok: true, secret, selectAll: true }; // its own select-all key
      } else if (field) {
        el.select();
      } else {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        const sel = el.ownerDocument.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      typing = { el: new WeakRef(el), before: editState(el) };
      return { ok: true, secret };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // typedInto(): after keys were typed into the element prepareFill
  // prepared, whether they reached it: focus is still in it, or its
  // value or content changed (a field that moves focus on as it fills,
  // such as a one-time-code box, changed). When neither, where focus is.
  function typedInto() {
    const t = typing;
    const el = t && t.el.deref();
    if (!el || !el.isConnected) return { ok: true }; // it went with what the keys did (a submit, a re-render)
    if (holdsFocus(el) || editState(el) !== t.before) return { ok: true };
    if (window.top !== window && !el.ownerDocument.hasFocus()) return { ok: false, focus: 'outside this frame' };
    const a = deepActiveElement();
    return { ok: false, focus: a ? describe(a) : '<body>' };
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

