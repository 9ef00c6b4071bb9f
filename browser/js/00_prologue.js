// e2e-mcp page engine.
//
// Injected by Go into an isolated world of every frame, at document start. At load
// time it only defines globalThis.__e2e; all DOM work happens when Go calls it:
//
//   snapshot({refSeq, interactiveOnly, depth, prefix, root, from, budget, since, fresh})
//                     -> {yaml, refSeq, refs, token, kind, folds, frames}: see 20_snapshot.js
//   resolve(ref)      -> Element, or throws an EngineError (ref_not_found, ref_stale)
//   describe(el)      -> 'button "Create account"'
//   clickPoint(el, anyState, action) -> {x, y} | {error, code, final}: a refusal (see refuse below)
//   prepareFill(el, atCaret) -> {ok: true, secret} | {error, code, final}; typedInto() -> {ok, focus}
//   pageInfo()        -> {url, title}; loadedInfo() -> pageInfo after autofocus (maybe a promise)
//   one(parts, text)  -> the Element a parsed selector matches (throws element_not_found, not_unique, enter_frame)
//   all(parts)        -> every Element it matches; candidates(parts, refSeq, prefix) -> {list, total, refSeq}
//   viewRect(el)      -> {x, y, width, height, scrollX, scrollY} in viewport CSS pixels
//   frameOffset(el)   -> where an iframe's content starts in this frame's viewport
//   waitText, waitState, waitURL, waitLoad, expect, expectCount, content: see 50_checks.js
//   actionPoint(el, anyState, action), hoverPoint(el, action) -> clickPoint once el is stable (a promise);
//   a click's point arms its hit check, which hitResult() reads and disarms
//   quickPoint(el) -> clickPoint now, unless an animation runs
//   checkState(el), selectOptions(el, values), sliderState(el, focus), setRange(el, v), fileInputOf(el),
//   watchDrag(), dragStarted(), labelControl(el): see 45_input.js
//   audit(root, refSeq, prefix, limit) -> accessibility findings: see 60_audit.js
//   vitals(refSeq, prefix) -> a promise of the web vitals: see 62_vitals.js
//   boxes(parts | el), holdStill(on): for visual checks; readBlob(url, max): see 60_capture.js
//
// Everything is synchronous and, except resolve and one, never throws.
// What it throws on purpose is an EngineError with a code; Go sees the
// exception's class and asks lastFailure() for the code and message, so no
// message is ever parsed.
(() => {
  'use strict';
  if (globalThis.__e2e) return;

  class EngineError extends Error {}
  let failure = null;
  // fail(code, message, part, reason): the EngineError to throw. Codes:
  // ref_not_found, ref_stale, element_not_found, not_unique, invalid_input,
  // enter_frame (part: the selector part to go on with inside the iframe
  // reached). reason tells apart failures of one code (many_matches: a
  // selector's last part matched several elements, which Go lists).
  function fail(code, message, part, reason) {
    failure = { code, message, part: part || 0, reason: reason || '' };
    const e = new EngineError(code + ': ' + message);
    e.code = code;
    return e;
  }
  // lastFailure(): the code and message of the last EngineError thrown.
  const lastFailure = () => failure;
  // refuse(code, message, final): a check that did not pass, and why; final
  // when waiting cannot change it (the wrong kind of element, a value the
  // element cannot take). Codes Go tells apart: not_select (fill_form then
  // types into an editable combobox).
  const refuse = (code, message, final) => ({ error: message, code, final: !!final });

