// e2e-mcp page engine.
//
// Injected by Go into an isolated world of every frame, at document start. At load
// time it only defines globalThis.__e2e; all DOM work happens when Go calls it:
//
//   snapshot({refSeq, interactiveOnly, depth, prefix, root, from, budget, since, fresh})
//                     -> {yaml, refSeq, refs, token, kind, folds, frames}: see 20_snapshot.js
//   resolve(ref)      -> Element, or throws "ref_not_found: ..." / "ref_stale: ..."
//   describe(el)      -> 'button "Create account"'
//   clickPoint(el)    -> {x, y} | {error}
//   prepareFill(el)   -> {ok: true} | {error}
//   pageInfo()        -> {url, title}; loadedInfo() -> pageInfo after autofocus (maybe a promise)
//   one(parts, text)  -> the Element a parsed selector matches (throws element_not_found, not_unique, enter_frame)
//   all(parts)        -> every Element it matches; candidates(parts, refSeq, prefix) -> {list, total, refSeq}
//   viewRect(el)      -> {x, y, width, height, scrollX, scrollY} in viewport CSS pixels
//   frameOffset(el)   -> where an iframe's content starts in this frame's viewport
//   waitText, waitState, waitURL, waitLoad, expect, expectCount, content: see 50_checks.js
//   actionPoint(el, anyState), hoverPoint(el) -> clickPoint once el is stable (a promise);
//   quickPoint(el) -> clickPoint now, unless an animation runs
//   checkState(el), selectOptions(el, values), sliderState(el, focus), setRange(el, v), fileInputOf(el),
//   watchDrag(), dragStarted(), labelControl(el): see 45_input.js
//
// Everything is synchronous and, except resolve and one, never throws.
(() => {
  'use strict';
  if (globalThis.__e2e) return;

