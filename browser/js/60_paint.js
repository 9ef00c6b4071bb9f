  // ---------- paint mark ----------

  // paintMark(): a token that stays the same while nothing that paints the
  // page changes, or '' when that cannot be told. A report's picture after
  // a check (expect, wait) is the picture before it when the two marks are
  // equal (the report does not wait for a frame to take the same picture
  // again). The first call starts watching, so it returns ''; so does a
  // page that may change with no sign here: one that still loads, runs an
  // animation, loads fonts, or holds what paints by itself or out of this
  // document's sight (canvas, video, frames, plugins, SVG animation, shadow
  // trees, custom elements). Signs of a change: any mutation of the
  // document, input, focus, hover, scroll, resize, a media query's change,
  // a resource loaded, a transition or animation that ran. A text caret's
  // blink is not a change of the page.
  let paintCount = 0, paintWatch = null, paintLoads = null;
  const paintToken = Math.random().toString(36).slice(2);
  const paintEvents = ['input', 'change', 'focusin', 'focusout', 'mouseover', 'mouseout', 'pointerover', 'pointerout',
    'pointerdown', 'pointerup', 'keydown', 'keyup', 'scroll', 'resize', 'load', 'error', 'toggle', 'selectionchange',
    'transitionrun', 'transitionend', 'transitioncancel', 'animationstart', 'animationend', 'animationcancel'];
  const paintQueries = ['print', '(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(forced-colors: active)',
    '(prefers-contrast: more)'];
  const selfPainting = 'canvas, video, iframe, frame, embed, object, animate, animateMotion, animateTransform, set';

  function paintMark() {
    if (!paintWatch) {
      const bump = () => { paintCount++; };
      paintWatch = new MutationObserver(bump);
      paintWatch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      // Every resource loaded (a CSS background image, a font), however
      // many: the page's timing buffer holds only the first 250.
      paintLoads = new PerformanceObserver(bump);
      paintLoads.observe({ type: 'resource' });
      for (const type of paintEvents) addEventListener(type, bump, true);
      document.addEventListener('selectionchange', bump, true);
      for (const q of paintQueries) matchMedia(q).addEventListener('change', bump);
      return '';
    }
    if (paintWatch.takeRecords().length || paintLoads.takeRecords().length) paintCount++;
    if (document.readyState !== 'complete' || document.fonts.status !== 'loaded') return '';
    if (document.getAnimations().some((a) => a.playState === 'running' || a.playState === 'pending')) return '';
    if (document.querySelector(selfPainting)) return '';
    for (const el of document.querySelectorAll('*')) if (el.shadowRoot || el.localName.includes('-')) return '';
    return paintToken + ':' + paintCount + ':' + innerWidth + 'x' +
      innerHeight + '@' + devicePixelRatio + ':' + scrollX + ',' + scrollY;
  }
