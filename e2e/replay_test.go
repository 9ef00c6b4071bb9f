package e2e

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/mark3labs/mcp-go/client"
)

// Issue 38, part 1: what the agent did replays, always. Each test records
// a session through MCP, exports its flow and its Playwright spec, and
// replays the flow with e2e-mcp run.

// replaySession is a session of a server whose files (flows, specs,
// uploads) are under dir.
type replaySession struct {
	t   *testing.T
	c   *client.Client
	env []string
	dir string
}

// newReplaySession starts a server with the vision group and dir as its
// file roots.
func newReplaySession(t *testing.T, roots ...string) *replaySession {
	t.Helper()
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_CAPS=vision",
		"E2E_MCP_FILE_ROOTS="+strings.Join(append([]string{dir}, roots...), string(os.PathListSeparator)))
	return &replaySession{t: t, c: startClient(t, env), env: env, dir: dir}
}

func (r *replaySession) must(tool string, args map[string]any) string {
	r.t.Helper()
	return mustCall(r.t, r.c, tool, args)
}

// export writes the session's flow (and, with spec, its Playwright spec)
// under dir and returns the flow's text, the spec's and the export's
// answer.
func (r *replaySession) export(name string, more map[string]any) (flowText, specText, answer string) {
	r.t.Helper()
	flowFile := filepath.Join(r.dir, name+".yaml")
	args := map[string]any{"path": flowFile, "name": name}
	for k, v := range more {
		args[k] = v
	}
	answer = r.must("session_export_flow", args)
	b, err := os.ReadFile(flowFile)
	if err != nil {
		r.t.Fatal(err)
	}
	args["path"], args["format"] = filepath.Join(r.dir, name+".spec.ts"), "playwright"
	r.must("session_export_flow", args)
	s, err := os.ReadFile(filepath.Join(r.dir, name+".spec.ts"))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b), string(s), answer
}

// replay runs flows with e2e-mcp run and fails the test unless each
// passes.
func (r *replaySession) replay(files ...string) string {
	r.t.Helper()
	out, code := runFlows(r.t, r.env, files...)
	if code != 0 || strings.Count(out, "PASS  ") != len(files) {
		for _, f := range files {
			b, _ := os.ReadFile(f)
			r.t.Logf("%s:\n%s", f, b)
		}
		r.t.Fatalf("the flows do not replay green (exit %d):\n%s", code, out)
	}
	return out
}

// stepLines are a flow's steps one a line, "action key=value..." with
// the arguments in name order, whatever layout the file has.
func stepLines(t *testing.T, text string) string {
	t.Helper()
	f, err := flow.Parse([]byte(text))
	if err != nil {
		t.Fatalf("the flow does not parse: %v\n%s", err, text)
	}
	var b strings.Builder
	for _, st := range f.Steps {
		b.WriteString(st.Action)
		for _, k := range slices.Sorted(maps.Keys(st.Args)) {
			fmt.Fprintf(&b, " %s=%v", k, st.Args[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// blockUnder is the part of a snapshot under the first line that holds
// head, indented below it.
func blockUnder(t *testing.T, snap, head string) string {
	t.Helper()
	lines := strings.Split(snap, "\n")
	for i, l := range lines {
		if !strings.Contains(l, head) {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		j := i + 1
		for j < len(lines) && len(lines[j])-len(strings.TrimLeft(lines[j], " ")) > indent {
			j++
		}
		return strings.Join(lines[i:j], "\n")
	}
	t.Fatalf("no %q in the snapshot:\n%s", head, snap)
	return ""
}

// TestReplayFrames: a form in a same-site iframe, one in a cross-site
// iframe and one in an iframe inside an iframe, filled and sent through
// refs, export as locators that name their frames (title, the frames on
// the way) and convert to contentFrame() chains; the flow replays: each
// form's message reaches the page in order. (The old recorder wrote the
// bare role=textbox[name="Email address"], which the replay did not find.)
func TestReplayFrames(t *testing.T) {
	f := newFixture(t)
	other := strings.Replace(f.URL, "127.0.0.1", "localhost", 1)
	r := newReplaySession(t)
	r.must("browser_navigate", map[string]any{"url": f.URL + "/frames/index.html?other=" + other})
	// The cross-site form loads after the page.
	r.must("browser_wait_for", map[string]any{"target": `iframe[title="Partner newsletter"] >> role=button[name="Subscribe"]`})
	r.must("browser_wait_for", map[string]any{"target": `iframe[name="outer"] >> iframe >> role=button[name="Subscribe"]`})
	snap := r.must("browser_snapshot", nil)
	want := []string{}
	for _, c := range []struct{ head, email string }{
		{`iframe "Our newsletter"`, "ada@ours.test"},
		{`iframe "Partner newsletter"`, "grace@partner.test"},
		{`iframe "Inner"`, "linus@inner.test"},
	} {
		block := blockUnder(t, snap, c.head)
		r.must("browser_type", map[string]any{"target": refOf(t, block, "textbox", "Email address"), "text": c.email})
		r.must("browser_click", map[string]any{"target": refOf(t, block, "button", "Subscribe")})
		who := map[string]string{"ada@ours.test": "ours", "grace@partner.test": "partner", "linus@inner.test": "inner"}[c.email]
		want = append(want, who+" "+c.email)
	}
	r.must("browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": strings.Join(want, ", ")})

	flowText, spec, _ := r.export("frames", nil)
	mustContain(t, "the flow's steps", stepLines(t, flowText),
		`type target=iframe[title="Our newsletter"] >> role=textbox[name="Email address"] text=ada@ours.test`,
		`click target=iframe[title="Our newsletter"] >> role=button[name="Subscribe"]`,
		`type target=iframe[title="Partner newsletter"] >> role=textbox[name="Email address"] text=grace@partner.test`,
		`click target=iframe[title="Partner newsletter"] >> role=button[name="Subscribe"]`,
		`type target=iframe[name="outer"] >> iframe[title="Inner"] >> role=textbox[name="Email address"] text=linus@inner.test`,
		`click target=iframe[name="outer"] >> iframe[title="Inner"] >> role=button[name="Subscribe"]`)
	if regexp.MustCompile(`(?m)target: '?role=(textbox|button)`).MatchString(flowText) {
		t.Errorf("a step lost its frame:\n%s", flowText)
	}
	mustContain(t, "the spec", spec,
		`await page.locator('iframe[title="Our newsletter"]').contentFrame().getByRole('textbox', { name: 'Email address', exact: true }).fill('ada@ours.test');`,
		`await page.locator('iframe[title="Partner newsletter"]').contentFrame().getByRole('button', { name: 'Subscribe', exact: true }).click();`,
		`await page.locator('iframe[name="outer"]').contentFrame().locator('iframe[title="Inner"]').contentFrame().getByRole('textbox', { name: 'Email address', exact: true }).fill('linus@inner.test');`)
	r.replay(filepath.Join(r.dir, "frames.yaml"))
}

// TestReplayPageCodeAndMouse: browser_evaluate (on the page and on an
// element) and every tool of the mouse at coordinates are steps of the
// flow and lines of the spec (page code marked as such, the mouse through
// page.mouse, a drag in as many moves as e2e-mcp makes); the flow
// replays: each check after them holds only if they ran as in the session.
// (The old recorder left them all out: the flow held only the checks.)
func TestReplayPageCodeAndMouse(t *testing.T) {
	f := newFixture(t)
	r := newReplaySession(t)
	r.must("browser_navigate", map[string]any{"url": f.URL + "/vision/canvas.html"})
	expect := func(text string) {
		r.must("browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": text})
	}
	r.must("browser_mouse_click_xy", map[string]any{"x": 150, "y": 250})
	expect("Clicked cell 1,2")
	r.must("browser_mouse_drag_xy", map[string]any{"startX": 50, "startY": 50, "endX": 250, "endY": 150})
	expect("Dragged from 50,50 to 250,150")
	r.must("browser_evaluate", map[string]any{"target": "role=status", "function": "(el) => { el.textContent = 'Reset by $PAGE code'; }"})
	expect("Reset by $PAGE code")
	r.must("browser_mouse_move_xy", map[string]any{"x": 20, "y": 30})
	r.must("browser_mouse_down", map[string]any{})
	r.must("browser_mouse_move_xy", map[string]any{"x": 320, "y": 230})
	r.must("browser_mouse_up", map[string]any{})
	expect("Dragged from 20,30 to 320,230")
	r.must("browser_mouse_wheel", map[string]any{"x": 100, "y": 100, "deltaY": 400})
	expect("Scrolled to 400")
	r.must("browser_evaluate", map[string]any{"function": "() => window.scrollTo(0, 120)"})
	expect("Scrolled to 120")

	flowText, spec, answer := r.export("canvas", nil)
	mustContain(t, "the flow's steps", stepLines(t, flowText),
		"mouse_click_xy x=150 y=250", "mouse_drag_xy endX=250 endY=150 startX=50 startY=50",
		"evaluate function=(el) => { el.textContent = 'Reset by $$PAGE code'; } target=role=status",
		"mouse_move_xy x=20 y=30", "mouse_down\n", "mouse_up\n", "mouse_wheel deltaY=400 x=100 y=100",
		"evaluate function=() => window.scrollTo(0, 120)")
	mustContain(t, "the spec", spec,
		"await page.mouse.click(150, 250);",
		"await page.mouse.move(50, 50);\n  await page.mouse.down();\n  await page.mouse.move(250, 150, { steps: 10 });\n  await page.mouse.up();",
		"// page code the agent ran",
		`await page.getByRole('status').evaluate(pageCode('(el) => { el.textContent = \'Reset by $PAGE code\'; }'));`,
		"await page.mouse.move(20, 30);", "await page.mouse.down();", "await page.mouse.up();",
		"await page.mouse.wheel(0, 400);", "await page.evaluate(pageCode('() => window.scrollTo(0, 120)'));")
	if strings.Contains(answer, "Left out") {
		t.Errorf("the export left calls out:\n%s", answer)
	}
	r.replay(filepath.Join(r.dir, "canvas.yaml"))
}

// TestReplayUploadsBeside: a file uploaded from outside the flow's
// directory is copied beside the flow (canvas.files/) and named relative
// to it, one inside it is named relative to it as it is, in the flow and
// the spec; moved to another directory with the originals gone, the flow
// replays and the server gets the same files. (The old recorder wrote the
// recording machine's absolute paths.)
func TestReplayUploadsBeside(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("POST /api/upload", func(w http.ResponseWriter, req *http.Request) {
			if err := req.ParseMultipartForm(1 << 20); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var names []string
			for _, fh := range req.MultipartForm.File["file"] {
				names = append(names, fmt.Sprintf("%s:%d", fh.Filename, fh.Size))
			}
			fmt.Fprint(w, strings.Join(names, ","))
		})
	})
	elsewhere := t.TempDir()
	r := newReplaySession(t, elsewhere)
	write := func(dir, name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := write(elsewhere, "report.txt", "quarterly numbers\n")
	photo := write(r.dir, "fixtures/photo.png", strings.Repeat("x", 1234))
	r.must("browser_navigate", map[string]any{"url": f.URL + "/input/upload.html"})
	r.must("browser_file_upload", map[string]any{"target": "#files", "paths": []string{report, photo}})
	r.must("browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "server got report.txt:18,photo.png:1234"})

	flowText, spec, answer := r.export("upload", nil)
	mustContain(t, "the flow's steps", stepLines(t, flowText), "upload paths=[upload.files/report.txt fixtures/photo.png] target=#files")
	mustContain(t, "the answer", answer, report+" -> upload.files/report.txt")
	if strings.Contains(flowText, elsewhere) || strings.Contains(flowText, r.dir) {
		t.Errorf("the flow names an absolute path:\n%s", flowText)
	}
	mustContain(t, "the spec", spec,
		"setInputFiles([path.resolve(path.dirname(test.info().file), 'upload.files/report.txt'), path.resolve(path.dirname(test.info().file), 'fixtures/photo.png')]);")
	if b, err := os.ReadFile(filepath.Join(r.dir, "upload.files", "report.txt")); err != nil || string(b) != "quarterly numbers\n" {
		t.Fatalf("the copy beside the flow: %q %v", b, err)
	}

	// Elsewhere: another directory, the originals gone.
	moved := filepath.Join(t.TempDir(), "checkout")
	if err := os.Rename(r.dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(report); err != nil {
		t.Fatal(err)
	}
	r.env = append(r.env, "E2E_MCP_FILE_ROOTS="+moved)
	r.replay(filepath.Join(moved, "upload.yaml"))
}

// TestReplayReadsAndLeftOut: a session that only acts and reads exports a
// flow that says it checks nothing (the answer, a comment atop the flow
// and the spec) and names the calls it left out (two of browser_tabs,
// not its list) and why. With assertReads, what the agent read after each
// step and the next step still found becomes checks: the heading and the
// status after the navigation, the new status and heading after the click
// (the heading already checked is not checked again), never the time the
// page wrote; that flow checks something, and replays.
func TestReplayReadsAndLeftOut(t *testing.T) {
	f := newFixture(t)
	r := newReplaySession(t)
	snap := r.must("browser_navigate", map[string]any{"url": f.URL + "/reads/index.html"})
	out := r.must("browser_click", map[string]any{"target": refOf(t, snap, "button", "Place order")})
	mustContain(t, "the click's answer", out, "Order placed", "Placed at ")
	r.must("browser_tabs", map[string]any{"action": "new"})
	r.must("browser_tabs", map[string]any{"action": "list"})
	r.must("browser_tabs", map[string]any{"action": "select", "index": 0})
	r.must("browser_snapshot", nil)

	flowText, spec, answer := r.export("orders", nil)
	mustContain(t, "the export's answer", answer, "Warning: the flow checks nothing", "assertReads: true",
		"Left out of the flow", "- browser_tabs (2 calls): a flow has no step that opens, selects or closes a tab")
	if !strings.HasPrefix(flowText, "# Warning: the flow checks nothing") {
		t.Errorf("the flow does not start by saying it checks nothing:\n%s", flowText)
	}
	mustContain(t, "the spec", spec, "// Warning: the flow checks nothing")

	flowText, spec, answer = r.export("orders-read", map[string]any{"assertReads": true})
	if strings.Contains(answer, "checks nothing") || strings.Contains(flowText, "# Warning") || strings.Contains(spec, "// Warning") {
		t.Errorf("a flow with checks is said to check nothing:\n%s\n%s", answer, flowText)
	}
	steps := stepLines(t, flowText)
	want := "navigate url=" + f.URL + "/reads/index.html\n" +
		"expect check=visible target=role=heading[name=\"Orders\"]\n" +
		"expect check=visible target=role=status >> text=\"No order yet\"\n" +
		"click target=role=button[name=\"Place order\"]\n" +
		"expect check=visible target=role=heading[name=\"Thank you\"]\n" +
		"expect check=visible target=role=status >> text=\"Order placed\"\n"
	if steps != want {
		t.Errorf("the flow's steps:\n%s\nwant:\n%s", steps, want)
	}
	mustContain(t, "the spec", spec, "await expect(page.getByRole('status').getByText('Order placed', { exact: true })).toBeVisible();",
		"await expect(page.getByRole('heading', { name: 'Thank you', exact: true })).toBeVisible();")
	r.replay(filepath.Join(r.dir, "orders-read.yaml"))
}
