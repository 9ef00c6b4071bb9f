package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The input tools, each judged by the page's reaction: the fixture pages
// under testdata/input record what their event handlers saw (and whether
// the events were trusted) in a status line.

// statusAfter waits (in the page, without sleeping here) until the status
// line of the page no longer says "nothing yet", and returns it.
func statusAfter(t *testing.T, c *client.Client) string {
	t.Helper()
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => new Promise((done) => {
		const check = () => {
			const s = document.getElementById('log').textContent;
			if (s !== 'nothing yet') done(s); else setTimeout(check, 20);
		};
		check();
	})`})
	return evalResult(t, out)
}

// evalJS runs a function in the page and returns its JSON result decoded
// into a string (or the raw JSON when it is not a string).
func evalJS(t *testing.T, c *client.Client, fn string) string {
	t.Helper()
	return evalResult(t, mustCall(t, c, "browser_evaluate", map[string]any{"function": fn}))
}

// evalResult takes the JSON value out of a browser_evaluate answer.
func evalResult(t *testing.T, out string) string {
	t.Helper()
	body := strings.TrimSpace(strings.TrimPrefix(out, "### Result\n"))
	if i := strings.Index(body, "\n### "); i >= 0 {
		body = body[:i]
	}
	body = strings.Trim(strings.TrimSpace(body), "`")
	body = strings.TrimPrefix(body, "json\n")
	var s string
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &s) == nil {
		return s
	}
	return strings.TrimSpace(body)
}

// wantError checks that res is an isError result of the given type whose
// text holds every one of want.
func wantError(t *testing.T, res *mcp.CallToolResult, typ string, want ...string) {
	t.Helper()
	out := text(res)
	if !res.IsError {
		t.Fatalf("want a %s error, got success:\n%s", typ, out)
	}
	if !strings.Contains(out, typ+":") {
		t.Errorf("want error type %s:\n%s", typ, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("error lacks %q:\n%s", w, out)
		}
	}
}

func TestInputHover(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/hover.html"})
	if strings.Contains(snap, "Ships in 2 days") {
		t.Fatalf("the tooltip shows before the hover:\n%s", snap)
	}
	// The button is disabled: hovering it works all the same.
	out := mustCall(t, c, "browser_hover", map[string]any{"target": refOf(t, snap, "button", "Shipping info")})
	if !strings.Contains(out, "Ships in 2 days") {
		t.Errorf("the hover response does not show the :hover tooltip:\n%s", out)
	}
	if got := statusAfter(t, c); got != "mouseover trusted=true" {
		t.Errorf("page saw %q, want a trusted mouseover", got)
	}
}

func TestInputDrag(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	t.Run("html5", func(t *testing.T) {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/dnd.html"})
		out := mustCall(t, c, "browser_drag", map[string]any{"startTarget": "text=Write tests", "endTarget": "#done"})
		if !strings.Contains(out, "HTML5 drag and drop") {
			t.Errorf("drag response does not say it was an HTML5 drag:\n%s", out)
		}
		if got := statusAfter(t, c); got != "dropped t1 trusted=true" {
			t.Errorf("page saw %q, want a trusted drop of t1", got)
		}
		if got := evalJS(t, c, "() => document.getElementById('done').innerText.trim()"); got != "Write tests" {
			t.Errorf("the Done list holds %q, want the dragged item", got)
		}
	})

	t.Run("pointer", func(t *testing.T) {
		snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/pointer-drag.html"})
		out := mustCall(t, c, "browser_drag", map[string]any{"startTarget": refOf(t, snap, "button", "Card"), "endTarget": "#bin"})
		if !strings.Contains(out, "pointer drag") {
			t.Errorf("drag response does not say it was a pointer drag:\n%s", out)
		}
		if got := statusAfter(t, c); got != "card in the bin, moved in steps, trusted=true" {
			t.Errorf("page saw %q, want the card dropped in the bin by trusted pointer events in steps", got)
		}
	})
}

func TestInputPressKey(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/keys.html"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "textbox", "Second")})

	mustCall(t, c, "browser_press_key", map[string]any{"key": "Control+A"})
	if got := statusAfter(t, c); got != "keydown a ctrl trusted=true" {
		t.Errorf("after Control+A the page saw %q", got)
	}
	mustCall(t, c, "browser_press_key", map[string]any{"key": "Backspace"})
	if got := evalJS(t, c, "() => document.getElementById('second').value"); got != "" {
		t.Errorf("Control+A then Backspace left %q in the field, want it empty", got)
	}

	mustCall(t, c, "browser_press_key", map[string]any{"key": "Shift+Tab"})
	if got := evalJS(t, c, "() => document.activeElement.id"); got != "first" {
		t.Errorf("after Shift+Tab the focus is on %q, want the field before (first)", got)
	}
	mustCall(t, c, "browser_press_key", map[string]any{"key": "End"})
	mustCall(t, c, "browser_press_key", map[string]any{"key": "!"})
	if got := evalJS(t, c, "() => document.getElementById('first').value"); got != "one!" {
		t.Errorf("End then ! made %q, want one!", got)
	}
	out := mustCall(t, c, "browser_press_key", map[string]any{"key": "Enter"})
	if !strings.Contains(out, "submitted") {
		t.Errorf("Enter in a form field did not submit it:\n%s", out)
	}

	res := call(t, c, "browser_press_key", map[string]any{"key": "Control+Blah"})
	wantError(t, res, "invalid_input", "Blah", "Shift+Tab", "Enter")
}

func TestInputSelectOption(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_ACTION_TIMEOUT=1s"))
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/select.html"})

	out := mustCall(t, c, "browser_select_option", map[string]any{"target": refOf(t, snap, "combobox", "Color"), "values": []string{"Green"}})
	if !strings.Contains(out, `Selected "Green"`) {
		t.Errorf("select response:\n%s", out)
	}
	if got := statusAfter(t, c); got != "color: g" {
		t.Errorf("page saw %q, want color: g", got)
	}
	// By value and by label at once; the option selected before is let go.
	mustCall(t, c, "browser_select_option", map[string]any{"target": "#toppings", "values": []string{"ch", "Olives"}})
	if got := statusAfter(t, c); got != "toppings: ch,ol" {
		t.Errorf("page saw %q, want toppings: ch,ol", got)
	}

	res := call(t, c, "browser_select_option", map[string]any{"target": "#color", "values": []string{"Purple"}})
	wantError(t, res, "not_actionable", `no option matches "Purple"`, `"Red" ("r")`, `"Blue" ("b")`)
	res = call(t, c, "browser_select_option", map[string]any{"target": "#color", "values": []string{"r", "b"}})
	wantError(t, res, "not_actionable", "takes one value")
	res = call(t, c, "browser_select_option", map[string]any{"target": "#log", "values": []string{"r"}})
	wantError(t, res, "not_actionable", "not a <select>")
}

func TestInputCheck(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/check.html"})
	checked := func(id string) string {
		return evalJS(t, c, fmt.Sprintf("() => String(document.getElementById(%q).checked)", id))
	}

	news := refOf(t, snap, "checkbox", "Newsletter")
	out := mustCall(t, c, "browser_check", map[string]any{"target": news})
	if !strings.Contains(out, "Checked "+news) || checked("news") != "true" {
		t.Errorf("check did not check the box:\n%s", out)
	}
	if got := statusAfter(t, c); got != "news true trusted=true" {
		t.Errorf("page saw %q, want a trusted change to checked", got)
	}
	// Already checked: nothing happens.
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { document.getElementById('log').textContent = 'nothing yet' }"})
	if out := mustCall(t, c, "browser_check", map[string]any{"target": news}); !strings.Contains(out, "already") {
		t.Errorf("check of a checked box:\n%s", out)
	}
	if got := evalJS(t, c, "() => document.getElementById('log').textContent"); got != "nothing yet" || checked("news") != "true" {
		t.Errorf("check of a checked box clicked it: status %q", got)
	}

	mustCall(t, c, "browser_uncheck", map[string]any{"target": refOf(t, snap, "checkbox", "Terms")})
	if checked("terms") != "false" {
		t.Errorf("uncheck left Terms checked")
	}
	mustCall(t, c, "browser_check", map[string]any{"target": "role=radio[name=Pro]"})
	if got := evalJS(t, c, "() => document.querySelector('input[name=plan]:checked').value"); got != "pro" {
		t.Errorf("the plan is %q after checking Pro", got)
	}
	mustCall(t, c, "browser_check", map[string]any{"target": "role=switch[name=\"Dark mode\"]"})
	if got := statusAfter(t, c); got != "dark true trusted=true" {
		t.Errorf("page saw %q after checking the switch", got)
	}

	wantError(t, call(t, c, "browser_uncheck", map[string]any{"target": "role=radio[name=Pro]"}), "invalid_input", "radio")
	wantError(t, call(t, c, "browser_check", map[string]any{"target": "#locked"}), "not_actionable", "did not check")
	wantError(t, call(t, c, "browser_check", map[string]any{"target": "#log"}), "not_actionable", "not a checkbox")
}

func TestInputFillForm(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/form.html"})
	out := mustCall(t, c, "browser_fill_form", map[string]any{"fields": []map[string]any{
		{"target": refOf(t, snap, "textbox", "Name"), "name": "Name", "type": "textbox", "value": "Ada Lovelace"},
		{"target": "textarea", "type": "textbox", "value": "Poet of science"},
		{"target": refOf(t, snap, "checkbox", "Subscribe"), "type": "checkbox", "value": "true"},
		{"target": refOf(t, snap, "radio", "Pro"), "type": "radio", "value": "true"},
		{"target": refOf(t, snap, "combobox", "Country"), "type": "combobox", "value": "Japan"},
		{"target": refOf(t, snap, "slider", "Volume"), "type": "slider", "value": "7"},
		{"target": "#rating", "type": "slider", "value": "4"},
	}})
	if !strings.Contains(out, "Filled 7 fields") {
		t.Errorf("fill_form response:\n%s", out)
	}
	got := evalJS(t, c, `() => JSON.stringify({...Object.fromEntries(new FormData(document.getElementById('profile'))),
		rating: document.getElementById('rating').getAttribute('aria-valuenow')})`)
	want := `{"name":"Ada Lovelace","bio":"Poet of science","subscribe":"on","plan":"pro","country":"jp","volume":"7","rating":"4"}`
	if got != want {
		t.Errorf("the form holds\n%s\nwant\n%s", got, want)
	}

	// A failing field is named, with what was filled before it.
	res := call(t, c, "browser_fill_form", map[string]any{"fields": []map[string]any{
		{"target": "textarea", "type": "textbox", "value": "x"},
		{"target": "#rating", "name": "Rating", "type": "slider", "value": "lots"},
	}})
	wantError(t, res, "invalid_input", "fields[1]", "Rating", "lots")
}

func TestInputFileUpload(t *testing.T) {
	var mu sync.Mutex
	var uploads []string
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("POST /api/upload", func(w http.ResponseWriter, r *http.Request) {
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var got []string
			for _, fh := range r.MultipartForm.File["file"] {
				got = append(got, fmt.Sprintf("%s:%d", fh.Filename, fh.Size))
			}
			mu.Lock()
			uploads = append(uploads, strings.Join(got, ","))
			mu.Unlock()
			fmt.Fprint(w, strings.Join(got, ","))
		})
	})
	roots, outside := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report, photo := write(roots, "report.txt", "quarterly numbers\n"), write(roots, "photo.png", strings.Repeat("x", 1234))
	secret := write(outside, "secret.txt", "no")

	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+roots))
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/upload.html"})
	lastUpload := func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(uploads) == 0 {
			return ""
		}
		return uploads[len(uploads)-1]
	}

	// Into the file input itself, two files at once.
	mustCall(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{report, photo}})
	if got := statusAfter(t, c); got != "server got report.txt:18,photo.png:1234" {
		t.Errorf("page says %q", got)
	}
	if got := lastUpload(); got != "report.txt:18,photo.png:1234" {
		t.Errorf("the server received %q, want both files with their sizes", got)
	}

	// Through the file chooser a button opens.
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { document.getElementById('log').textContent = 'nothing yet' }"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Choose a photo")})
	if !strings.Contains(out, "File chooser open") {
		t.Errorf("the click response does not say a file chooser opened:\n%s", out)
	}
	mustCall(t, c, "browser_file_upload", map[string]any{"paths": []string{photo}})
	if got := statusAfter(t, c); got != "server got photo.png:1234" {
		t.Errorf("page says %q after answering the chooser", got)
	}
	if got := lastUpload(); got != "photo.png:1234" {
		t.Errorf("the server received %q from the chooser, want photo.png:1234", got)
	}

	// Refused: outside the roots, relative, no chooser open, one file for a
	// single input.
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{secret}}),
		"not_allowed", "outside", roots)
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{filepath.Join(roots, "..", filepath.Base(outside), "secret.txt")}}),
		"not_allowed", "outside")
	// A relative path starts in the working directory (--file-roots names
	// no directory it starts in), which is outside the root here.
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{"report.txt"}}), "not_allowed", `"report.txt" (`)
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"paths": []string{photo}}), "invalid_input", "no file chooser")
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#photo", "paths": []string{report, photo}}), "invalid_input", "one file")
	if n := len(uploads); n != 2 {
		t.Errorf("the server received %d uploads, want 2 (refused ones must not arrive)", n)
	}
}

// TestActionability: actions wait for their element like Playwright's do.
func TestActionability(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	t.Run("enabled later", func(t *testing.T) {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/late.html"})
		if got := evalJS(t, c, "() => { arm(); return document.getElementById('pay').disabled }"); got != "true" {
			t.Fatalf("Pay is not disabled when the click starts: %s", got)
		}
		mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Pay]"})
		if got := statusAfter(t, c); got != "paid trusted=true" {
			t.Errorf("page saw %q, want the click on the button once enabled", got)
		}
	})
	t.Run("animates into place", func(t *testing.T) {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/late.html"})
		evalJS(t, c, "() => { arm(); return true }")
		mustCall(t, c, "browser_click", map[string]any{"target": "text=Catch me"})
		if got := statusAfter(t, c); got != "caught at left=400 trusted=true" {
			t.Errorf("page saw %q, want the click on the button where it came to rest", got)
		}
	})
	t.Run("appears later", func(t *testing.T) {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/late.html"})
		if got := evalJS(t, c, "() => { arm(); return !!document.getElementById('continue') }"); got != "false" {
			t.Fatalf("Continue exists when the click starts: %s", got)
		}
		mustCall(t, c, "browser_click", map[string]any{"target": "#continue"})
		if got := statusAfter(t, c); got != "continued trusted=true" {
			t.Errorf("page saw %q, want the click on the button once it appeared", got)
		}
	})
	t.Run("covered", func(t *testing.T) {
		env, _ := serverEnv(t)
		short := startClient(t, append(env, "E2E_MCP_ACTION_TIMEOUT=1s"))
		mustCall(t, short, "browser_navigate", map[string]any{"url": f.URL + "/input/covered.html"})
		wantError(t, call(t, short, "browser_click", map[string]any{"target": "role=button[name=Buy]"}),
			"not_actionable", "covered by div.cookie-banner")
		wantError(t, call(t, short, "browser_click", map[string]any{"target": "#never"}), "element_not_found", "waited 1s")
		if got := evalJS(t, short, "() => document.getElementById('log').textContent"); got != "nothing yet" {
			t.Errorf("the covered button was clicked: %q", got)
		}
	})
}

// TestClickLandsOnItsTarget: a click lands on the element it names or
// not at all. The page puts a button above a link when the pointer first
// moves (as rows a fetch renders push a link down between the moment a
// click is aimed and the moment it lands): the press, aimed at the link,
// would land on the new button. The engine's hit check keeps that click
// from the page and aims again; the link gets one click, the button none.
// Before, the button got the click and the answer said the link was
// clicked.
func TestClickLandsOnItsTarget(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /shift", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>Shift</title><div id="top"></div>
<a href="#done" id="go">Go</a><p id="log">nothing yet</p>
<script>
const log = [];
const say = (s) => { log.push(s); document.getElementById('log').textContent = log.join(', '); };
document.getElementById('go').addEventListener('click', () => say('link'));
let shifted = false;
document.addEventListener('mousemove', () => {
  if (shifted) return;
  shifted = true;
  const b = document.createElement('button');
  b.textContent = 'Ad';
  b.style.cssText = 'display:block;width:400px;height:120px';
  b.addEventListener('click', () => say('ad'));
  document.getElementById('top').append(b);
});
</script>`)
		})
	})
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/shift"})
	mustCall(t, c, "browser_click", map[string]any{"target": `#go`})
	got := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => document.getElementById('log').textContent + ' @' + location.hash`})
	if !strings.Contains(got, `"link @#done"`) {
		t.Errorf("after the click on the link: %s\nwant the link clicked once and followed, the button never", got)
	}
}
