  // ---------- highlight overlays and drops ----------

  // highlight(el, style): a box drawn over el until hideHighlight, for a
  // person watching a headed session. It follows el every frame, takes no
  // pointer events and is hidden from the accessibility tree, so actions
  // and snapshots do not see it. One box an element: highlighting again
  // restyles it.
  const overlays = new Map();
  function highlight(el, style) {
    hideHighlight(el);
    const box = document.createElement('div');
    box.setAttribute('aria-hidden', 'true');
    box.style.cssText = 'position:fixed;pointer-events:none;z-index:2147483647;box-sizing:border-box;' +
      'outline:2px solid #e5007a;background:rgba(229,0,122,.12);' + (style || '');
    const follow = () => {
      if (!box.isConnected) return;
      const r = el.getBoundingClientRect();
      box.style.left = r.left + 'px'; box.style.top = r.top + 'px';
      box.style.width = r.width + 'px'; box.style.height = r.height + 'px';
      box.style.display = el.isConnected ? '' : 'none';
      requestAnimationFrame(follow);
    };
    (document.body || document.documentElement).appendChild(box);
    follow();
    overlays.set(el, box);
    return {};
  }

  // hideHighlight(el): removes el's box, or every box when el is null; the
  // number removed.
  function hideHighlight(el) {
    let n = 0;
    for (const [of, box] of overlays) {
      if (el && of !== el) continue;
      box.remove();
      overlays.delete(of);
      n++;
    }
    return { removed: n };
  }

  // watchDrop(): notes whether the next drop event reaches the document
  // (the browser sends it only when a dragover handler accepted the drag);
  // dropDone() says so. Capture on window: a page handler that stops the
  // event cannot hide it.
  let dropSeen = null;
  function watchDrop() {
    dropSeen = { drop: false };
    const seen = dropSeen;
    addEventListener('drop', () => { seen.drop = true; }, { capture: true, once: true });
    return true;
  }
  function dropDone() { return !!(dropSeen && dropSeen.drop); }

  // dropEvents(el, files, data, x, y): drags files ([{name, type, b64,
  // modified}]) and data ([[type, text]]) onto el with events made in the
  // page, for what the browser's own drag cannot carry (files and texts
  // together); 'accepted', or 'refused' when no dragover handler accepted.
  function dropEvents(el, files, data, x, y) {
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type, lastModified: f.modified }));
    }
    for (const [type, text] of data) dt.setData(type, text);
    const fire = (type) => {
      const e = new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt });
      el.dispatchEvent(e);
      return e;
    };
    fire('dragenter');
    if (!fire('dragover').defaultPrevented) {
      fire('dragleave');
      return 'refused';
    }
    fire('drop');
    return 'accepted';
  }
