  Object.defineProperty(globalThis, '__e2e', {
    value: Object.freeze({
      version: 1, snapshot, resolve, describe, clickPoint, prepareFill, typedInto, viewRect, frameOffset, pageInfo, loadedInfo,
      one, all, candidates, takeFrameOwner, lastFailure,
      waitText, waitState, waitURL, waitLoad, expect, expectCount, content,
      actionPoint, hitResult, quickPoint, hoverPoint, watchDrag, dragStarted, labelControl, checkState, checkedAgain, selectOptions, sliderState, setRange, fileInputOf,
      stableLocator, frameLocator, frameStepLocator, shownOnce, fingerprint, pageElements, restyleAll, refBoxes, audit, vitals, boxes, holdStill, paintMark, readBlob,
      highlight, hideHighlight, watchDrop, dropDone, dropEvents, startDemo, stopDemo,
      // For tests: the role and accessible name the engine computes for an element.
      aria: (el) => { const role = roleOf(el); return { role: role || '', name: role ? accName(el, role) : '' }; },
      // For tests: the contrast of an element's text with what is behind it.
      textContrast: (el) => textContrast(el),
    }),
    configurable: false, enumerable: false, writable: false,
  });
})();

