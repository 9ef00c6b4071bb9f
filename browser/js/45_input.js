  // ---------- input: the checks and state behind hover, drag, check,
  // select, slider and file upload ----------

  // nextFrame resolves at the next animation frame, or after 50 ms in a tab
  // that gets no frames (where nothing animates either).
  function nextFrame() {
    return new Promise((done) => {
      requestAnimationFrame(() => done());
      setTimeout(done, 50);
    });
  }

  const sameRect = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

  // actionPoint(el, anyState) is clickPoint for an element that must also be
  // stable: its box the same in two consecutive animation frames, so that the
  // input lands where the element is, not where it was while sliding in. (A
  // first frame can come at once, with the animation clock where it was.) A
  // promise.
  async function actionPoint(el, anyState, action) {
    const at = await stablePoint(el, anyState, action);
    // A click's point (hover's, anyState, is not a click): its hit is
    // checked until the click is answered (armHit).
    if (!at.error && !anyState) armHit(el);
    return at;
  }

  async function stablePoint(el, anyState, action) {
    const first = clickPoint(el, anyState, action);
    if (first.error) return first;
    // One frame always: what the page scheduled for it (a class set in a
    // requestAnimationFrame callback that starts a transition, a script
    // that moves the box) has happened when ours runs, since the page's
    // callbacks were queued first. Then, only while an animation (CSS or
    // Web Animations) runs in the document, the box must also hold still
    // over two more frames: those cost 20-35 ms a click, and the hit test
    // still catches an element that is not where the pointer goes.
    let before = el.getBoundingClientRect();
    await nextFrame();
    if (!el.isConnected) return refuse('not_attached', 'not attached');
    if (!sameRect(before, el.getBoundingClientRect())) return refuse('not_stable', 'not stable (it is moving)');
    if (!animating(el)) return clickPoint(el, anyState, action);
    await nextFrame();
    before = el.getBoundingClientRect();
    await nextFrame();
    if (!el.isConnected) return refuse('not_attached', 'not attached');
    if (!sameRect(before, el.getBoundingClientRect())) return refuse('not_stable', 'not stable (it is moving)');
    return clickPoint(el, anyState, action);
  }

  // The hit check of a click: from the point actionPoint gives until Go
  // reads hitResult, the first pointer event must land on the element
  // (hitsTarget), as the point's own hit test said it would. When the page
  // put something else under the point in between (rows a fetch rendered
  // above a link, a re-render that replaced the button), that event and
  // the rest of the click are kept from the page (no handler runs, a link
  // does not follow), and Go clicks again where the element is now: the
  // click never lands on what the agent did not name. Listeners of ours on
  // the window, capturing, run before the page's own on the document and
  // its elements. Disarmed by hitResult, the next armHit, or after 5 s.
  const HIT_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  let hitWatch = null;
  function armHit(el) {
    disarmHit();
    const w = { win: el.ownerDocument.defaultView, verdict: null };
    w.listener = (e) => {
      if (w.verdict === null) {
        const t = e.composedPath()[0];
        w.verdict = t && t.nodeType === Node.ELEMENT_NODE && hitsTarget(t, el) ? '' : describeCover(t);
      }
      if (w.verdict) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    };
    for (const type of HIT_EVENTS) w.win.addEventListener(type, w.listener, true);
    w.timer = setTimeout(disarmHit, 5000);
    hitWatch = w;
  }
  function disarmHit() {
    const w = hitWatch;
    if (!w) return;
    hitWatch = null;
    clearTimeout(w.timer);
    for (const type of HIT_EVENTS) w.win.removeEventListener(type, w.listener, true);
  }
  // hitResult() -> {missed: what the click landed on instead} | {} and
  // disarms the check.
  function hitResult() {
    const v = hitWatch ? hitWatch.verdict : null;
    disarmHit();
    return v ? { missed: v } : {};
  }

  // quickPoint(el): where a click would land now, without waiting for a
  // frame; an error when it cannot tell, or while an animation runs in the
  // document (the box may be moving).
  function quickPoint(el) {
    if (el && el.isConnected && animating(el)) return refuse('animating', 'animating');
    return clickPoint(el, false);
  }

  function animating(el) {
    const doc = el.ownerDocument;
    if (!doc.getAnimations) return true;
    return doc.getAnimations().some((a) => a.playState === 'running');
  }

  // hoverPoint: where to put the pointer over el; disabled elements count.
  const hoverPoint = (el, action) => actionPoint(el, true, action);

  // watchDrag arms a one-shot dragstart watch in this document; dragStarted
  // then tells whether the pointer moves since started an HTML5 drag that the
  // page did not cancel.
  let dragWatch = null;
  function watchDrag() {
    const w = { ev: null };
    dragWatch = w;
    addEventListener('dragstart', (e) => { w.ev = e; }, { capture: true, once: true });
    return true;
  }
  function dragStarted() {
    return !!(dragWatch && dragWatch.ev && !dragWatch.ev.defaultPrevented);
  }

  // labelControl: a <label> stands for the control it labels.
  const labelControl = (el) => (el && el.localName === 'label' && el.control ? el.control : el);

  // checkState(el) -> {checked: true|false|'mixed', radio} | {error}
  // checking is the control checkState read last: checkedAgain() reads it
  // again after the click, whatever its name became (AG Grid's row
  // checkbox is named "... (unchecked)" until it is checked, so its
  // selector then finds another row's).
  let checking = null;

  function checkState(el) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      const t = labelControl(el);
      const role = roleOf(t);
      if (!role || !CHECKABLE_ROLES.has(role) || role === 'treeitem') {
        return refuse('not_checkable', 'not a checkbox, radio or switch: ' + describe(el), true);
      }
      checking = new WeakRef(t);
      return { checked: checkedState(t, role), radio: role === 'radio' || role === 'menuitemradio' };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // checkedAgain(): the state of the control checkState read, or {gone}
  // when the page replaced it (a re-render): then its target is found again.
  function checkedAgain() {
    const t = checking && checking.deref();
    if (!t || !t.isConnected) return { gone: true };
    const role = roleOf(t);
    if (!role || !CHECKABLE_ROLES.has(role)) return { gone: true };
    return { checked: checkedState(t, role), radio: role === 'radio' || role === 'menuitemradio' };
  }

  const optionText = (o) => norm(o.label || o.textContent);

  // selectOptions(el, values) selects the options of a <select> whose value
  // or label is one of values (all others are deselected) and fires input
  // and change, as a user's choice does. -> {values, labels} | {error}
  function selectOptions(el, values) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      const sel = labelControl(el);
      if (sel.localName !== 'select') return refuse('not_select', 'not a <select>: ' + describe(el), true);
      if (!isVisible(sel)) return refuse('not_visible', 'not visible');
      if (isDisabled(sel, 'combobox')) return refuse('disabled', 'disabled');
      const options = Array.from(sel.options);
      const picked = [];
      for (const v of values) {
        const want = norm(v).toLowerCase();
        const o = options.find((o) => o.value === v) || options.find((o) => optionText(o) === norm(v)) ||
          options.find((o) => optionText(o).toLowerCase() === want);
        if (!o) {
          const list = options.slice(0, 20).map((o) => JSON.stringify(optionText(o)) +
            (o.value !== optionText(o) ? ' (' + JSON.stringify(o.value) + ')' : '')).join(', ');
          const more = options.length > 20 ? ', and ' + (options.length - 20) + ' more' : '';
          return refuse('no_option', 'no option matches ' + JSON.stringify(v) + '; options: ' + (list || 'none') + more);
        }
        if (o.disabled || (o.parentElement && o.parentElement.localName === 'optgroup' && o.parentElement.disabled)) {
          return refuse('option_disabled', 'option ' + JSON.stringify(optionText(o)) + ' is disabled');
        }
        if (!picked.includes(o)) picked.push(o);
      }
      if (picked.length > 1 && !sel.multiple) {
        return refuse('not_multiple', 'not a multiple select: it takes one value, got ' + picked.length, true);
      }
      sel.focus();
      if (sel.multiple) for (const o of options) o.selected = picked.includes(o);
      else if (picked.length) picked[0].selected = true;
      else sel.selectedIndex = -1;
      sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      sel.dispatchEvent(new Event('change', { bubbles: true }));
      return { values: picked.map((o) => o.value), labels: picked.map(optionText) };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // sliderState(el, focus) -> {native, now, min, max} | {error}, for an
  // <input type=range> (native) or an ARIA slider; focus focuses it, so that
  // arrow keys move it.
  function sliderState(el, focus) {
    try {
      if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
      const t = labelControl(el);
      const native = t.localName === 'input' && t.type === 'range';
      const role = roleOf(t);
      if (!native && role !== 'slider') return refuse('not_slider', 'not a slider: ' + describe(el), true);
      if (!isVisible(t)) return refuse('not_visible', 'not visible');
      if (isDisabled(t, role)) return refuse('disabled', 'disabled');
      if (focus) t.focus();
      if (native) return { native, now: Number(t.value), min: Number(t.min || 0), max: Number(t.max || 100) };
      const num = (a, d) => (t.hasAttribute(a) ? Number(t.getAttribute(a)) : d);
      return { native, now: num('aria-valuenow', NaN), min: num('aria-valuemin', 0), max: num('aria-valuemax', 100) };
    } catch (e) {
      return refuse('internal', 'internal: ' + (e && e.message));
    }
  }

  // setRange(el, value) sets an <input type=range> and fires input and
  // change. An ARIA slider is left to arrow keys: its state comes back.
  function setRange(el, value) {
    const st = sliderState(el, true);
    if (st.error || !st.native) return st;
    const t = labelControl(el);
    const old = t.value;
    t.value = String(value);
    if (Number(t.value) !== Number(value)) {
      t.value = old;
      return refuse('out_of_range', 'cannot set ' + value + ': the slider takes ' + t.min + ' to ' + t.max + ' in steps of ' + (t.step || 1), true);
    }
    t.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    t.dispatchEvent(new Event('change', { bubbles: true }));
    return { native: true, now: Number(t.value) };
  }

  // fileInputOf(el) -> {multiple} | {error} for an <input type=file> (or
  // its label). File inputs are often hidden behind a styled button, so
  // visibility does not matter.
  function fileInputOf(el) {
    if (!el || !el.isConnected) return refuse('not_attached', 'not attached');
    const t = labelControl(el);
    if (t.localName !== 'input' || t.type !== 'file') {
      return refuse('not_file_input', 'not a file input: ' + describe(el) + '; click what opens the file chooser, then upload without target', true);
    }
    if (t.disabled) return refuse('disabled', 'disabled');
    return { multiple: t.multiple };
  }
