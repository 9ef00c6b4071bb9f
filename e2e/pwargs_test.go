package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Playwright MCP's behaviours and tool arguments on the real binary
// (issue 39 §2): what its users expect of the same calls.

// pwPage serves one HTML page at path.
func pwPage(path, html string) func(*http.ServeMux, *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, html)
		})
	}
}

// TestFileChooserModal: a file input has a name in the snapshot, and a file
// chooser the page opened holds the other page tools back until
// browser_file_upload answers it, with files or, without paths, cancelled.
func TestFileChooserModal(t *testing.T) {
	f := newFixture(t, pwPage("/chooser.html", `<!doctype html><title>Chooser</title>
<label>Avatar <input type="file" id="avatar"></label>
<input type="file" id="bare">
<button id="pick">Pick a file</button>
<p id="log">nothing yet</p>
<script>
  const log = document.getElementById('log');
  for (const el of document.querySelectorAll('input[type=file]')) {
    el.addEventListener('change', () => log.textContent = 'chose ' + [...el.files].map(f => f.name).join(','));
    el.addEventListener('cancel', () => log.textContent = 'cancelled ' + el.id);
  }
  document.getElementById('pick').addEventListener('click', () => document.getElementById('bare').click());
</script>`))
	dir := t.TempDir()
	photo := filepath.Join(dir, "photo.png")
	if err := os.WriteFile(photo, []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/chooser.html"})
	// Named by its label, else as Chromium shows it: "Choose File".
	for _, want := range []string{`button "Avatar"`, `button "Choose File"`} {
		if !strings.Contains(snap, want) {
			t.Errorf("snapshot lacks %s:\n%s", want, snap)
		}
	}
	pick := refOf(t, snap, "button", "Pick a file")

	out := mustCall(t, c, "browser_click", map[string]any{"target": pick})
	if !strings.Contains(out, "File chooser open") {
		t.Fatalf("the click does not say a file chooser opened:\n%s", out)
	}
	// Held back while the chooser waits: the page is not read or acted on.
	wantError(t, call(t, c, "browser_snapshot", nil), "file_chooser_open", "browser_file_upload")
	wantError(t, call(t, c, "browser_click", map[string]any{"target": pick}), "file_chooser_open", "browser_file_upload")

	// Without paths the chooser is cancelled: the input hears cancel.
	out = mustCall(t, c, "browser_file_upload", map[string]any{})
	if !strings.Contains(out, "Cancelled the file chooser") {
		t.Errorf("cancel answer:\n%s", out)
	}
	if got := evalJS(t, c, "() => document.getElementById('log').textContent"); got != "cancelled bare" {
		t.Errorf("after the cancel the page says %q, want %q", got, "cancelled bare")
	}
	wantError(t, call(t, c, "browser_file_upload", map[string]any{}), "invalid_input", "no file chooser")

	// Opened again and answered with a file: the tools work again.
	mustCall(t, c, "browser_click", map[string]any{"target": pick})
	wantError(t, call(t, c, "browser_evaluate", map[string]any{"function": "() => 1"}), "file_chooser_open")
	mustCall(t, c, "browser_file_upload", map[string]any{"paths": []string{photo}})
	if got := evalJS(t, c, "() => document.getElementById('log').textContent"); got != "chose photo.png" {
		t.Errorf("after the upload the page says %q, want %q", got, "chose photo.png")
	}
	mustCall(t, c, "browser_snapshot", nil)
}

// TestFindPathAndFlags: browser_find shows each match under its path from
// the root of the snapshot, and reads "/pattern/flags" as Playwright MCP
// does.
func TestFindPathAndFlags(t *testing.T) {
	f := newFixture(t, pwPage("/fruit.html", `<!doctype html><title>Fruit</title>
<main><nav aria-label="Fruit menu"><ul>
<li>Green apples <button>Buy green</button></li>
<li>Pears <button>Buy pears</button></li>
<li>Red APPLES <button>Buy red</button></li>
</ul></nav></main>`))
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/fruit.html"})

	out := mustCall(t, c, "browser_find", map[string]any{"regex": "/apples/i"})
	t.Logf("find:\n%s", out)
	mustContain(t, "find /apples/i", out, "2 of the page's lines match /apples/i")
	// The path once, each match under it, indented as in the snapshot.
	tree := regexp.MustCompile(`(?m)^- main:\n  - navigation "Fruit menu":\n    - list:\n      - listitem:\n        - text: Green apples\n      - listitem:\n        - text: Red APPLES$`)
	if !tree.MatchString(out) {
		t.Errorf("the matches are not shown under their path from the root:\n%s", out)
	}
	if strings.Contains(out, "Pears") {
		t.Errorf("a line that does not match is shown:\n%s", out)
	}
	// Without the flag the case counts.
	out = mustCall(t, c, "browser_find", map[string]any{"regex": "/APPLES/"})
	mustContain(t, "find /APPLES/", out, "1 of the page's lines match")
	wantError(t, call(t, c, "browser_find", map[string]any{"regex": "/apples/y"}), "invalid_input", "flag")
}

// TestNavigateChromeURL: browser_navigate opens Chromium's own pages, as
// Playwright MCP does; schemes Chromium does not navigate a tab to stay
// refused.
func TestNavigateChromeURL(t *testing.T) {
	env, _ := serverEnv(t)
	c := startClient(t, env)
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": "chrome://version"})
	mustContain(t, "chrome://version", out, "chrome://version")
	if got := evalJS(t, c, "() => location.href"); got != "chrome://version/" {
		t.Errorf("the tab is at %q, want chrome://version/", got)
	}
	wantError(t, call(t, c, "browser_navigate", map[string]any{"url": "javascript:alert(1)"}), "invalid_input", "scheme")
}

// TestCookieListValuesWhole: browser_cookie_list shows each value whole, as
// Playwright MCP does, says when one is long, and bounds the answer by
// counting the cookies past its size, never by cutting a value.
func TestCookieListValuesWhole(t *testing.T) {
	f := newFixture(t, pwPage("/cookies.html", `<!doctype html><title>Cookies</title><p>cookies</p>`))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=storage"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/cookies.html"})
	long := strings.Repeat("abcdefghij", 300) // 3000 chars
	evalJS(t, c, `() => { document.cookie = "token=0123456789abcdef; path=/"; document.cookie = "big=`+long+`; path=/"; return document.cookie.length }`)
	out := mustCall(t, c, "browser_cookie_list", nil)
	mustContain(t, "cookie_list", out, "2 cookie(s):", "- token=0123456789abcdef;", "- big="+long+" (3000 chars);")

	// Many long cookies: the list stops at its size and says how many it
	// left out.
	evalJS(t, c, `() => { for (let i = 0; i < 20; i++) document.cookie = "k" + i + "=`+long+`; path=/"; return 1 }`)
	// The page's writes reach the browser's cookie store after the
	// script returns: wait until all of them have.
	waitFor(t, 10*time.Second, "the 22 cookies in the store", func() bool {
		out = mustCall(t, c, "browser_cookie_list", nil)
		return strings.Contains(out, "22 cookie(s):")
	})
	mustContain(t, "cookie_list of 22", out, "22 cookie(s):", "more cookie(s) not shown")
	if strings.Contains(out, long[:2999]+"…") || strings.Count(out, long) < 10 {
		t.Errorf("values are cut, or too few shown whole (%d):\n%.500s", strings.Count(out, long), out)
	}
}

// TestSnapshotDepthAndBoxes: browser_snapshot's depth counts as Playwright
// MCP's (depth 1: the top lines and their children), and boxes puts each
// element's box on its line for that snapshot only.
func TestSnapshotDepthAndBoxes(t *testing.T) {
	f := newFixture(t, pwPage("/depth.html", `<!doctype html><title>Depth</title>
<ul><li>text</li><li><button>Deep</button></li></ul>
<button style="position:absolute;left:100px;top:50px;width:80px;height:40px;margin:0;padding:0;border:0">Boxed</button>`))
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/depth.html"})

	one := mustCall(t, c, "browser_snapshot", map[string]any{"depth": 1})
	mustContain(t, "depth 1", one, "- list:\n  - listitem: text\n  - listitem")
	if strings.Contains(one, `"Deep"`) {
		t.Errorf("depth 1 shows a grandchild:\n%s", one)
	}
	mustContain(t, "depth 2", mustCall(t, c, "browser_snapshot", map[string]any{"depth": 2}), `    - button "Deep"`)

	boxed := mustCall(t, c, "browser_snapshot", map[string]any{"boxes": true})
	if !regexp.MustCompile(`button "Boxed" \[ref=e\d+\] \[box=100,50,80,40\]`).MatchString(boxed) {
		t.Errorf("no box on the button:\n%s", boxed)
	}
	if plain := mustCall(t, c, "browser_snapshot", nil); strings.Contains(plain, "[box=") {
		t.Errorf("a snapshot without boxes has them:\n%s", plain)
	}
}

// pngDims reads "WxH PNG" from a screenshot's answer.
func pngDims(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(\d+x\d+) PNG`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no PNG size in:\n%s", out)
	}
	return m[1]
}

// TestPlaywrightToolArgs: the arguments Playwright MCP's tools take, with
// their meaning: browser_take_screenshot filename, element, scale and type
// webp; browser_evaluate element; browser_network_requests static;
// browser_network_request index and part; browser_pdf_save filename;
// browser_mouse_click_xy delay.
func TestPlaywrightToolArgs(t *testing.T) {
	f := newFixture(t, pwPage("/args.html", `<!doctype html><title>Args</title>
<meta name="viewport" content="width=device-width">
<button id="b" style="width:120px;height:30px">Press</button>
<p id="log">nothing yet</p>
<script src="/app.js"></script>
<script>
  let down = 0;
  const b = document.getElementById('b');
  b.addEventListener('mousedown', () => down = performance.now());
  b.addEventListener('mouseup', () => document.getElementById('log').textContent = 'held ' + Math.round(performance.now() - down));
  fetch('/api/data', {method: 'POST', body: 'q=1'});
</script>`), func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, "window.app = 1;")
		})
		mux.HandleFunc("POST /api/data", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("X-Answer", "42")
			fmt.Fprint(w, `{"ok":true}`)
		})
	})
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c, _ := startClientArgsLog(t, append(env, "E2E_MCP_CAPS=vision,pdf", "E2E_MCP_FILE_ROOTS="+dir), "--device", "iPhone 15")
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/args.html"})
	ref := refOf(t, snap, "button", "Press")

	// Screenshots: CSS pixels by default (a phone's 3 device pixels a CSS
	// pixel otherwise), an element named in words, a file in webp.
	css := pngDims(t, mustCall(t, c, "browser_take_screenshot", nil))
	device := pngDims(t, mustCall(t, c, "browser_take_screenshot", map[string]any{"scale": "device"}))
	if css != "393x659" || device != "1179x1977" {
		t.Errorf("scale css gives %s (want 393x659), device %s (want 1179x1977)", css, device)
	}
	out := mustCall(t, c, "browser_take_screenshot", map[string]any{"target": ref, "element": "the Press button", "filename": filepath.Join(dir, "press.webp")})
	mustContain(t, "element screenshot", out, "the Press button", "image/webp", "Saved to "+filepath.Join(dir, "press.webp"))
	b, err := os.ReadFile(filepath.Join(dir, "press.webp"))
	if err != nil || len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		t.Errorf("press.webp is not a WebP file (%v, %d bytes)", err, len(b))
	}
	res := call(t, c, "browser_take_screenshot", map[string]any{"filename": filepath.Join(dir, "page.jpg")})
	for _, ct := range res.Content {
		if _, ok := ct.(mcp.ImageContent); ok {
			t.Errorf("a screenshot saved to a file is sent as an image too")
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "page.jpg")); err != nil || len(b) < 3 || b[0] != 0xff || b[1] != 0xd8 {
		t.Errorf("page.jpg is not a JPEG (type from the extension): %v", err)
	}

	// browser_evaluate takes element beside target.
	if got := evalResult(t, mustCall(t, c, "browser_evaluate", map[string]any{"function": "(el) => el.textContent", "target": ref, "element": "the Press button"})); got != "Press" {
		t.Errorf("evaluate with element gives %q", got)
	}

	// static false leaves out loaded scripts and the document, keeps fetches.
	out = mustCall(t, c, "browser_network_requests", map[string]any{"static": false})
	mustContain(t, "static false", out, "/api/data", "static request(s) not shown")
	if strings.Contains(out, "/app.js") {
		t.Errorf("static false lists the script:\n%s", out)
	}
	mustContain(t, "static true", mustCall(t, c, "browser_network_requests", map[string]any{"static": true}), "/app.js", "/api/data")
	n := regexp.MustCompile(`\[(\d+)\] POST [^\n]*/api/data`).FindStringSubmatch(out)
	if n == nil {
		t.Fatalf("no [n] for /api/data:\n%s", out)
	}
	var index int
	fmt.Sscan(n[1], &index)
	out = mustCall(t, c, "browser_network_request", map[string]any{"index": index, "part": "response-headers"})
	mustContain(t, "part response-headers", out, "Response headers:", "X-Answer: 42")
	if strings.Contains(out, "Request headers") || strings.Contains(out, `{"ok":true}`) {
		t.Errorf("part response-headers shows other parts:\n%s", out)
	}
	out = mustCall(t, c, "browser_network_request", map[string]any{"index": index, "part": "request-body"})
	mustContain(t, "part request-body", out, "q=1")
	if strings.Contains(out, "headers") {
		t.Errorf("part request-body shows headers:\n%s", out)
	}

	// browser_pdf_save filename, as path.
	out = mustCall(t, c, "browser_pdf_save", map[string]any{"filename": filepath.Join(dir, "page.pdf")})
	if b, err := os.ReadFile(filepath.Join(dir, "page.pdf")); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("page.pdf is not a PDF (%v):\n%s", err, out)
	}

	// browser_mouse_click_xy delay holds the button that long.
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 20, "y": 15, "delay": 400})
	held := evalJS(t, c, "() => document.getElementById('log').textContent")
	var ms int
	if _, err := fmt.Sscanf(held, "held %d", &ms); err != nil || ms < 400 {
		t.Errorf("the click held the button %q, want at least 400 ms", held)
	}
}

// TestWheelAtMouseAndContrast: browser_mouse_wheel without a point turns
// where the mouse is, as Playwright MCP's (which takes no point), and
// browser_emulate_media sets prefers-contrast.
func TestWheelAtMouseAndContrast(t *testing.T) {
	f := newFixture(t, pwPage("/tall.html", `<!doctype html><title>Tall</title>
<div id="box" style="height:200px;overflow:auto"><div style="height:3000px">inner</div></div>
<div style="height:3000px">page</div>`))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=vision,emulation"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tall.html"})
	mustCall(t, c, "browser_mouse_move_xy", map[string]any{"x": 50, "y": 50})
	mustContain(t, "wheel", mustCall(t, c, "browser_mouse_wheel", map[string]any{"deltaY": 300}), "at (50, 50)")
	// The wheel over the inner box scrolls it, not the page.
	got := evalJS(t, c, `() => new Promise((done) => {
		const end = Date.now() + 5000;
		const check = () => {
			const s = document.getElementById('box').scrollTop;
			if (s > 0 || Date.now() > end) done(s + ',' + scrollY); else setTimeout(check, 20);
		};
		check();
	})`)
	if got != "300,0" {
		t.Errorf("box scrollTop, page scrollY = %s, want 300,0", got)
	}
	wantError(t, call(t, c, "browser_mouse_wheel", map[string]any{"x": 10, "deltaY": 100}), "invalid_input", "both x and y")

	mustContain(t, "contrast", mustCall(t, c, "browser_emulate_media", map[string]any{"contrast": "more"}), "prefers-contrast: more")
	if got := evalJS(t, c, "() => String(matchMedia('(prefers-contrast: more)').matches)"); got != "true" {
		t.Errorf("prefers-contrast: more matches %s", got)
	}
}
