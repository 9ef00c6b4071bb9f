//go:build !unit

package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
)

func init() {
	pages["/form"] = `<!doctype html><title>Sign up</title>
<nav><a href="/home">Home</a></nav>
<main><h1>Create your account</h1>
<form id="f"><label for="n">Name</label><input id="n" placeholder="Ada Lovelace" required>
<label><input type="checkbox" id="t" checked> I accept</label>
<select aria-label="Plan"><option>Free</option><option selected>Pro</option></select>
<button type="submit">Sign up</button></form>
<p id="out" role="status"></p>
<p style="display:none">hidden by display</p><div aria-hidden="true">hidden by aria</div>
<details><summary>More</summary><p>inside closed details</p></details></main>
<script>document.getElementById('f').addEventListener('submit', e => { e.preventDefault();
  document.getElementById('out').textContent = 'Welcome, ' + document.getElementById('n').value + '!'; });
let keys = 0; document.getElementById('n').addEventListener('keydown', () => keys++);</script>`
	pages["/slide"] = `<!doctype html><title>Slide</title><style>
#s { position: absolute; top: 20px; left: 0; width: 80px; transition: left 300ms linear; } #s.in { left: 400px; }
</style><button id="s">Slide</button>`
	pages["/overlay"] = `<!doctype html><title>Overlay</title><button id="b">Buy</button>
<div id="overlay" style="position:fixed;inset:0;background:rgba(0,0,0,.3)"></div>`
	pages["/consent"] = `<!doctype html><title>Consent</title><button id="b" style="position:fixed;bottom:10px;left:10px">Buy</button>
<div role="dialog" aria-label="Cookie consent" style="position:fixed;bottom:0;left:0;right:0;height:80px;background:#222;color:#fff">
<p style="margin:0;height:80px">We use cookies.</p><button>Accept all</button></div>`
	pages["/late"] = `<!doctype html><title>Late</title><button id="b" style="display:none" onclick="this.textContent='clicked'">Go</button>
<script>setTimeout(() => document.getElementById('b').style.display = 'block', 300)</script>`
	pages["/links"] = `<!doctype html><title>Links</title><a href="/form">to form</a><button>One</button><button>Two</button>`
	pages["/nav-edge"] = `<!doctype html><title>Edges</title><a id="frag" href="#sec">Jump</a> <a id="nc" href="/204">Nothing</a>
<button id="push" onclick="history.pushState({}, '', '/nav-edge?pushed=1')">Push</button><div id="sec" style="margin-top:2000px">Section</div>`
	pages["/hostile"] = `<!doctype html><title>Hostile</title><button onclick="this.textContent='ok'">Press</button>
<script>Element.prototype.getBoundingClientRect = () => { throw new Error('page broke it') };
document.querySelectorAll = () => { throw new Error('page broke it') };</script>`
	pages["/tall"] = `<!doctype html><title>Tall</title><div id="top" style="height:3000px;width:200px;background:#eee">x</div><button id="low">Low</button>`
	pages["/shadow"] = `<!doctype html><title>Shadow</title><div id="host"></div>
<script>const r = document.getElementById('host').attachShadow({mode:'open'}); r.innerHTML = '<button id="in">Inside</button>';</script>`
}

func TestSnapshot_Form(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/form")
	s := snapshot(t, p, SnapshotOptions{})
	wantLines(t, s.YAML,
		`- heading "Create your account" [level=1]`,
		`- textbox "Name" [required] [ref=`,
		`- /placeholder: Ada Lovelace`,
		`- checkbox "I accept" [checked] [ref=`,
		`- combobox "Plan" [ref=`,
		`- option "Pro" [selected]`,
		`- button "Sign up" [ref=`,
		`- link "Home" [ref=`, `- /url: /home`,
	)
	for _, hidden := range []string{"hidden by display", "hidden by aria", "inside closed details"} {
		if strings.Contains(s.YAML, hidden) {
			t.Errorf("snapshot shows %q:\n%s", hidden, s.YAML)
		}
	}
	if s.Info.Title != "Sign up" || !strings.HasSuffix(s.Info.URL, "/form") {
		t.Errorf("Info = %+v", s.Info)
	}
}

func TestSnapshot_Options(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/form")
	full := snapshot(t, p, SnapshotOptions{})
	sub := snapshot(t, p, SnapshotOptions{Target: "form"})
	if strings.Contains(sub.YAML, "heading") || !strings.Contains(sub.YAML, `button "Sign up"`) {
		t.Errorf("target=form snapshot:\n%s", sub.YAML)
	}
	btn := refFor(t, full, "button", "Sign up")
	if byRef := snapshot(t, p, SnapshotOptions{Target: btn}); !strings.HasPrefix(byRef.YAML, `- button "Sign up" [ref=`+btn+`]`) {
		t.Errorf("target=%s snapshot:\n%s", btn, byRef.YAML)
	}
	inter := snapshot(t, p, SnapshotOptions{InteractiveOnly: true})
	for _, l := range strings.Split(inter.YAML, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.Contains(l, "[ref=") {
			t.Errorf("interactiveOnly shows a line without a ref: %q", l)
		}
	}
	shallow := snapshot(t, p, SnapshotOptions{Depth: 1})
	for _, l := range strings.Split(shallow.YAML, "\n") {
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(strings.TrimSpace(l), "- /") {
			t.Errorf("depth=1 shows a line below the top lines' children: %q", l)
		}
	}
	_, err := p.Snapshot(context.Background(), SnapshotOptions{Target: "button, a"})
	wantKind(t, err, KindNotUnique, "matches")
}

func TestRefs_StableNeverReusedStale(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/form")
	ctx := context.Background()
	a := snapshot(t, p, SnapshotOptions{})
	b := snapshot(t, p, SnapshotOptions{})
	if a.YAML != b.YAML {
		t.Errorf("two snapshots of an unchanged page differ:\n%s\n---\n%s", a.YAML, b.YAML)
	}
	btn := refFor(t, a, "button", "Sign up")
	// Renaming gives a new ref; the old one is stale.
	if _, err := p.Evaluate(ctx, `() => document.querySelector('button').textContent = 'Join'`, ""); err != nil {
		t.Fatal(err)
	}
	c := snapshot(t, p, SnapshotOptions{})
	if join := refFor(t, c, "button", "Join"); join == btn {
		t.Errorf("renamed button kept ref %s", btn)
	}
	err := p.Click(ctx, btn, ClickOptions{})
	wantKind(t, err, KindRefStale, "")
	// A removed element's ref is stale too.
	check := refFor(t, c, "checkbox", "I accept")
	if _, err := p.Evaluate(ctx, `() => document.getElementById('t').closest('label').remove()`, ""); err != nil {
		t.Fatal(err)
	}
	wantKind(t, p.Click(ctx, check, ClickOptions{}), KindRefStale, "no longer attached")
	// After a navigation, refs continue from the session's counter: the new
	// page's refs never collide with the old page's.
	seen := map[string]bool{}
	for r := range c.Refs {
		seen[r] = true
	}
	if _, err := p.Navigate(ctx, testServer.URL+"/form"); err != nil {
		t.Fatal(err)
	}
	d := snapshot(t, p, SnapshotOptions{})
	for r := range d.Refs {
		if seen[r] {
			t.Errorf("ref %s reused after navigation", r)
		}
	}
	err = p.Click(ctx, btn, ClickOptions{})
	wantKind(t, err, KindRefStale, "page that is gone")
	if e, _ := AsError(err); e.Step != StepSnapshot {
		t.Errorf("a stale ref's next step is %q, want %q", e.Step, StepSnapshot)
	}
	err = p.Click(ctx, "e9999", ClickOptions{})
	wantKind(t, err, KindRefNotFound, "e9999")
}

func TestTypeAndClick(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/form")
	ctx := context.Background()
	s := snapshot(t, p, SnapshotOptions{})
	name := refFor(t, s, "textbox", "Name")
	// Slowly, keys are pressed one by one at the caret; typing then
	// replaces what was there.
	if err := p.Type(ctx, name, "Ad", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if err := p.Type(ctx, name, "a", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if err := p.Type(ctx, name, "Grace", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Type(ctx, name, "Ada", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Click(ctx, "button[type=submit]", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Evaluate(ctx, `() => [document.getElementById('n').value, keys, document.getElementById('out').textContent]`, "")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `["Ada",3,"Welcome, Ada!"]` {
		t.Errorf("after typing slowly and clicking: %s, want [\"Ada\",3,\"Welcome, Ada!\"]", got)
	}
	// submit presses Enter, which submits the form.
	if err := p.Type(ctx, name, "Lin", TypeOptions{Submit: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = p.Evaluate(ctx, `() => document.getElementById('out').textContent`, "")
	if string(got) != `"Welcome, Lin!"` {
		t.Errorf("after submit: %s", got)
	}
	// Clearing with an empty text.
	if err := p.Type(ctx, name, "", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ = p.Evaluate(ctx, `(el) => el.value`, name)
	if string(got) != `""` {
		t.Errorf("after clearing: %s", got)
	}
}

func TestClick_Actionability(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/overlay")
	start := time.Now()
	err := p.Click(ctx, "#b", ClickOptions{})
	wantKind(t, err, KindNotActionable, "covered by div#overlay")
	if waited := time.Since(start); waited < 3*time.Second {
		t.Errorf("gave up after %s, before the action timeout", waited)
	}
	// What covers it has no name of its own (a paragraph): the answer
	// names the part of the page it belongs to, which the agent can find
	// in a snapshot (a cookie banner's dialog).
	err = openPage(t, "/consent").Click(ctx, "#b", ClickOptions{})
	wantKind(t, err, KindNotActionable, `covered by paragraph in dialog "Cookie consent"`)
	// An element that appears later is clicked once it is visible.
	late := openPage(t, "/late")
	if err := late.Click(ctx, "#b", ClickOptions{}); err != nil {
		t.Fatalf("click on a late element: %v", err)
	}
	got, _ := late.Evaluate(ctx, `() => document.getElementById('b').textContent`, "")
	if string(got) != `"clicked"` {
		t.Errorf("late button text = %s", got)
	}
	// A button far down the page is scrolled to and clicked.
	tall := openPage(t, "/tall")
	if err := tall.Click(ctx, "#low", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	links := openPage(t, "/links")
	wantKind(t, links.Click(ctx, "button", ClickOptions{}), KindNotUnique, `button "One"`)
	wantKind(t, links.Click(ctx, "#nope", ClickOptions{}), KindElementNotFound, "#nope")
	wantKind(t, links.Click(ctx, "button[", ClickOptions{}), KindInvalidInput, "button[")
	wantKind(t, links.Click(ctx, "a", ClickOptions{Button: "fourth"}), KindInvalidInput, "fourth")
}

// TestActionPoint_NextFrameAnimation: an element whose transition starts in
// a callback already queued for the next animation frame is not stable yet.
// The callback is queued in the same evaluation that asks for the point, so
// no timing decides the outcome: the check must look past that frame.
func TestActionPoint_NextFrameAnimation(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/slide")
	var got struct {
		Error string `json:"error"`
	}
	err := p.evalEngine(context.Background(), `(() => {
		const el = document.getElementById('s');
		requestAnimationFrame(() => el.classList.add('in'));
		return __e2e.actionPoint(el, false);
	})()`, &got)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Error, "not stable") {
		t.Errorf("actionPoint = %+v, want 'not stable' while the transition queued for the next frame runs", got)
	}
	// Once it rests, the point is given.
	var rest struct {
		Error string  `json:"error"`
		X     float64 `json:"x"`
	}
	if err := p.evalEngine(context.Background(), `new Promise((done) =>
		document.getElementById('s').addEventListener('transitionend', () => done(__e2e.actionPoint(document.getElementById('s'), false))))`, &rest); err != nil {
		t.Fatal(err)
	}
	if rest.Error != "" || rest.X < 400 {
		t.Errorf("actionPoint at rest = %+v, want a point at x >= 400", rest)
	}
}

func TestClick_WaitsForNavigation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/links")
	if err := p.Click(ctx, "a", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	// The click returned after the new page loaded: its snapshot is there.
	s := snapshot(t, p, SnapshotOptions{})
	if !strings.HasSuffix(s.Info.URL, "/form") || !strings.Contains(s.YAML, "Create your account") {
		t.Errorf("after clicking the link: %+v\n%s", s.Info, s.YAML)
	}
}

// TestClick_NavigationsThatDoNotLoad: a fragment link, pushState and a link
// answered 204 start navigations that fire no load event; the click must
// return at once, not wait for the navigation timeout.
func TestClick_NavigationsThatDoNotLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// With a short navigation timeout, waiting for a load that never comes
	// shows up as a timeout error.
	m := NewManager(Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ProfileRoot: t.TempDir(), NavigationTimeout: 3 * time.Second})
	defer m.Close()
	p, err := m.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Navigate(ctx, testServer.URL+"/nav-edge"); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"#frag", "#push", "#nc"} {
		if err := p.Click(ctx, target, ClickOptions{}); err != nil {
			t.Errorf("click %s: %v", target, err)
		}
	}
	got, _ := p.Evaluate(ctx, "() => location.pathname + location.search", "")
	if string(got) != `"/nav-edge?pushed=1"` {
		t.Errorf("location after the clicks = %s", got)
	}
}

// TestNavigate_NoNewDocument: browser_navigate to a fragment of the page
// (no new document) or to a URL answered 204 (no document) waits for no
// DOMContentLoaded that will never come.
func TestNavigate_NoNewDocument(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := NewManager(Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ProfileRoot: t.TempDir(), NavigationTimeout: 3 * time.Second})
	defer m.Close()
	p, err := m.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/nav-edge", "/nav-edge#sec"} {
		if _, err := p.Navigate(ctx, testServer.URL+path); err != nil {
			t.Errorf("navigate to %s: %v", path, err)
		}
	}
	// Chrome aborts a navigation to a 204 (as Playwright reports it).
	if _, err := p.Navigate(ctx, testServer.URL+"/204"); err == nil || !strings.Contains(err.Error(), "ERR_ABORTED") {
		t.Errorf("navigate to a 204: %v, want net::ERR_ABORTED", err)
	}
}

// TestIsolatedWorld: the engine is invisible to the page and immune to
// what page scripts do to the DOM's prototypes.
func TestIsolatedWorld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/hostile")
	got, err := p.Evaluate(ctx, `() => typeof window.__e2e`, "")
	if err != nil || string(got) != `"undefined"` {
		t.Errorf("page sees the engine: %s %v", got, err)
	}
	s := snapshot(t, p, SnapshotOptions{})
	if err := p.Click(ctx, refFor(t, s, "button", "Press"), ClickOptions{}); err != nil {
		t.Fatalf("click on a page that broke its own prototypes: %v", err)
	}
	shadow := openPage(t, "/shadow")
	if err := shadow.Click(ctx, "#in", ClickOptions{}); err != nil {
		t.Errorf("css selector into an open shadow root: %v", err)
	}
	wantLines(t, snapshot(t, shadow, SnapshotOptions{}).YAML, `- button "Inside" [active] [ref=`)
}

func TestEvaluate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/form")
	cases := map[string]string{
		`() => 1 + 1`:    `2`,
		`document.title`: `"Sign up"`,
		`async () => { await null; return {a: [1]} }`: `{"a":[1]}`,
		`() => undefined`: `null`,
		`() => 1/0`:       `"Infinity"`,
	}
	for fn, want := range cases {
		got, err := p.Evaluate(ctx, fn, "")
		if err != nil || string(got) != want {
			t.Errorf("Evaluate(%q) = %s, %v; want %s", fn, got, err, want)
		}
	}
	_, err := p.Evaluate(ctx, `() => { throw new TypeError('nope') }`, "")
	wantKind(t, err, KindScriptError, "TypeError: nope")
	_, err = p.Evaluate(ctx, `() => {`, "")
	wantKind(t, err, KindScriptError, "SyntaxError")
	got, err := p.Evaluate(ctx, `(el) => el.tagName`, "select")
	if err != nil || string(got) != `"SELECT"` {
		t.Errorf("Evaluate with target = %s, %v", got, err)
	}
}

func TestScreenshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/tall")
	size := func(o measure.ScreenshotOptions) (int, int) {
		t.Helper()
		b, err := p.Screenshot(ctx, o)
		if err != nil {
			t.Fatalf("Screenshot(%+v): %v", o, err)
		}
		c, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("Screenshot(%+v) is not a PNG: %v", o, err)
		}
		return c.Width, c.Height
	}
	_, vh := size(measure.ScreenshotOptions{})
	if _, fh := size(measure.ScreenshotOptions{FullPage: true}); fh <= 3000 || fh <= vh {
		t.Errorf("full page height %d, viewport %d: want > 3000", fh, vh)
	}
	if w, h := size(measure.ScreenshotOptions{Target: "#top"}); w != 200 || h != 3000 {
		t.Errorf("element screenshot %dx%d, want 200x3000", w, h)
	}
	b, err := p.Screenshot(ctx, measure.ScreenshotOptions{Format: "jpeg"})
	if err != nil || len(b) < 3 || b[0] != 0xFF || b[1] != 0xD8 {
		t.Errorf("jpeg screenshot: %v, starts % x", err, b[:min(3, len(b))])
	}
}

// TestPageEvents: console errors are collected for the next response; a
// dialog blocks the page until it is answered, and calls say so at once.
func TestPageEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/form")
	if _, err := p.Evaluate(ctx, `() => { console.error('bad thing', 42); setTimeout(() => { throw new Error('uncaught!') }); return 1 }`, ""); err != nil {
		t.Fatal(err)
	}
	// The uncaught error is thrown from a task; a snapshot after it is a
	// round trip that the event precedes once the task has run.
	if _, err := p.Evaluate(ctx, `() => new Promise(r => setTimeout(r))`, ""); err != nil {
		t.Fatal(err)
	}
	console, _ := p.TakeEvents()
	text, _ := json.Marshal(console)
	if !strings.Contains(string(text), "bad thing 42") || !strings.Contains(string(text), "uncaught!") {
		t.Errorf("console = %s", text)
	}
	if c, _ := p.TakeEvents(); len(c) != 0 {
		t.Errorf("TakeEvents did not forget: %v", c)
	}

	_, err := p.Evaluate(ctx, `() => { window.answer = prompt('hello?', 'x'); return 1 }`, "")
	if e, ok := AsError(err); !ok || e.Kind != KindDialogOpen || !strings.Contains(e.Message, "hello?") {
		t.Fatalf("evaluate that opens a prompt: %v", err)
	}
	if d := p.Dialog(); d == nil || d.Type != "prompt" || d.DefaultPrompt != "x" {
		t.Fatalf("Dialog() = %+v", d)
	}
	if _, err := p.Snapshot(ctx, SnapshotOptions{}); err == nil {
		t.Fatal("snapshot while a dialog is open: no error")
	} else if e, ok := AsError(err); !ok || e.Kind != KindDialogOpen {
		t.Fatalf("snapshot while a dialog is open: %v", err)
	}
	if _, err := p.HandleDialog(ctx, true, "yes"); err != nil {
		t.Fatal(err)
	}
	out, err := p.Evaluate(ctx, `() => window.answer`, "")
	if err != nil || string(out) != `"yes"` {
		t.Fatalf("answer = %s, %v", out, err)
	}
}

// TestManager_CloseLeavesNothing: Close ends every Chrome process and
// removes the profile.
func TestManager_CloseLeavesNothing(t *testing.T) {
	t.Parallel()
	m := NewManager(Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ProfileRoot: t.TempDir()})
	ctx := context.Background()
	if _, err := m.NewPage(ctx); err != nil {
		t.Fatal(err)
	}
	dir := m.ProfileDir()
	if len(launcher.ProfileProcesses(dir)) == 0 {
		t.Fatal("no Chrome process uses the profile: the check below would prove nothing")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if left := launcher.ProfileProcesses(dir); len(left) != 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("profile %s left after Close", dir)
	}
	if _, err := m.NewPage(ctx); err != ErrClosed {
		t.Errorf("NewPage after Close = %v, want ErrClosed", err)
	}
}

// TestManager_RelaunchAfterCrash: when Chrome dies, pages report it and the
// next page gets a new browser.
func TestManager_RelaunchAfterCrash(t *testing.T) {
	t.Parallel()
	m := NewManager(Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ProfileRoot: t.TempDir()})
	defer m.Close()
	ctx := context.Background()
	p, err := m.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	old := m.PID()
	proc, _ := os.FindProcess(old)
	_ = proc.Kill()
	deadline, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	<-p.ctx.Done() // the tab's context ends when the browser connection is lost
	if deadline.Err() != nil {
		t.Fatal("the page did not notice the browser's death")
	}
	_, err = p.Snapshot(ctx, SnapshotOptions{})
	wantKind(t, err, KindBrowserCrashed, "")
	p2, err := m.NewPage(ctx)
	if err != nil {
		t.Fatalf("NewPage after a crash: %v", err)
	}
	if m.PID() == old || m.PID() == 0 {
		t.Errorf("no new browser: pid %d, old %d", m.PID(), old)
	}
	if _, err := p2.Navigate(ctx, testServer.URL+"/form"); err != nil {
		t.Errorf("the new browser does not work: %v", err)
	}
}

// TestHeadlessHasAMouse: a headless page's media queries say it has a fine
// pointer that hovers, as a desktop browser's and Playwright's headless
// Chromium's do; without it apps that ask (MUI's date pickers) render their
// touch layout to the agent and not to the tests it writes. The grid's
// browsers get the same switches (TestChromeFlagsEverywhere).
func TestHeadlessHasAMouse(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/form")
	got, err := p.Evaluate(context.Background(), `() => ['(pointer: fine)', '(any-pointer: fine)', '(hover: hover)', '(any-hover: hover)'].filter(q => !matchMedia(q).matches)`, "")
	if err != nil || string(got) != `[]` {
		t.Errorf("media queries a headless page does not match: %s, %v", got, err)
	}
}
