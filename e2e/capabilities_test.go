package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolNames is the server's tools/list, by name.
func toolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// TestCapabilityGroups: a group's tools are offered only with --caps; a
// call to one that is off is a typed answer naming the flag, and the core
// tools are the same either way.
func TestCapabilityGroups(t *testing.T) {
	env, _ := serverEnv(t)
	plain := startClient(t, env)
	core := toolNames(t, plain)
	if slices.Contains(core, "browser_emulate_media") {
		t.Fatalf("the default tools/list offers browser_emulate_media: %v", core)
	}
	out := mustFail(t, plain, "browser_emulate_media", map[string]any{"colorScheme": "dark"}, "not_allowed")
	mustContain(t, "a call to a tool of a group that is off", out, "--caps emulation")

	env, _ = serverEnv(t)
	all := toolNames(t, startClient(t, append(env, "E2E_MCP_CAPS=all")))
	for _, n := range core {
		if !slices.Contains(all, n) {
			t.Errorf("--caps all drops the core tool %s", n)
		}
	}
	if !slices.Contains(all, "browser_emulate_media") {
		t.Errorf("--caps all does not offer browser_emulate_media: %v", all)
	}
}

// TestEmulateMedia: the page's CSS and its matchMedia listeners see the
// emulated color scheme, motion, forced colors and print media, in every
// tab of the session, a popup opened later included, until reset.
func TestEmulateMedia(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=emulation")
	c := startClient(t, env)

	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/emulate/media.html"})
	mustContain(t, "the page as the browser renders it", out, "Seen: scheme light, motion full, colors normal")
	if containsAny(out, "Dark theme is on", "Printable receipt") {
		t.Fatalf("hidden text shows before any emulation:\n%s", out)
	}

	out = mustCall(t, c, "browser_emulate_media", map[string]any{"colorScheme": "dark", "reducedMotion": "reduce"})
	mustContain(t, "dark and reduced motion", out, "prefers-color-scheme: dark", "Dark theme is on", "Seen: scheme dark, motion reduce, colors normal")

	// A popup opened now sees the same.
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Open a copy']"})
	mustContain(t, "the click that opens a copy", out, "New tabs opened: 1")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	out = mustCall(t, c, "browser_snapshot", nil)
	mustContain(t, "the popup", out, "Dark theme is on", "Seen: scheme dark, motion reduce, colors normal")

	out = mustCall(t, c, "browser_emulate_media", map[string]any{"media": "print", "forcedColors": "active"})
	mustContain(t, "print media", out, "Printable receipt", "Seen: scheme light, motion full, colors forced")
	if containsAny(out, "Open a copy", "Dark theme is on") {
		t.Errorf("print media still shows the screen-only link or the dark theme (each call sets every feature):\n%s", out)
	}

	out = mustCall(t, c, "browser_emulate_media", map[string]any{})
	mustContain(t, "reset", out, "the browser's own values", "Seen: scheme light, motion full, colors normal", "Open a copy")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
	out = mustCall(t, c, "browser_snapshot", nil)
	mustContain(t, "the first tab after the reset", out, "Seen: scheme light, motion full, colors normal")

	out = mustFail(t, c, "browser_emulate_media", map[string]any{"colorScheme": "purple"}, "invalid_input")
	mustContain(t, "a color scheme that does not exist", out, "colorScheme")

	// Recorded as a flow step, replayed by run (which offers every group).
	dir := t.TempDir()
	env = append(env, "E2E_MCP_FILE_ROOTS="+dir)
	rec := startClient(t, env)
	mustCall(t, rec, "browser_navigate", map[string]any{"url": f.URL + "/emulate/media.html"})
	mustCall(t, rec, "browser_emulate_media", map[string]any{"colorScheme": "dark"})
	mustCall(t, rec, "browser_expect", map[string]any{"target": "text=Dark theme is on", "check": "visible"})
	flowFile, flow := exportAndReplay(t, rec, env, dir, "dark")
	mustContain(t, "the exported flow", flow, "emulate_media:", "colorScheme: dark")
	// Without the emulation step the same expectation fails.
	light := strings.Replace(flow, "colorScheme: dark", "colorScheme: light", 1)
	if err := os.WriteFile(flowFile, []byte(light), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runFlows(t, env, flowFile); code != 1 || !strings.Contains(out, "FAIL  dark") {
		t.Fatalf("the flow in light mode does not fail (exit %d):\n%s", code, out)
	}
}

// containsAny says whether s holds any of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestEmulateDevice: a phone preset, a locale, a time zone and a position
// are what the page's own scripts read (viewport, pixel ratio, touch,
// user agent, Intl, geolocation); reset brings back the browser's own.
func TestEmulateDevice(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=emulation"))
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/emulate/device.html"})
	mustContain(t, "the desktop", out, "touch no, mobile no")

	out = mustCall(t, c, "browser_emulate", map[string]any{"device": "Pixel 7", "locale": "de-DE", "timezoneId": "Asia/Tokyo",
		"latitude": 48.8584, "longitude": 2.2945})
	mustContain(t, "the phone's answer", out, "viewport 412x839 @2.625x", "mobile", "locale de-DE", "time zone Asia/Tokyo",
		"at 48.8584, 2.2945", "Screen: 412x839 @2.625")
	// Touch and the user agent are read by a page as it loads.
	out = mustCall(t, c, "browser_reload", nil)
	mustContain(t, "the phone after a reload", out, "Screen: 412x839 @2.625, touch yes, mobile yes", "User: de-DE, Asia/Tokyo, 1.234,5")
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Where am I?']"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Position: 48.8584, 2.2945", "timeout": 10})

	// A preset, then one field over it.
	out = mustCall(t, c, "browser_emulate", map[string]any{"device": "iPhone 15"})
	mustContain(t, "the iPhone", out, "Screen: 393x659 @3", "locale de-DE")
	out = mustCall(t, c, "browser_emulate", map[string]any{"width": 600, "height": 800})
	mustContain(t, "a size over the preset", out, "Screen: 600x800 @3")

	out = mustCall(t, c, "browser_emulate", map[string]any{"reset": true})
	mustContain(t, "reset", out, "browser's own device")
	out = mustCall(t, c, "browser_reload", nil)
	mustContain(t, "after the reset", out, "touch no, mobile no")
	if strings.Contains(out, "de-DE") || strings.Contains(out, "Tokyo") {
		t.Errorf("the reset left the locale or time zone:\n%s", out)
	}

	mustFail(t, c, "browser_emulate", map[string]any{"device": "Nokia 3310"}, "invalid_input")
	mustFail(t, c, "browser_emulate", map[string]any{"latitude": 100, "longitude": 0}, "invalid_input")
	mustFail(t, c, "browser_emulate", map[string]any{"latitude": 1}, "invalid_input")
	mustFail(t, c, "browser_emulate", map[string]any{"permissions": []string{"Not A Permission"}}, "invalid_input")
}

// staging serves /private/ behind Basic authentication (ada, s3cret-pass),
// with a link to partner when it is given.
func staging(partner string) func(mux *http.ServeMux, _ *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /private/", func(w http.ResponseWriter, r *http.Request) {
			if u, pw, ok := r.BasicAuth(); !ok || u != "ada" || pw != "s3cret-pass" {
				w.Header().Set("WWW-Authenticate", `Basic realm="staging"`)
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, "<!doctype html><title>Staging</title><h1>Staging for ada</h1>")
			if partner != "" {
				fmt.Fprintf(w, `<a href="%s">Partner portal</a>`, partner)
			}
		})
	}
}

// TestHTTPCredentials: a page behind HTTP Basic authentication fails to
// load until the session has credentials; with them it loads; wrong ones
// get the server's 401 rather than a loop; the password is never shown.
func TestHTTPCredentials(t *testing.T) {
	f := newFixture(t, staging(""))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=emulation"))
	out := mustFail(t, c, "browser_navigate", map[string]any{"url": f.URL + "/private/"}, "navigation_failed")
	mustContain(t, "without credentials (headless Chrome asks no one)", out, "ERR_INVALID_AUTH_CREDENTIALS")

	out = mustCall(t, c, "browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": "s3cret-pass", "httpOrigin": f.URL})
	mustContain(t, "the answer", out, "HTTP authentication as ada for "+f.URL)
	if strings.Contains(out, "s3cret-pass") {
		t.Errorf("the answer shows the password:\n%s", out)
	}
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/private/"})
	mustContain(t, "with credentials", out, "Staging for ada")

	// (Chrome keeps credentials that worked for the rest of the session.)
	mustCall(t, c, "browser_emulate", map[string]any{"sessionId": "other", "httpUsername": "ada", "httpPassword": "wrong", "httpOrigin": f.URL})
	out = mustCall(t, c, "browser_navigate", map[string]any{"sessionId": "other", "url": f.URL + "/private/"})
	mustContain(t, "wrong credentials", out, "The server answered HTTP 401.", "Unauthorized")
}

// TestHTTPCredentialsScoped: credentials answer the authentication of the
// origin they were given for (by default the page's) and no other: a link
// or a redirect to another site that asks gets its 401, and that site never
// sees the password; the answer names the origin, an origin must be known,
// and the recorded step carries it so a replay scopes them the same way.
func TestHTTPCredentialsScoped(t *testing.T) {
	var mu sync.Mutex
	var seen []string // the Authorization headers the other site got
	other := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /private/", func(w http.ResponseWriter, r *http.Request) {
			if h := r.Header.Get("Authorization"); h != "" {
				mu.Lock()
				seen = append(seen, h)
				mu.Unlock()
				fmt.Fprint(w, "<!doctype html><title>Other</title><h1>Other site, signed in</h1>")
				return
			}
			w.Header().Set("WWW-Authenticate", `Basic realm="other"`)
			http.Error(w, "Other site: Unauthorized", http.StatusUnauthorized)
		})
	})
	f := newFixture(t, staging(other.URL+"/private/"), func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /partner", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/private/", http.StatusFound)
		})
	})
	sawPassword := func(when string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(seen) > 0 {
			t.Fatalf("%s: the other site got the credentials: %v", when, seen)
		}
	}
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=emulation"))

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	out := mustCall(t, c, "browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": "s3cret-pass"})
	mustContain(t, "the answer", out, "HTTP authentication as ada for "+f.URL)
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/private/"})
	mustContain(t, "the page's origin", out, "Staging for ada")

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Partner portal']"})
	mustContain(t, "a link to another site", out, "401", "Other site: Unauthorized")
	sawPassword("after a link")
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/partner"})
	mustContain(t, "a redirect to another site", out, "401", "Other site: Unauthorized")
	sawPassword("after a redirect")

	flow := mustCall(t, c, "session_export_flow", nil)
	mustContain(t, "the recorded step", flow, "httpOrigin: "+f.URL)

	// Given for the other site, they go there.
	mustCall(t, c, "browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": "partner-pass", "httpOrigin": other.URL})
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": other.URL + "/private/"})
	mustContain(t, "credentials for the other site", out, "Other site, signed in")
	mu.Lock()
	if len(seen) != 1 || seen[0] != "Basic "+base64.StdEncoding.EncodeToString([]byte("ada:partner-pass")) {
		t.Errorf("the other site got %v", seen)
	}
	mu.Unlock()

	// A session on about:blank, with no dev server, has no origin to give.
	out = mustFail(t, c, "browser_emulate", map[string]any{"sessionId": "blank", "httpUsername": "ada", "httpPassword": "s3cret-pass"}, "invalid_input")
	mustContain(t, "credentials on about:blank", out, "httpOrigin")
}

// exportAndReplay exports the session of c as the flow name under dir, and
// replays it with e2e-mcp run, which must pass. It returns the flow's path
// and text.
func exportAndReplay(t *testing.T, c *client.Client, env []string, dir, name string) (string, string) {
	t.Helper()
	flowFile := filepath.Join(dir, name+".yaml")
	mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": name})
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	if out, code := runFlows(t, env, flowFile); code != 0 || !strings.Contains(out, "PASS  "+name) {
		t.Fatalf("the flow does not replay green (exit %d):\n%s\nthe flow:\n%s", code, out, b)
	}
	return flowFile, string(b)
}

// TestFlowWithEveryGroup: a session signed in from a saved state, in dark
// mode, with its API mocked into an error, exports a flow that e2e-mcp run
// replays green.
func TestFlowWithEveryGroup(t *testing.T) {
	f := newFixture(t, itemsAPI, authAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=all", "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)

	// Sign in once and save the state (another session).
	login := map[string]any{"sessionId": "login"}
	mustCall(t, c, "browser_navigate", map[string]any{"sessionId": "login", "url": f.URL + "/auth/app.html"})
	mustCall(t, c, "browser_type", map[string]any{"sessionId": "login", "target": "label=Name", "text": "Grace", "submit": true})
	mustCall(t, c, "browser_wait_for", map[string]any{"sessionId": "login", "text": "Signed in as Grace"})
	state := filepath.Join(dir, "grace.json")
	login["filename"] = state
	mustCall(t, c, "browser_storage_state", login)

	mustCall(t, c, "browser_set_storage_state", map[string]any{"filename": state})
	mustCall(t, c, "browser_emulate_media", map[string]any{"colorScheme": "dark"})
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "status": 500})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/auth/app.html"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Signed in as Grace"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/app.html"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "text=Could not load items (500)", "check": "visible"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/emulate/media.html"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "text=Dark theme is on", "check": "visible"})
	_, text := exportAndReplay(t, c, env, dir, "everything")
	// The state lies beside the flow: named relative to it.
	mustContain(t, "the flow", text, "set_storage_state: grace.json", "emulate_media:", "route:")
}

// TestClock: a countdown page under the fake clock: installed at 09:00 it
// shows three hours left; fast_forward jumps an hour (its ticker fires
// once); run_for fires every tick; pause_at stops the ticks; the clock goes
// on across a reload; set_fixed_time fixes Date only.
func TestClock(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=time"))
	mustFail(t, c, "browser_clock", map[string]any{"action": "fast_forward", "duration": "1h"}, "invalid_input")

	out := mustCall(t, c, "browser_clock", map[string]any{"action": "install", "time": "2030-05-01T09:00:00Z"})
	mustContain(t, "install", out, "at 2030-05-01T09:00:00Z (running)")
	out = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/time/countdown.html"})
	mustContain(t, "the page under the clock", out, "Now: 09:00:0", "Sale ends in 2:59:5", "Ticks: 0")

	out = mustCall(t, c, "browser_clock", map[string]any{"action": "pause_at", "time": "2030-05-01T10:00:00Z"})
	mustContain(t, "pause at 10:00", out, "at 2030-05-01T10:00:00Z (paused)", "Now: 10:00:00", "Sale ends in 2:00:00")
	out = mustCall(t, c, "browser_clock", map[string]any{"action": "fast_forward", "duration": "1h"})
	mustContain(t, "an hour later", out, "(paused)", "Now: 11:00:00", "Sale ends in 1:00:00")
	ticks := ticksOf(t, out)
	out = mustCall(t, c, "browser_clock", map[string]any{"action": "run_for", "duration": "30s"})
	mustContain(t, "30 seconds of ticks", out, "Now: 11:00:30", "Sale ends in 0:59:30")
	if got := ticksOf(t, out); got != ticks+30 {
		t.Errorf("run_for 30s fired %d ticks, want 30", got-ticks)
	}
	out = mustCall(t, c, "browser_reload", nil)
	mustContain(t, "a reload keeps the clock", out, "Now: 11:00:30", "Ticks: 0")
	out = mustCall(t, c, "browser_clock", map[string]any{"action": "fast_forward", "duration": "2h"})
	mustContain(t, "past the end", out, "The sale is over")
	out = mustCall(t, c, "browser_clock", map[string]any{"action": "set_fixed_time", "time": "2030-05-01T08:00:00Z"})
	mustContain(t, "fixed time", out, "Date is fixed at 2030-05-01T08:00:00Z")
	mustCall(t, c, "browser_clock", map[string]any{"action": "run_for", "duration": "1s"})
	out = mustCall(t, c, "browser_snapshot", nil)
	mustContain(t, "Date fixed, timers running", out, "Now: 08:00:00", "Sale ends in 4:00:00")
	mustCall(t, c, "browser_clock", map[string]any{"action": "resume"})

	mustFail(t, c, "browser_clock", map[string]any{"action": "pause_at"}, "invalid_input")
	mustFail(t, c, "browser_clock", map[string]any{"action": "run_for", "duration": "soon"}, "invalid_input")
	mustFail(t, c, "browser_clock", map[string]any{"action": "install", "time": "tomorrow"}, "invalid_input")
}

// ticksOf reads the countdown page's tick count.
func ticksOf(t *testing.T, out string) int {
	t.Helper()
	m := regexp.MustCompile(`Ticks: (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no tick count in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestInitScripts: a script added to the session runs before the page's own
// scripts in every page loaded after (not in the one already shown); one
// named by --init-script runs in every session from its first page.
func TestInitScripts(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=emulation"))
	url := f.URL + "/emulate/flags.html"
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": url})
	mustContain(t, "without a script", out, "Old checkout")
	out = mustCall(t, c, "browser_add_init_script", map[string]any{"script": "window.FEATURE_FLAGS = { newCheckout: true };"})
	mustContain(t, "the answer", out, "Init script 1 (", "reload to run it in this one")
	out = mustCall(t, c, "browser_reload", nil)
	mustContain(t, "after a reload", out, "New checkout")
	mustFail(t, c, "browser_add_init_script", map[string]any{"script": " "}, "invalid_input")
	mustFail(t, c, "browser_add_init_script", map[string]any{"path": "/etc/hostname"}, "not_allowed")

	file := filepath.Join(dir, "flags.js")
	if err := os.WriteFile(file, []byte("window.FEATURE_FLAGS = { newCheckout: true };"), 0o644); err != nil {
		t.Fatal(err)
	}
	env2, _ := serverEnv(t)
	c2 := startClient(t, append(env2, "E2E_MCP_INIT_SCRIPT="+file))
	out = mustCall(t, c2, "browser_navigate", map[string]any{"url": url})
	mustContain(t, "a server started with --init-script", out, "New checkout")
	out = mustCall(t, c2, "browser_navigate", map[string]any{"url": url, "sessionId": "other"})
	mustContain(t, "another session of it", out, "New checkout")
}
