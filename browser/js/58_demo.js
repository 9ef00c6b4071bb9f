  // ---------- a person's demonstration (browser_start_recording) ----------
  //
  // startDemo(testIdAttr, binding): listens (capture, on window, in this
  // isolated world) to what a person does, and reports each step through
  // the CDP binding as JSON {action, target, text, key, values, secret,
  // field} with the locator stableLocator writes for the agent's own
  // recording. Only trusted events count: what the page's scripts dispatch
  // is not the person. Text typed into a field becomes one "type" step,
  // sent when the person moves on (another step, or stopDemo); field names
  // the field in this document (one id a locator), so that Go can tell
  // the parts of one field's typing apart from another's.
  //
  // A secret field's text never leaves the page: its step says only that
  // one was typed (secret). A field is secret for the whole recording once
  // it was at any moment (secretField, which remembers the element), and
  // so is any element that takes its locator (a re-render that swaps the
  // field for a new one when its password is revealed). A field that
  // becomes secret after its text was sent (a password shown while typed,
  // then hidden) is reported as {action: 'secret', field}: Go drops the
  // text it holds for it.
  let demo = null;
  const KEYS = new Set(['Enter', 'Escape', 'Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
    'Home', 'End', 'PageUp', 'PageDown', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12']);
  const CLICKABLE = 'button,a[href],input,select,textarea,label,summary,[role=button],[role=link],[role=menuitem],' +
    '[role=tab],[role=checkbox],[role=radio],[role=switch],[role=option],[role=gridcell],[role=treeitem],[onclick]';

  function startDemo(testIdAttr, binding) {
    const send = globalThis[binding];
    if (demo || typeof send !== 'function') return !!demo;
    const origin = (e) => { const el = e.composedPath()[0]; return el instanceof Element ? el : null; };
    const textual = (el) => el.isContentEditable || el.localName === 'textarea' ||
      (el.localName === 'input' && !/^(checkbox|radio|button|submit|reset|file|image|range|color|hidden)$/i.test(el.type));
    const editable = (el) => el.isContentEditable ? el.closest('[contenteditable]:not([contenteditable=false])') || el : el;
    const toggle = (el) => el.localName === 'input' && /^(checkbox|radio)$/i.test(el.type);
    const target = (el) => stableLocator(el, testIdAttr) || cssPath(el);
    const emit = (step) => send(JSON.stringify(step));
    // This document's recording: its fields by locator, the locators of
    // the secret ones, and the fields whose text was sent.
    const doc = Math.random().toString(36).slice(2, 10);
    const fields = new Map();
    const fieldOf = (t) => {
      if (!fields.has(t)) fields.set(t, doc + '.' + (fields.size + 1));
      return fields.get(t);
    };
    const secretTargets = new Set();
    const sentClear = new Set(); // fields with text sent
    const sentFrom = new WeakMap(); // an element -> the fields its text was sent as
    const located = new WeakMap(); // a secret element -> its locator when it was noted
    // note(el): whether el is a secret field; a secret one's locator is
    // remembered (the first time), and the text sent for it, under this
    // locator or another it had, taken back.
    const note = (el) => {
      if (!el || !textual(el) || !secretField(el)) return false;
      if (located.has(el)) return true;
      const t = target(el);
      located.set(el, t);
      secretTargets.add(t);
      for (const field of [fieldOf(t), ...(sentFrom.get(el) || [])]) {
        if (sentClear.delete(field)) emit({ action: 'secret', field });
      }
      return true;
    };
    // secret(el, t): el, at locator t, is secret now or was.
    const secret = (el, t) => {
      if (note(el)) return true;
      if (!secretTargets.has(t)) return false;
      keepSecret(el);
      located.set(el, t);
      return true;
    };
    const state = { el: null, value: '' };
    const typed = () => {
      const el = state.el;
      if (!el) return null;
      state.el = null;
      const t = target(el);
      const field = fieldOf(t);
      if (secret(el, t)) return { action: 'type', target: t, field, secret: true };
      sentClear.add(field);
      if (!sentFrom.has(el)) sentFrom.set(el, new Set());
      sentFrom.get(el).add(field);
      return { action: 'type', target: t, field, text: state.value };
    };
    const flush = () => { const s = typed(); if (s) emit(s); };
    const handlers = {
      focusin(e) {
        const el = origin(e);
        if (e.isTrusted && el) note(editable(el));
      },
      input(e) {
        const el = origin(e);
        if (!e.isTrusted || !el) return;
        const field = editable(el);
        if (!textual(field)) return;
        if (state.el && state.el !== field) flush();
        note(field);
        state.el = field;
        state.value = field.isContentEditable ? field.innerText : field.value;
      },
      click(e) {
        const el = origin(e);
        if (!e.isTrusted || !el) return;
        const hit = el.closest(CLICKABLE) || el;
        const control = hit.localName === 'label' ? hit.control : hit;
        // A toggle is recorded by its change, a field by what is typed,
        // a select by the option chosen.
        if (control && (toggle(control) || textual(control) || control.localName === 'select' || control.localName === 'option')) return;
        flush();
        emit({ action: 'click', target: target(hit) });
      },
      change(e) {
        const el = origin(e);
        if (!e.isTrusted || !el) return;
        if (toggle(el)) {
          flush();
          emit({ action: el.checked ? 'check' : 'uncheck', target: target(el) });
        } else if (el.localName === 'select') {
          flush();
          emit({ action: 'select', target: target(el), values: [...el.selectedOptions].map((o) => o.value) });
        }
      },
      keydown(e) {
        if (!e.isTrusted || e.repeat) return;
        const mods = ['Control', 'Alt', 'Meta', 'Shift'].filter((m) => e.getModifierState(m) && e.key !== m);
        // AltGr (Control+Alt on Windows) types a character: the text
        // records it, never a key step.
        const chord = !e.getModifierState('AltGraph') && mods.some((m) => m !== 'Shift');
        if (!KEYS.has(e.key) && !(chord && e.key.length === 1)) return;
        flush();
        emit({ action: 'press', key: [...mods, e.key.length === 1 ? e.key.toUpperCase() : e.key].join('+') });
      },
    };
    for (const [type, fn] of Object.entries(handlers)) addEventListener(type, fn, true);
    // What changes a field between events: its type from or to password,
    // its class or style (a CSS mask), or a new element in its place.
    const watch = new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target;
        if (r.type === 'attributes') {
          if (el.localName !== 'input' && el.localName !== 'textarea') continue;
          if (r.attributeName === 'type') typeChanged(el, r.oldValue);
          note(el);
        } else if (secretTargets.size) {
          for (const n of r.addedNodes) {
            if (n.nodeType !== 1) continue;
            const found = n.matches('input,textarea') ? [n] : n.querySelectorAll('input,textarea');
            for (const f of found) if (textual(f) && secretTargets.has(target(f))) keepSecret(f);
          }
        }
      }
    });
    watch.observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true,
      attributeFilter: ['type', 'class', 'style'] });
    for (const el of document.querySelectorAll('input,textarea')) note(el);
    demo = { handlers, typed, watch };
    return true;
  }

  // stopDemo(): stops listening; the text still being typed, as a step, or
  // null.
  function stopDemo() {
    if (!demo) return null;
    for (const [type, fn] of Object.entries(demo.handlers)) removeEventListener(type, fn, true);
    demo.watch.disconnect();
    const last = demo.typed();
    demo = null;
    return last;
  }

  // cssPath(el): a CSS path to el, for an element no stable locator finds
  // alone: its id, or tag:nth-of-type steps up to one with an id.
  function cssPath(el) {
    const steps = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.documentElement; e = e.parentElement) {
      if (e.id) { steps.unshift('#' + CSS.escape(e.id)); break; }
      let n = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) n++;
      steps.unshift(e.localName + ':nth-of-type(' + n + ')');
    }
    return steps.join(' > ');
  }
