package e2e

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// setupSite serves a sign-in: /auth/login sets an HttpOnly session
// cookie and, from the page, a localStorage item, and says "Signed in"
// (counting its loads; "Refused" while broken is set); /auth/account says
// "Hello ada" to the cookie's holder and "Signed out" to anyone else, and
// shows the localStorage item in its status.
func setupSite(t *testing.T) (*fixture, *atomic.Int32, *atomic.Bool) {
	t.Helper()
	var logins atomic.Int32
	var broken atomic.Bool
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /auth/login", func(w http.ResponseWriter, _ *http.Request) {
			logins.Add(1)
			w.Header().Set("Content-Type", "text/html")
			if broken.Load() {
				fmt.Fprint(w, "<!doctype html><title>Login</title><h1>Refused</h1>")
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "ada-session", Path: "/", HttpOnly: true})
			fmt.Fprint(w, "<!doctype html><title>Login</title><h1>Signed in</h1><script>localStorage.setItem('user', 'ada')</script>")
		})
		mux.HandleFunc("GET /auth/account", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			h := "Signed out"
			if c, err := r.Cookie("sid"); err == nil && c.Value == "ada-session" {
				h = "Hello ada"
			}
			fmt.Fprintf(w, "<!doctype html><title>Account</title><h1>%s</h1><p role=status></p>"+
				"<script>document.querySelector('p').textContent = 'stored: ' + (localStorage.getItem('user') || 'nobody')</script>", h)
		})
	})
	return f, &logins, &broken
}

// setupFlows are flows over setupSite f: login (the setup flow, to go in
// setup/login.yaml), the steps of a flow that needs it and checks it is
// signed in (signedIn: its name, baseURL and needs: go before), and solo,
// a flow that needs nothing and checks it is signed out.
func setupFlows(f *fixture) (login, signedIn, solo string) {
	login = "name: log in\nbaseURL: " + f.URL + "\nsteps:\n  - navigate: /auth/login\n" +
		"  - expect: {target: 'role=heading', check: text, expected: Signed in, timeout: 1}\n"
	signedIn = "steps:\n  - navigate: /auth/account\n  - expect: {target: 'role=heading', check: text, expected: Hello ada, timeout: 2}\n" +
		"  - expect: {target: 'role=status', check: text, expected: 'stored: ada', timeout: 2}\n"
	solo = "name: solo\nbaseURL: " + f.URL + "\nsteps:\n  - navigate: /auth/account\n" +
		"  - expect: {target: 'role=heading', check: text, expected: Signed out, timeout: 2}\n" +
		"  - expect: {target: 'role=status', check: text, expected: 'stored: nobody', timeout: 2}\n"
	return login, signedIn, solo
}

// TestRunSetupFlows: flows that need login.yaml run after it, once per
// run however many need it, each in its own session started in the
// cookies and localStorage login ended with, while a flow that needs
// nothing starts signed out (--parallel 2: the dependents wait). --grep
// selecting one dependent runs its setup flow too; --list shows the needs;
// --shard runs the setup flow in each shard that needs it. When the setup
// flow fails its dependents are not run (SKIP with why, JUnit skipped),
// the other flows run, exit 1. A needs: cycle is a usage error naming the
// files.
func TestRunSetupFlows(t *testing.T) {
	f, logins, broken := setupSite(t)
	dir := t.TempDir()
	loginFlow, signedIn, solo := setupFlows(f)
	writeFiles(t, dir, map[string]string{
		"flows/setup/login.yaml": loginFlow,
		"flows/checkout.yaml":    "name: checkout\nbaseURL: " + f.URL + "\nneeds: setup/login.yaml\n" + signedIn,
		"flows/shop/cart.yaml":   "name: cart\nbaseURL: " + f.URL + "\nneeds: [../setup/login.yaml]\n" + signedIn,
		"flows/solo.yaml":        solo,
	})
	env, tmp := runEnvironment(t)
	flows := filepath.Join(dir, "flows")
	login := filepath.Join(flows, "setup", "login.yaml")
	junit := filepath.Join(dir, "junit.xml")
	sorted := func(lines []string) string {
		// The setup flow first; the others in the order they ended.
		if len(lines) == 0 {
			return ""
		}
		rest := append([]string(nil), lines[1:]...)
		for i := range rest {
			for j := i + 1; j < len(rest); j++ {
				if rest[j] < rest[i] {
					rest[i], rest[j] = rest[j], rest[i]
				}
			}
		}
		return strings.Join(append(lines[:1:1], rest...), ", ")
	}

	out, code := runFlows(t, env, flows, "--parallel", "2", "--junit", junit)
	if code != 0 || sorted(resultLines(out)) != "PASS log in, PASS cart, PASS checkout, PASS solo" || logins.Load() != 1 {
		t.Fatalf("run flows/ --parallel 2: exit %d, %d logins, want the setup flow once, first, and every flow passing:\n%s", code, logins.Load(), out)
	}
	if j, b := readRunJUnit(t, junit); j.Suite.Tests != 4 || j.Suite.Failures != 0 || j.Suite.Skipped != 0 {
		t.Errorf("the JUnit file: %v\n%s", j.cases(), b)
	}
	requireNoChrome(t, tmp, 10*time.Second)

	logins.Store(0)
	out, code = runFlows(t, env, flows, "--grep", "cart")
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS log in, PASS cart" || logins.Load() != 1 {
		t.Errorf("--grep cart: exit %d, %d logins, want log in then cart:\n%s", code, logins.Load(), out)
	}

	out, code = runFlows(t, env, flows, "--list", "--grep", "checkout|solo")
	want := "Listing flows:\n  " + login + " › log in\n  " + filepath.Join(flows, "checkout.yaml") + " › checkout (needs log in)\n  " +
		filepath.Join(flows, "solo.yaml") + " › solo\nTotal: 3 flows in 3 files\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("--list: exit %d:\n%s\nwant\n%s", code, out, want)
	}

	// The files in order: checkout, cart (shop/), solo; 1/2 has checkout
	// and cart, 2/2 solo: only 1/2 needs log in.
	logins.Store(0)
	var shards []string
	for _, sh := range []string{"1/2", "2/2"} {
		out, code := runFlows(t, env, flows, "--shard", sh)
		if code != 0 {
			t.Errorf("--shard %s: exit %d:\n%s", sh, code, out)
		}
		shards = append(shards, strings.Join(resultLines(out), ", "))
	}
	if shards[0] != "PASS log in, PASS checkout, PASS cart" || shards[1] != "PASS solo" || logins.Load() != 1 {
		t.Errorf("--shard: %q, %d logins", shards, logins.Load())
	}

	broken.Store(true)
	out, code = runFlows(t, env, flows, "--parallel", "2", "--junit", junit)
	if code != 1 || sorted(resultLines(out)) != "FAIL log in, PASS solo, SKIP cart, SKIP checkout" {
		t.Fatalf("a failing setup flow: exit %d, want it failed, its dependents skipped, solo run:\n%s", code, out)
	}
	mustContain(t, "the run's output", out,
		"SKIP  checkout ("+filepath.Join(flows, "checkout.yaml")+"): not run: its setup flow log in ("+login+") did not pass",
		"4 flow(s), 1 passed, 1 failed, 2 skipped, in ")
	if j, b := readRunJUnit(t, junit); j.Suite.Tests != 4 || j.Suite.Failures != 1 || j.Suite.Skipped != 2 {
		t.Errorf("the JUnit file of a failed setup: %v\n%s", j.cases(), b)
	}
	requireNoChrome(t, tmp, 10*time.Second)

	writeFiles(t, dir, map[string]string{"flows/setup/login.yaml": "name: log in\nneeds: ../shop/cart.yaml\nsteps:\n  - navigate: /auth/login\n"})
	out, code = runFlows(t, env, filepath.Join(flows, "checkout.yaml"))
	if code != 2 || !strings.Contains(out, "flows that need each other: "+login+" needs "+filepath.Join(flows, "shop", "cart.yaml")+" needs "+login) {
		t.Errorf("a needs: cycle: exit %d:\n%s", code, out)
	}
}

// TestActorsStartAsTheFlow: an actor's session starts as the flow's own
// does, as a context a Playwright test opens takes the test's options:
// in the storage state of the flow's setup flow (bob is signed in as ada,
// cookie and localStorage) and with the project's viewport and headers;
// before the fix bob started signed out, at the default viewport.
func TestActorsStartAsTheFlow(t *testing.T) {
	f, logins, _ := setupSite(t)
	vp := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /vp.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<!doctype html><title>VP</title><p role=status></p><script>"+
				"document.querySelector('p').textContent = 'width ' + innerWidth + ' env %s'</script>", r.Header.Get("X-Env"))
		})
	})
	dir := t.TempDir()
	login, _, _ := setupFlows(f)
	writeFiles(t, dir, map[string]string{
		"flows/setup/login.yaml": login,
		"flows/pair.yaml": "name: pair\nbaseURL: " + f.URL + "\nneeds: setup/login.yaml\nsteps:\n" +
			"  - navigate: /auth/account\n  - expect: {target: 'role=heading', check: text, expected: Hello ada, timeout: 2}\n" +
			"  - actor: bob\n    navigate: /auth/account\n" +
			"  - actor: bob\n    expect: {target: 'role=heading', check: text, expected: Hello ada, timeout: 2}\n" +
			"  - actor: bob\n    expect: {target: 'role=status', check: text, expected: 'stored: ada', timeout: 2}\n" +
			"  - actor: bob\n    navigate: " + vp.URL + "/vp.html\n" +
			"  - actor: bob\n    expect: {target: 'role=status', check: text, expected: 'width 600 env narrow', timeout: 2}\n",
		"e2e-mcp.yaml": "projects:\n  - name: narrow\n    use: {viewport: {width: 600, height: 500}, headers: {X-Env: narrow}}\n",
	})
	env, tmp := runEnvironment(t)
	out, code := runFlowsIn(t, dir, env, "flows")
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS log in [narrow], PASS pair [narrow]" || logins.Load() != 1 {
		t.Fatalf("a flow whose actor needs the setup flow's state and the project's settings: exit %d, %d logins:\n%s", code, logins.Load(), out)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}
