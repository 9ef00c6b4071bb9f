  // ---------- a person's demonstration (browser_start_recording) ----------
  //
  // startDemo(testIdAttr, binding): listens (capture, on window, in this
  // isolated world) to what a person does, and reports each step through
  // the CDP binding as JSON {action, target, text, key, values, secret}
  // with the locator stableLocator writes for the agent's own recording
  // (a password's text stays here: the step only says one was typed).
  // Only trusted events count: what the page's scripts dispatch is not the
  // person. Text typed into a field becomes one "type" step, sent when the
  // person moves on (another step, or stopDemo).
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
    const toggle = (el) => el.localName === 'input' && /^(checkbox|radio)$/i.test(el.type);
    const target = (el) => stableLocator(el, testIdAttr) || cssPath(el);
    const state = { el: null, value: '', secret: false };
    const emit = (step) => send(JSON.stringify(step));
    const typed = () => {
      if (!state.el) return null;
      // A password never leaves the page: the step says one was typed.
      const step = state.secret ? { action: 'type', target: target(state.el), secret: true }
        : { action: 'type', target: target(state.el), text: state.value };
      state.el = null;
      return step;
    };
    const flush = () => { const s = typed(); if (s) emit(s); };
    const handlers = {
      input(e) {
        const el = origin(e);
        if (!e.isTrusted || !el) return;
        const field = el.isContentEditable ? el.closest('[contenteditable]:not([contenteditable=false])') || el : el;
        if (!textual(field)) return;
        if (state.el && state.el !== field) flush();
        state.el = field;
        state.value = field.isContentEditable ? field.innerText : field.value;
        state.secret = field.localName === 'input' && field.type === 'password';
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
        const chord = mods.some((m) => m !== 'Shift');
        if (!KEYS.has(e.key) && !(chord && e.key.length === 1)) return;
        flush();
        emit({ action: 'press', key: [...mods, e.key.length === 1 ? e.key.toUpperCase() : e.key].join('+') });
      },
    };
    for (const [type, fn] of Object.entries(handlers)) addEventListener(type, fn, true);
    demo = { handlers, typed };
    return true;
  }

  // stopDemo(): stops listening; the text still being typed, as a step, or
  // null.
  function stopDemo() {
    if (!demo) return null;
    for (const [type, fn] of Object.entries(demo.handlers)) removeEventListener(type, fn, true);
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
