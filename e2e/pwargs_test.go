package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	out = mustCall(t, c, "browser_cookie_list", nil)
	mustContain(t, "cookie_list of 22", out, "22 cookie(s):", "more cookie(s) not shown")
	if strings.Contains(out, long[:2999]+"…") || strings.Count(out, long) < 10 {
		t.Errorf("values are cut, or too few shown whole (%d):\n%.500s", strings.Count(out, long), out)
	}
}
