package browser

import (
	"encoding/json"
	"strings"
)

// jsFn names an entry point of the page engine (globalThis.__e2e, listed in
// js/99_epilogue.js; TestEngineEntryPoints keeps the two in step). Go calls
// the engine only through these, with fn.call encoding the arguments.
type jsFn string

// The engine's entry points that Go calls.
const (
	fnSnapshot       jsFn = "snapshot"
	fnResolve        jsFn = "resolve"
	fnOne            jsFn = "one"
	fnCandidates     jsFn = "candidates"
	fnTakeFrameOwner jsFn = "takeFrameOwner"
	fnLastFailure    jsFn = "lastFailure"
	fnPageInfo       jsFn = "pageInfo"
	fnLoadedInfo     jsFn = "loadedInfo"
	fnViewRect       jsFn = "viewRect"
	fnFrameOffset    jsFn = "frameOffset"
	fnContent        jsFn = "content"
	fnWaitText       jsFn = "waitText"
	fnWaitState      jsFn = "waitState"
	fnWaitURL        jsFn = "waitURL"
	fnWaitLoad       jsFn = "waitLoad"
	fnExpect         jsFn = "expect"
	fnExpectCount    jsFn = "expectCount"
	fnActionPoint    jsFn = "actionPoint"
	fnHitResult      jsFn = "hitResult"
	fnQuickPoint     jsFn = "quickPoint"
	fnHoverPoint     jsFn = "hoverPoint"
	fnPrepareFill    jsFn = "prepareFill"
	fnTypedInto      jsFn = "typedInto"
	fnCheckState     jsFn = "checkState"
	fnCheckedAgain   jsFn = "checkedAgain"
	fnSelectOptions  jsFn = "selectOptions"
	fnSliderState    jsFn = "sliderState"
	fnSetRange       jsFn = "setRange"
	fnFileInputOf    jsFn = "fileInputOf"
	fnLabelControl   jsFn = "labelControl"
	fnWatchDrag      jsFn = "watchDrag"
	fnDragStarted    jsFn = "dragStarted"
	fnStableLocator  jsFn = "stableLocator"
	fnFrameLocator   jsFn = "frameLocator"
	fnFrameStep      jsFn = "frameStepLocator"
	fnShownOnce      jsFn = "shownOnce"
	fnFingerprint    jsFn = "fingerprint"
	fnPageElements   jsFn = "pageElements"
	fnRestyleAll     jsFn = "restyleAll"
	fnRefBoxes       jsFn = "refBoxes"
	fnAudit          jsFn = "audit"
	fnVitals         jsFn = "vitals"
	fnBoxes          jsFn = "boxes"
	fnHoldStill      jsFn = "holdStill"
	fnPaintMark      jsFn = "paintMark"
	fnReadBlob       jsFn = "readBlob"
	fnHighlight      jsFn = "highlight"
	fnHideHighlight  jsFn = "hideHighlight"
	fnWatchDrop      jsFn = "watchDrop"
	fnDropDone       jsFn = "dropDone"
	fnDropEvents     jsFn = "dropEvents"
	fnStartDemo      jsFn = "startDemo"
	fnStopDemo       jsFn = "stopDemo"
)

// jsExpr is an argument that is JavaScript already, passed as it is: the
// expression that yields an element (located.expr), a getter, el, this.
type jsExpr string

// call is the JavaScript of a call of fn; each argument is encoded as JSON,
// except a jsExpr.
func (fn jsFn) call(args ...any) string {
	var b strings.Builder
	b.WriteString("__e2e.")
	b.WriteString(string(fn))
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if e, ok := a.(jsExpr); ok {
			b.WriteString(string(e))
			continue
		}
		j, err := json.Marshal(a)
		if err != nil {
			panic("browser: engine argument of " + string(fn) + ": " + err.Error()) // only our own types are passed
		}
		b.Write(j)
	}
	b.WriteByte(')')
	return b.String()
}

// getter is a function that yields the element of expr, for the engine's
// waits, which look again at every poll.
func getter(expr string) jsExpr { return jsExpr("() => (" + expr + ")") }

// onElement is a call of fn with the element of expr as its first argument
// and args after it.
func onElement(expr string, fn jsFn, args ...any) string {
	return "(() => { const el = " + expr + "; return " + fn.call(append([]any{jsExpr("el")}, args...)...) + "; })()"
}

// onElementBoxed is onElement whose result r comes as {r}, with the
// element's box in the viewport (viewRect) beside it as box when r is no
// refusal ({error}): an action and the box a video shows it at in one
// round trip (noteTarget).
func onElementBoxed(expr string, fn jsFn, args ...any) string {
	return "(() => { const el = " + expr + "; const r = " + fn.call(append([]any{jsExpr("el")}, args...)...) +
		"; const boxed = (v) => (v && v.error) ? { r: v } : { r: v, box: " + fnViewRect.call(jsExpr("el")) + " };" +
		" return (r && typeof r.then === 'function') ? r.then(boxed) : boxed(r); })()"
}
