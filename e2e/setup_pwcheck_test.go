//go:build pwcheck

package e2e

import (
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPlaywrightCheckSetupAndRows (make playwright-check): flows that need
// a setup flow (its cookie and localStorage), a flow that needs nothing,
// and flows with data rows (a CSV beside the flow and a list of its own),
// each replayed green by e2e-mcp run, converted as one directory, pass
// under the pinned @playwright/test: the setup flow a setup project run
// once before its dependents, which start in the state it saved while the
// other flow starts signed out; one test per row, named as e2e-mcp run
// names it, typing and checking the row's values.
func TestPlaywrightCheckSetupAndRows(t *testing.T) {
	f, logins, _ := setupSite(t)
	g := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /data/greet.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>Greet</title><label>Name <input></label><button>Go</button><p role=status></p>`+
				`<script>document.querySelector('button').onclick = () => { document.querySelector('p').textContent = 'Hello ' + document.querySelector('input').value }</script>`)
		})
	})
	dir := pwcheckDir(t)
	login, signedIn, solo := setupFlows(f)
	greet := "steps:\n  - navigate: /data/greet.html\n  - type: {target: 'role=textbox[name=\"Name\"]', text: '%s'}\n" +
		"  - click: 'role=button[name=\"Go\"]'\n  - expect: {target: 'role=status', check: text, expected: 'Hello %s', timeout: 1}\n"
	writeFiles(t, dir, map[string]string{
		"flows/setup/login.yaml": login,
		"flows/checkout.yaml":    "name: checkout\nbaseURL: " + f.URL + "\nneeds: setup/login.yaml\n" + signedIn,
		"flows/solo.yaml":        solo,
		"flows/greet.yaml":       "name: greet\nbaseURL: " + g.URL + "\ndata: people.csv\n" + fmt.Sprintf(greet, "${row.who}", "${row.who}"),
		"flows/people.csv":       "name,who\nada,Ada\n,Bob O'Neil\n",
		"flows/inline.yaml":      "name: inline\nbaseURL: " + g.URL + "\ndata:\n  - {who: Zed}\n" + fmt.Sprintf(greet, "${row.who}", "${row.who}"),
	})
	flows := filepath.Join(dir, "flows")
	env, _ := runEnvironment(t)
	out, code := runFlows(t, env, flows)
	if code != 0 || logins.Load() != 1 {
		t.Fatalf("e2e-mcp run flows/: exit %d, %d logins:\n%s", code, logins.Load(), out)
	}
	ran := resultLines(out)
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, "convert", flows, "--to", "playwright", "--out", conv).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	for _, s := range []string{"log-in.setup.ts", "checkout.spec.ts", "solo.spec.ts", "greet.spec.ts"} {
		t.Logf("%s:\n%s", s, readFile(t, filepath.Join(conv, s)))
	}

	logins.Store(0)
	r, code := playwrightTest(t, filepath.Join(conv, "playwright.config.ts"))
	var fails []string
	for _, s := range r.Suites {
		fails = append(fails, s.failures()...)
	}
	for _, e := range r.Errors {
		fails = append(fails, e.Message)
	}
	if code != 0 || r.Stats.Expected != len(ran) || r.Stats.Unexpected != 0 || r.Stats.Skipped != 0 || logins.Load() != 1 {
		t.Fatalf("the converted directory under Playwright: exit %d, %+v, %d logins; want the %d tests e2e-mcp run ran (%s) passing and one login:\n%s",
			code, r.Stats, logins.Load(), len(ran), strings.Join(ran, ", "), strings.Join(fails, "\n"))
	}
	// The same tests by name: the setup flow and each row as run names them.
	var want, got []string
	for _, l := range ran {
		want = append(want, strings.TrimPrefix(l, "PASS "))
	}
	var walk func(s pwSuite)
	walk = func(s pwSuite) {
		for _, sp := range s.Specs {
			got = append(got, sp.Title)
		}
		for _, c := range s.Suites {
			walk(c)
		}
	}
	for _, s := range r.Suites {
		walk(s)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("Playwright's tests: %q; e2e-mcp run's flows: %q", got, want)
	}
}
