package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The config file's context options that are per session here
// (browser_emulate) and server-wide defaults in Playwright MCP's config
// (issue 39): browser.contextOptions.locale and timezoneId, our --locale
// and --timezone; and server.host given without a port.

// langSite serves a page that writes what its own scripts read of the
// locale and the time zone, with an iframe of another site (localhost
// beside 127.0.0.1: another renderer, a CDP session of its own) that does
// the same, and a link that opens a popup; it records the Accept-Language
// header of every document asked for, by path and query.
type langSite struct {
	mu   sync.Mutex
	seen map[string]string
}

// langScript writes, into #out, the language, the languages, Intl's locale
// and time zone, and Date's offset from UTC on 15 January 2024 (Paris:
// -60, Tokyo: -540).
const langScript = `<p id="out">not run</p><button onclick="read()">Read</button><script>
function read() {
  const o = Intl.DateTimeFormat().resolvedOptions();
  document.getElementById('out').textContent = 'lang=' + navigator.language + ' langs=' + navigator.languages.join('|') +
    ' intl=' + o.locale + ' tz=' + o.timeZone + ' offset=' + new Date(Date.UTC(2024, 0, 15, 12)).getTimezoneOffset();
}
read();
</script>`

func (l *langSite) routes(mux *http.ServeMux, _ *fixture) {
	record := func(r *http.Request) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.seen == nil {
			l.seen = map[string]string{}
		}
		l.seen[r.URL.RequestURI()] = r.Header.Get("Accept-Language")
	}
	mux.HandleFunc("GET /lang/page.html", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		_, port, _ := net.SplitHostPort(r.Host)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Lang</title>%s
<a href="/lang/frame.html?popup" target="_blank">Popup</a>
<button onclick="window.open('/lang/frame.html?opener')">Open</button>
<iframe title="Other site" src="http://localhost:%[2]s/lang/frame.html?%[3]s"></iframe>
<iframe title="Other site again" src="http://localhost:%[2]s/lang/frame.html?%[3]s-again"></iframe>`, langScript, port, r.URL.RawQuery)
	})
	mux.HandleFunc("GET /lang/frame.html", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Frame</title>`+langScript)
	})
}

// acceptLanguage is the Accept-Language header the document at uri was
// asked for with.
func (l *langSite) acceptLanguage(t *testing.T, uri string) string {
	t.Helper()
	var got string
	var ok bool
	waitFor(t, 10*time.Second, "the request of "+uri, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		got, ok = l.seen[uri]
		return ok
	})
	return got
}

// TestPlaywrightLocaleTimezone: the config file's
// browser.contextOptions.locale and timezoneId (refused at start before)
// are every session's from its start, as if browser_emulate had set them:
// what the page's own scripts read (navigator.language, Intl, Date) and
// the Accept-Language its documents are asked for with, in its iframe of
// another site, in a new tab and in a popup; browser_get_config shows
// them; browser_emulate still changes them for the session; --locale and
// --timezone do the same. A time zone or locale that is none stops the
// start naming the key; a time zone browser_emulate refuses leaves the
// session as it was (it stuck, and failed every tab opened after).
func TestPlaywrightLocaleTimezone(t *testing.T) {
	site := &langSite{}
	f := newFixture(t, site.routes)
	env, dir := serverEnv(t)
	config := writeFile(t, filepath.Join(dir, "config.json"),
		`{"capabilities": ["config", "emulation"], "browser": {"contextOptions": {"locale": "fr-FR", "timezoneId": "Europe/Paris"}}}`)
	const paris = "lang=fr-FR langs=fr-FR intl=fr-FR tz=Europe/Paris offset=-60"

	// A session without them shows the browser's own (not Paris's), so
	// the checks below can tell.
	plain := startClientArgs(t, env)
	out := mustCall(t, plain, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?plain"})
	if strings.Contains(out, "fr-FR") || strings.Contains(out, "Paris") {
		t.Fatalf("without the config the page is already in Paris's locale and time zone:\n%s", out)
	}

	c := startClientArgs(t, env, "--config", config)
	cfg := resultJSON(t, mustCall(t, c, "browser_get_config", nil))
	for key, want := range map[string]string{
		"browser.contextOptions.locale": `"fr-FR"`, "browser.contextOptions.timezoneId": `"Europe/Paris"`,
		"e2e-mcp.locale": `null`, "e2e-mcp.timezone": `null`, // said by their keys
	} {
		if got := configAt(cfg, key); got != want {
			t.Errorf("browser_get_config: %s = %s, want %s", key, got, want)
		}
	}

	// The page, as its scripts read it while loading, and its two iframes
	// of another site (one renderer, two sessions), as their scripts read
	// it when a button is clicked. (Their first document may load before
	// a session of ours reaches it, as a popup's.)
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?first"})
	mustContain(t, "the first page", out, "paragraph: "+paris)
	var frames []string
	waitFor(t, 10*time.Second, "the iframes' buttons", func() bool {
		out = mustCall(t, c, "browser_snapshot", nil)
		frames = regexp.MustCompile(`button "Read" \[ref=(f\d+e\d+)\]`).FindAllString(out, -1)
		return len(frames) == 2
	})
	readFrames := func() string {
		for _, b := range frames {
			ref := b[strings.Index(b, "ref=")+4 : len(b)-1]
			mustCall(t, c, "browser_click", map[string]any{"target": ref, "element": "Read"})
		}
		return mustCall(t, c, "browser_snapshot", nil)
	}
	out = readFrames()
	if strings.Count(out, "paragraph: "+paris) != 3 {
		t.Errorf("the page and its two iframes of another site, want all three in Paris:\n%s", out)
	}
	for _, uri := range []string{"/lang/page.html?first", "/lang/frame.html?first", "/lang/frame.html?first-again"} {
		if got := site.acceptLanguage(t, uri); !strings.HasPrefix(got, "fr-FR") {
			t.Errorf("%s was asked for with Accept-Language %q, want fr-FR first", uri, got)
		}
	}

	// A new tab.
	mustCall(t, c, "browser_tabs", map[string]any{"action": "new"})
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?tab"})
	mustContain(t, "a new tab", out, "paragraph: "+paris)
	if got := site.acceptLanguage(t, "/lang/page.html?tab"); !strings.HasPrefix(got, "fr-FR") {
		t.Errorf("the new tab's page was asked for with Accept-Language %q", got)
	}

	// A popup the page opens, as its scripts read it now.
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name=Popup]"})
	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 2})
	mustContain(t, "the popup", out, f.URL+"/lang/frame.html?popup")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => navigator.language + ' ' + Intl.DateTimeFormat().resolvedOptions().timeZone`})
	mustContain(t, "the popup's page", out, "fr-FR Europe/Paris")
	// One that keeps its opener, in the opener's renderer, whose locale
	// and time zone another session holds already.
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Open]"})
	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 3})
	mustContain(t, "the popup with its opener", out, f.URL+"/lang/frame.html?opener")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => !!window.opener + ' ' + navigator.language + ' ' + Intl.DateTimeFormat().resolvedOptions().timeZone`})
	mustContain(t, "the popup with its opener", out, "true fr-FR Europe/Paris")

	// browser_emulate still changes them, for the session's tabs.
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
	out = mustCall(t, c, "browser_emulate", map[string]any{"locale": "de-DE", "timezoneId": "Asia/Tokyo"})
	mustContain(t, "browser_emulate's answer", out, "locale de-DE", "time zone Asia/Tokyo")
	tokyo := "paragraph: lang=de-DE langs=de-DE intl=de-DE tz=Asia/Tokyo offset=-540"
	if out = readFrames(); strings.Count(out, tokyo) != 2 {
		t.Errorf("the iframes of another site after browser_emulate, want both in Tokyo:\n%s", out)
	}
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?emulated"})
	mustContain(t, "after browser_emulate", out, tokyo)
	if got := site.acceptLanguage(t, "/lang/page.html?emulated"); !strings.HasPrefix(got, "de-DE") {
		t.Errorf("after browser_emulate the page was asked for with Accept-Language %q", got)
	}
	// A time zone that is none is refused, and changes nothing: the next
	// change and a new tab still work.
	out = mustFail(t, c, "browser_emulate", map[string]any{"timezoneId": "Mars/Olympus"}, "invalid_input")
	mustContain(t, "a time zone that is none", out, `"Mars/Olympus" is not a time zone`, "Europe/Paris")
	mustContain(t, "the next change", mustCall(t, c, "browser_emulate", map[string]any{"locale": "es-ES"}), "locale es-ES", "time zone Asia/Tokyo")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "new"})
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?after"})
	mustContain(t, "a tab after the refusal", out, "tz=Asia/Tokyo")

	// Our flags, beside the file's keys.
	flags := startClientArgs(t, env, "--locale", "pt-BR", "--timezone", "America/Sao_Paulo")
	out = mustCall(t, flags, "browser_navigate", map[string]any{"url": f.URL + "/lang/page.html?flags"})
	mustContain(t, "--locale and --timezone", out, "paragraph: lang=pt-BR langs=pt-BR intl=pt-BR tz=America/Sao_Paulo offset=180")
}

// startFails runs the binary with args and returns what it said, failing
// the test unless it exits 2 (a bad command line) at once.
func startFails(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("e2e-mcp %v: %v, want exit 2:\n%s", args, err, out)
	}
	return string(out)
}

// TestPlaywrightContextRefusals: a config file's time zone or locale that
// is none stops the start naming its key and what to give, in JSON and
// INI; so do --timezone and its variable.
func TestPlaywrightContextRefusals(t *testing.T) {
	env, dir := serverEnv(t)
	for _, tc := range []struct {
		file, body, want string
	}{
		{"tz.json", `{"browser": {"contextOptions": {"timezoneId": "Mars/Olympus"}}}`,
			`browser.contextOptions.timezoneId: timezoneId "Mars/Olympus" is not a time zone: give a name of the IANA time zone database, such as Europe/Paris`},
		{"tz.ini", "[browser.contextOptions]\ntimezoneId = Mars/Olympus\n", `browser.contextOptions.timezoneId: timezoneId "Mars/Olympus" is not a time zone`},
		{"locale.ini", "browser.contextOptions.locale = French\n", `browser.contextOptions.locale: locale "French" is not a language tag: give a BCP 47 language tag`},
	} {
		out := startFails(t, env, "--config", writeFile(t, filepath.Join(dir, tc.file), tc.body))
		mustContain(t, tc.file, out, tc.want)
	}
	mustContain(t, "--timezone", startFails(t, env, "--timezone", "Paris"), `--timezone: timezoneId "Paris" is not a time zone`)
	mustContain(t, "E2E_MCP_LOCALE", startFails(t, append(env, "E2E_MCP_LOCALE=en_US")), `--locale: locale "en_US" is not a language tag`)
}

// TestPlaywrightHostWithoutPort: a config file's server.host without
// server.port (their INI test gives one) starts the server over stdio, as
// theirs does, with a warning that the host is not used, and
// browser_get_config shows it. (It stopped the start.) A host beside
// --http is refused: two addresses.
func TestPlaywrightHostWithoutPort(t *testing.T) {
	env, dir := serverEnv(t)
	config := writeFile(t, filepath.Join(dir, "config.ini"), "capabilities = config\nserver.host = localhost\n")
	c, stderr := startClientArgsLog(t, env, "--config", config)
	cfg := resultJSON(t, mustCall(t, c, "browser_get_config", nil))
	if got := configAt(cfg, "server.host"); got != `"localhost"` {
		t.Errorf("browser_get_config: server.host = %s, want \"localhost\"", got)
	}
	mustContain(t, "the log", stderr.String(), "--host (the config's server.host) has no effect without --port: MCP is served over stdio")
	mustContain(t, "a host and --http", startFails(t, env, "--config", config, "--http", "127.0.0.1:0"),
		"--host localhost and --http 127.0.0.1:0: give the address in --http HOST:PORT alone")
}
