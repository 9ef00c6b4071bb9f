package e2e

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunDataRows: a flow with data: runs once per row, of a CSV beside it
// or of its own list, each run named by its row's name field or number,
// its ${row.FIELD} typed and checked as the row has it (a $ in a field is
// a $; ${NAME} still reads the environment); a row that fails fails alone
// (JUnit has each row); a field a row lacks is exit 2 naming the row and
// the field, before anything starts.
func TestRunDataRows(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /data/greet.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>Greet</title><label>Name <input></label><button>Go</button><p role=status></p>`+
				`<script>document.querySelector('button').onclick = () => { document.querySelector('p').textContent = 'Hello ' + document.querySelector('input').value }</script>`)
		})
	})
	dir := t.TempDir()
	steps := "steps:\n  - navigate: /data/greet.html\n  - type: {target: 'role=textbox[name=\"Name\"]', text: '%s'}\n" +
		"  - click: 'role=button[name=\"Go\"]'\n  - expect: {target: 'role=status', check: text, expected: 'Hello %s', timeout: 1}\n"
	writeFiles(t, dir, map[string]string{
		"greet.yaml":  "name: greet\nbaseURL: " + f.URL + "\ndata: people.csv\n" + fmt.Sprintf(steps, "${row.who}", "${row.expect}"),
		"people.csv":  "name,who,expect\nada,Ada,Ada\n,Bob $HOME,Bob $HOME\n,Eve,Mallory\n",
		"inline.yaml": "name: inline\nbaseURL: " + f.URL + "\ndata:\n  - {who: Zed}\n" + fmt.Sprintf(steps, "${row.who} ${SUFFIX}", "${row.who} Jr"),
	})
	env, tmp := runEnvironment(t)
	env = append(env, "SUFFIX=Jr")
	junit := filepath.Join(dir, "junit.xml")
	out, code := runFlows(t, env, filepath.Join(dir, "greet.yaml"), filepath.Join(dir, "inline.yaml"), "--junit", junit)
	if code != 1 || strings.Join(resultLines(out), ", ") != "PASS greet [ada], PASS greet [row 2], FAIL greet [row 3], PASS inline [row 1]" {
		t.Fatalf("a run of the rows: exit %d:\n%s", code, out)
	}
	mustContain(t, "the failing row", out, "Mallory")
	if j, b := readRunJUnit(t, junit); strings.Join(j.cases(), ", ") != "greet [ada] passed, greet [row 2] passed, greet [row 3] failed, inline [row 1] passed" {
		t.Errorf("the JUnit file: %v\n%s", j.cases(), b)
	}
	requireNoChrome(t, tmp, 10*time.Second)

	writeFiles(t, dir, map[string]string{"people.csv": "name,who\nada,Ada\n"})
	out, code = runFlows(t, env, filepath.Join(dir, "greet.yaml"))
	if code != 2 || !strings.Contains(out, "flow greet: data row 1 has no field expect (step 4 reads ${row.expect})") {
		t.Errorf("a row without a field the flow reads: exit %d:\n%s", code, out)
	}
}
