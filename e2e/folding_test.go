package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/bigpages"
	"github.com/mark3labs/mcp-go/client"
)

// answerBudget is the most one answer may take with default flags.
const answerBudget = 16 << 10

var (
	// A fold line: "- … 1,497 more rows (…) [target=e5 from=4]".
	foldRE = regexp.MustCompile(`- … ([\d,]+) (?:more|earlier) [^\n]*?\[(?:target=(\S+) )?from=(\d+)\]`)
	// An element of a snapshot line with its ref: role, quoted name, attributes.
	refItemRE = regexp.MustCompile(`([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?((?: \[[a-z]+(?:=[^\]]*)?\])*) \[ref=((?:f\d+)?e\d+)\]`)
)

type foldRef struct{ target, from string }

func bigPagesRoute(mux *http.ServeMux, _ *fixture) {
	for _, p := range bigpages.All() {
		mux.HandleFunc("GET /big/"+p.Name, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(p.HTML))
		})
	}
}

// refsIn lists the refs a snapshot text shows, with the role and name
// beside each (a fold's target ref is not an element's).
func refsIn(s string) map[string]string {
	out := map[string]string{}
	for _, m := range refItemRE.FindAllStringSubmatch(s, -1) {
		out[m[4]] = m[1] + " " + m[2]
	}
	return out
}

func foldsIn(s string) []foldRef {
	var out []foldRef
	for _, m := range foldRE.FindAllStringSubmatch(s, -1) {
		if strings.Contains(m[0], "earlier") {
			continue
		}
		out = append(out, foldRef{m[2], m[3]})
	}
	return out
}

// openAll opens every fold of a folded answer, and the folds those show,
// and returns every ref seen on the way.
func openAll(t *testing.T, c *client.Client, first string) map[string]string {
	t.Helper()
	seen := refsIn(first)
	queue := foldsIn(first)
	done := map[foldRef]bool{}
	for calls := 0; len(queue) > 0; calls++ {
		if calls > 400 {
			t.Fatalf("more than 400 folds to open")
		}
		f := queue[0]
		queue = queue[1:]
		if done[f] {
			continue
		}
		done[f] = true
		args := map[string]any{"from": mustAtoi(t, f.from)}
		if f.target != "" {
			args["target"] = f.target
		}
		out := mustCall(t, c, "browser_snapshot", args)
		if len(out) > answerBudget {
			t.Errorf("opening %+v answered %d bytes, over %d", f, len(out), answerBudget)
		}
		for r, what := range refsIn(out) {
			seen[r] = what
		}
		queue = append(queue, foldsIn(out)...)
	}
	return seen
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}

// TestFoldedBigPages: on big pages of five shapes, the navigate answer is
// folded within the budget, and nothing folded is out of reach: every
// element with a ref in the whole tree is reached by opening folds, with
// the same ref; browser_find by role and name gives the ref of the task's
// control, and a click on it reaches that element.
func TestFoldedBigPages(t *testing.T) {
	f := newFixture(t, bigPagesRoute)
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_FILE_ROOTS="+tmp)
	c := startClient(t, env)
	for _, p := range bigpages.All() {
		t.Run(p.Name, func(t *testing.T) {
			nav := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/big/" + p.Name})
			if len(nav) > answerBudget {
				t.Errorf("navigate answered %d bytes, over %d", len(nav), answerBudget)
			}
			if len(foldsIn(nav)) == 0 {
				t.Fatalf("the big page was not folded:\n%.2000s", nav)
			}
			file := filepath.Join(tmp, p.Name+".yaml")
			out := mustCall(t, c, "browser_snapshot", map[string]any{"filename": file})
			mustContain(t, "snapshot to a file", out, "Wrote the snapshot", file)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			whole := string(b)
			if strings.Contains(whole, "- … ") {
				t.Fatalf("the whole tree in the file has fold lines")
			}
			all := refsIn(whole)
			reached := openAll(t, c, nav)
			for ref, what := range all {
				got, ok := reached[ref]
				switch {
				case !ok:
					t.Errorf("%s (%s) is in the whole tree but no fold opened shows it", ref, what)
				case got != what:
					t.Errorf("%s is %s in the whole tree but %s in the folded view", ref, what, got)
				}
			}
			if t.Failed() {
				return
			}
			found := mustCall(t, c, "browser_find", map[string]any{"role": p.Role, "name": p.Target})
			want := regexp.MustCompile(regexp.QuoteMeta(p.Role+` "`+p.Target+`"`) + `[^\]]*\[ref=(e\d+)\]`).FindStringSubmatch(whole)
			if want == nil {
				t.Fatalf("no %s %q in the whole tree", p.Role, p.Target)
			}
			mustContain(t, "find", found, "[ref="+want[1]+"]")
			click := mustCall(t, c, "browser_click", map[string]any{"target": want[1]})
			mustContain(t, "the click's answer", click, p.Done)
			if len(click) > answerBudget {
				t.Errorf("the click answered %d bytes", len(click))
			}
		})
	}
}

// TestFoldOpensWhatItFolded: the rows a table's fold counts are exactly the
// rows opening it lists, in order, page after page.
func TestFoldOpensWhatItFolded(t *testing.T) {
	f := newFixture(t, bigPagesRoute)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	nav := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/big/orders"})
	m := regexp.MustCompile(`- … ([\d,]+) more rows \("Select order (\d+)" … "Select order (\d+)"\) \[target=(e\d+) from=(\d+)\]`).FindStringSubmatch(nav)
	if m == nil {
		t.Fatalf("no fold of rows in:\n%s", nav)
	}
	count, next, target, from := mustAtoi(t, m[1]), mustAtoi(t, m[2]), m[4], mustAtoi(t, m[5])
	rowRE := regexp.MustCompile(`(?m)^  - row: checkbox "Select order (\d+)"`)
	seen := 0
	for pages := 0; seen < count; pages++ {
		if pages > 100 {
			t.Fatalf("still not through the fold after 100 pages (%d of %d rows)", seen, count)
		}
		out := mustCall(t, c, "browser_snapshot", map[string]any{"target": target, "from": from})
		rows := rowRE.FindAllStringSubmatch(out, -1)
		if len(rows) == 0 {
			t.Fatalf("opening from=%d shows no rows:\n%.3000s", from, out)
		}
		for _, r := range rows {
			if n := mustAtoi(t, r[1]); n != next {
				t.Fatalf("opened the fold at from=%d: row %d, want %d", from, n, next)
			}
			next++
			seen++
		}
		cont := regexp.MustCompile(`(?m)^  - … ([\d,]+) more rows [^\n]*\[target=` + target + ` from=(\d+)\]`).FindStringSubmatch(out)
		if cont == nil {
			break
		}
		if left := mustAtoi(t, cont[1]); left != count-seen {
			t.Fatalf("after %d rows the next fold counts %d, want %d", seen, left, count-seen)
		}
		from = mustAtoi(t, cont[2])
	}
	if seen != count {
		t.Errorf("the fold counted %d rows, opening it showed %d", count, seen)
	}
	mustFail(t, c, "browser_snapshot", map[string]any{"target": target, "from": 99999}, "invalid_input")
}

// TestFoldedRefsGoStale: a ref found in a folded region names that element
// only: once the page renders the region again, it is refused as stale, and
// the page itself is untouched by the attempt.
func TestFoldedRefsGoStale(t *testing.T) {
	page := func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /rerender", func(w http.ResponseWriter, _ *http.Request) {
			var b strings.Builder
			b.WriteString(`<!doctype html><title>Items</title><main><h1>Items</h1><button onclick="render(2)">Reload rows</button><ul id="l"></ul><p id="out"></p></main><script>
function render(gen){const l=document.getElementById('l');l.innerHTML='';for(let i=1;i<=200;i++){const li=document.createElement('li');const b=document.createElement('button');b.textContent='Open item '+i;b.onclick=()=>{document.getElementById('out').textContent='opened '+i+' of generation '+gen};li.append(b);l.append(li)}}
render(1);</script>`)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, b.String())
		})
	}
	f := newFixture(t, page)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	nav := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/rerender"})
	if strings.Contains(nav, `"Open item 150"`) {
		t.Fatalf("item 150 is not folded:\n%s", nav)
	}
	found := mustCall(t, c, "browser_find", map[string]any{"role": "button", "name": "Open item 150"})
	m := regexp.MustCompile(`button "Open item 150" \[ref=(e\d+)\]`).FindStringSubmatch(found)
	if m == nil {
		t.Fatalf("find gave no ref:\n%s", found)
	}
	out := mustCall(t, c, "browser_click", map[string]any{"target": m[1]})
	mustContain(t, "click by a found ref", out, "opened 150 of generation 1")
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Reload rows']"})
	mustFail(t, c, "browser_click", map[string]any{"target": m[1]}, "ref_stale")
	if got := mustCall(t, c, "browser_get_content", map[string]any{"target": "#out"}); strings.Contains(got, "generation 2") {
		t.Errorf("a stale ref clicked another element: %s", got)
	}
}

// TestSmallPagesAreWhole: a page within the budget comes back whole, with
// no fold line, as before folding existed.
func TestSmallPagesAreWhole(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	nav := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	if strings.Contains(nav, "- … ") || strings.Contains(nav, "folded") {
		t.Errorf("the sign-up form was folded:\n%s", nav)
	}
	mustContain(t, "sign-up form", nav, `textbox "Name"`, `checkbox "I accept the terms"`, `button "Sign up"`, `heading "Create your account"`)
}

// TestSnapshotSeesScriptChanges: a snapshot reads again only what changed,
// so it must see every kind of change a script makes: a value or checked
// state set as a property (no event, no attribute), a style rule added
// through the CSSOM, a class toggled, text replaced.
func TestSnapshotSeesScriptChanges(t *testing.T) {
	page := func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /scripted", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Scripted</title><style>.gone{display:none}</style><main>
<label>Code <input id="code" value="first"></label><label><input type="checkbox" id="agree"> Agree</label>
<p id="note">Note one</p><p id="tip">Tip shown</p><button id="b">Go</button></main>`)
		})
	}
	f := newFixture(t, page)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/scripted"})
	steps := []struct {
		script, want, gone string
	}{
		{`() => { document.getElementById('code').value = 'second'; }`, `textbox "Code" [ref=e1]: second`, "first"},
		{`() => { document.getElementById('agree').checked = true; }`, `checkbox "Agree" [checked]`, ""},
		{`() => { document.styleSheets[0].insertRule('#tip { display: none }', 0); }`, "Note one", "Tip shown"},
		{`() => { document.getElementById('note').classList.add('gone'); }`, "", "Note one"},
		{`() => { document.getElementById('b').textContent = 'Went'; }`, `button "Went"`, `button "Go"`},
	}
	for _, s := range steps {
		mustCall(t, c, "browser_evaluate", map[string]any{"function": s.script})
		out := mustCall(t, c, "browser_snapshot", nil)
		if s.want != "" && !strings.Contains(out, s.want) {
			t.Errorf("after %s the snapshot lacks %q:\n%s", s.script, s.want, out)
		}
		if s.gone != "" && strings.Contains(out, s.gone) {
			t.Errorf("after %s the snapshot still shows %q:\n%s", s.script, s.gone, out)
		}
	}
}

// TestClickAnswerShowsWhatItsFetchDid: a click whose handler awaits a fetch
// (without reading its body) and then changes the page answers with that
// change, every time: the action waits for the response and lets the
// page's code after it run before reading what changed.
func TestClickAnswerShowsWhatItsFetchDid(t *testing.T) {
	page := func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /fetcher", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Fetcher</title><main><button id="b">Save</button><p id="out">idle</p></main><script>
let n = 0;
document.getElementById('b').addEventListener('click', async () => {
  const mine = ++n;
  const res = await fetch('/api/slow?n=' + mine, {method: 'POST'});
  document.getElementById('out').textContent = 'saved ' + mine + ' (' + res.status + ')';
});</script>`)
		})
		mux.HandleFunc("POST /api/slow", func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(80 * time.Millisecond) // a server that takes its time
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok":true,"padding":"`+strings.Repeat("x", 2000)+`"}`)
		})
	}
	f := newFixture(t, page)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/fetcher"})
	for i := 1; i <= 5; i++ {
		out := mustCall(t, c, "browser_click", map[string]any{"target": "#b"})
		mustContain(t, "click answer", out, fmt.Sprintf("saved %d (200)", i))
	}
}

// TestFoldKeepsWhatIsOnScreen: scrolled into the middle of a long table,
// a snapshot shows the rows on screen (with refs that act) besides the
// table's first rows; at the top of the page it shows only the first rows.
func TestFoldKeepsWhatIsOnScreen(t *testing.T) {
	f := newFixture(t, bigPagesRoute)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	top := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/big/orders"})
	mustContain(t, "top of the page", top, `button "Ship 1"`)
	if strings.Contains(top, `"Ship 700"`) {
		t.Fatalf("row 700 is shown at the top of the page:\n%s", top)
	}
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { document.querySelectorAll('tbody tr')[699].scrollIntoView({block: 'start'}); return scrollY }"})
	snap := mustCall(t, c, "browser_snapshot", map[string]any{})
	if len(snap) > answerBudget {
		t.Fatalf("snapshot of %d bytes, over %d", len(snap), answerBudget)
	}
	mustContain(t, "scrolled snapshot", snap, `button "Ship 1"`)
	refs := refsIn(snap)
	var ref string
	shown := 0
	for r, item := range refs {
		if !strings.HasPrefix(item, `button "Ship `) {
			continue
		}
		n := mustAtoi(t, strings.TrimSuffix(strings.TrimPrefix(item, `button "Ship `), `"`))
		if n >= 700 && n < 720 {
			shown++
		}
		if n == 703 {
			ref = r
		}
	}
	if shown < 3 || ref == "" {
		t.Fatalf("%d rows from 700 on shown, ref of Ship 703 %q:\n%s", shown, ref, snap)
	}
	if len(foldsIn(snap)) < 2 {
		t.Fatalf("the rows before and after the screen are not folded:\n%s", snap)
	}
	out := mustCall(t, c, "browser_click", map[string]any{"target": ref})
	mustContain(t, "click on a row on screen", out, "Order 703 shipped")
}
