  // ---------- secret fields ----------
  //
  // secretField(el, style): whether what is in el, or typed into it, is a
  // secret: a password input, or a text field the page masks with CSS
  // (-webkit-text-security, as PIN and banking fields do on an
  // <input type=text>), now or at any moment the engine saw it so: a
  // password the person reveals with the field's eye button (type=text)
  // stays one. The one test of the engine: the recorder of a person
  // (58_demo.js), the agent's typing (prepareFill's secret, which marks
  // the text typed) and the values a snapshot shows all ask it. style is
  // el's computed style when the caller has it.
  const secretOnce = new WeakSet();

  function secretField(el, style) {
    if (!el || el.nodeType !== 1) return false;
    if (secretOnce.has(el)) return true;
    if (!maskedNow(el, style)) return false;
    secretOnce.add(el);
    return true;
  }

  // keepSecret(el): el was a secret field at a moment no one asked (the
  // recorder saw its type change from password, or a new element take
  // the place of one).
  function keepSecret(el) {
    if (el && el.nodeType === 1) secretOnce.add(el);
  }

  // typeChanged(el, oldType): el's type attribute was oldType until a
  // moment ago (the recorder watches it change): a password field it was
  // stays secret.
  function typeChanged(el, oldType) {
    if (oldType && oldType.toLowerCase() === 'password') keepSecret(el);
  }

  function maskedNow(el, style) {
    const tag = el.localName;
    if (tag === 'input') {
      if (el.type === 'password') return true;
      if (!TEXT_INPUT_TYPES.has(el.type)) return false;
    } else if (tag !== 'textarea' && !el.isContentEditable) {
      return false;
    }
    const cs = style || (el.ownerDocument.defaultView || window).getComputedStyle(el);
    const mask = cs.getPropertyValue('-webkit-text-security');
    return !!mask && mask !== 'none';
  }
