  // ---------- visual checks ----------

  // boxes(parts | el): the boxes of every element a parsed selector matches
  // (or of one element) in document CSS pixels, with the scroll position,
  // the viewport's size and the device pixels of a CSS pixel. A visual
  // check paints them over (masks), and bounds its screenshot's size.
  function boxes(what) {
    const els = Array.isArray(what) ? all(what) : what ? [what] : [];
    const out = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out.push({ x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height });
    }
    return { boxes: out, scrollX, scrollY, width: innerWidth, height: innerHeight, dpr: devicePixelRatio };
  }

  // holdStill(on): what a visual check's screenshots need, as Playwright's
  // animations 'disabled' and caret 'hide': animations and transitions that
  // end jump to their end, endless ones are cancelled, new ones stay at
  // their start, the text caret is transparent and highlights are hidden.
  // holdStill(false) takes the style away again.
  let stillStyle = null;
  function holdStill(on) {
    // A highlight is for the person watching, not part of the page.
    for (const box of overlays.values()) box.style.visibility = on ? 'hidden' : '';
    if (!on) {
      if (stillStyle) stillStyle.remove();
      stillStyle = null;
      return true;
    }
    if (!stillStyle) {
      stillStyle = document.createElement('style');
      stillStyle.textContent = '*, *::before, *::after { transition: none !important; ' +
        'animation-play-state: paused !important; caret-color: transparent !important; }';
    }
    (document.head || document.documentElement).appendChild(stillStyle);
    for (const a of document.getAnimations()) {
      try {
        if (a.effect && a.effect.getComputedTiming().endTime === Infinity) a.cancel();
        else a.finish();
      } catch (e) { a.cancel(); }
    }
    return true;
  }

  // readBlob(url, max): the bytes of a blob: URL of this frame's document,
  // for a download a remote browser was denied (remotedownload.go): a
  // promise of {b64, size}, or {error} when the page revoked the URL or it
  // holds more than max bytes.
  async function readBlob(url, max) {
    let blob;
    try {
      blob = await (await fetch(url)).blob();
    } catch (e) {
      return { error: 'the page no longer holds it (it revoked the blob: URL)' };
    }
    if (blob.size > max) return { error: 'it holds ' + blob.size + ' bytes, more than the ' + max + ' e2e-mcp reads from a page' };
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return { b64: btoa(bin), size: bytes.length };
  }
