package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// A property of the recorder: whatever a session did, its flow replays.
// randomSessions records sessions of a seeded random agent over the
// fixture pages (forms, checkboxes, selects, keys, hover, iframes of
// three kinds, a canvas by coordinates, uploads, page code), each acting
// on the refs its last snapshot gave it, reading, checking what it read,
// and exports each as a flow (with assertReads) and a spec.

// randomPage is a fixture page the random agent acts on, and the selector
// of what shows it has loaded (a cross-site iframe loads after the page).
type randomPage struct {
	path, ready string
	canvas      bool // acts by coordinates too
	upload      bool // uploads files
}

var randomPages = []randomPage{
	{path: "/signup.html"},
	{path: "/input/check.html"},
	{path: "/input/select.html"},
	{path: "/input/keys.html"},
	{path: "/input/hover.html"},
	{path: "/reads/index.html"},
	{path: "/frames/index.html?other=OTHER", ready: `iframe[title="Partner newsletter"] >> role=button[name="Subscribe"]`},
	{path: "/vision/canvas.html", canvas: true},
	{path: "/input/upload.html", upload: true},
}

// snapRefRE is a snapshot line with a ref: its indent, role, name (JSON),
// attributes and ref.
var snapRefRE = regexp.MustCompile(`(?m)^( *)- '?([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?([^\n]*)\[ref=((?:f\d+)?e\d+)\]`)

// snapRef is an element of a snapshot the agent may act on.
type snapRef struct {
	role, name, ref string
	options         []string // a combobox or listbox's options
}

// refsOf reads the refs of a snapshot, with each select's options.
func refsOf(snap string) []snapRef {
	var out []snapRef
	lines := strings.Split(snap, "\n")
	for i, l := range lines {
		m := snapRefRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if strings.Contains(m[4], "[disabled]") {
			continue // an agent does not click what the snapshot says is disabled
		}
		r := snapRef{role: m[2], ref: m[5]}
		if m[3] != "" {
			_ = json.Unmarshal([]byte(m[3]), &r.name)
		}
		if r.role == "combobox" || r.role == "listbox" {
			for j := i + 1; j < len(lines) && len(lines[j])-len(strings.TrimLeft(lines[j], " ")) > len(m[1]); j++ {
				if o := regexp.MustCompile(`- option "([^"]*)"`).FindStringSubmatch(lines[j]); o != nil && o[1] != "" {
					r.options = append(r.options, o[1])
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// statusOf is the main frame's status text in a snapshot, or "".
var statusLineRE = regexp.MustCompile(`(?m)^  - status: (.+)$`)

// randomAgent is one session of the random agent.
type randomAgent struct {
	t       *testing.T
	c       *client.Client
	rng     *rand.Rand
	session string
	log     []string
	snap    string
}

func (a *randomAgent) call(tool string, args map[string]any) (string, bool) {
	a.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	args["sessionId"] = a.session
	start := time.Now()
	res := call(a.t, a.c, tool, args)
	b, _ := json.Marshal(args)
	line := fmt.Sprintf("%s %s (%.1fs)", tool, b, time.Since(start).Seconds())
	if res.IsError {
		line += " -> " + strings.SplitN(text(res), "\n", 3)[1]
	}
	a.log = append(a.log, line)
	if strings.Contains(text(res), "### Snapshot\n") && !res.IsError {
		a.snap = text(res)
	}
	return text(res), res.IsError
}

func (a *randomAgent) pick(n int) int { return a.rng.IntN(n) }

// act does one random thing on the page.
func (a *randomAgent) act(page randomPage, files []string) {
	words := []string{"Ada", "grace@example.com", "$HOME and $$", "Grüße", "x"}
	refs := refsOf(a.snap)
	switch k := a.pick(10); {
	case k < 5 && len(refs) > 0:
		r := refs[a.pick(len(refs))]
		switch r.role {
		case "button", "tab", "menuitem":
			a.call("browser_click", map[string]any{"target": r.ref})
		case "checkbox", "radio", "switch":
			tool := "browser_check"
			if a.pick(3) == 0 && r.role == "checkbox" {
				tool = "browser_uncheck"
			}
			a.call(tool, map[string]any{"target": r.ref})
		case "textbox", "searchbox", "spinbutton":
			args := map[string]any{"target": r.ref, "text": words[a.pick(len(words))]}
			if a.pick(3) == 0 {
				args["submit"] = true
			}
			a.call("browser_type", args)
		case "combobox", "listbox":
			if len(r.options) > 0 {
				a.call("browser_select_option", map[string]any{"target": r.ref, "values": []string{r.options[a.pick(len(r.options))]}})
			}
		default:
			a.call("browser_hover", map[string]any{"target": r.ref})
		}
	case k == 5 && page.canvas:
		x, y := 10+a.pick(380), 10+a.pick(280)
		switch a.pick(4) {
		case 0:
			a.call("browser_mouse_click_xy", map[string]any{"x": x, "y": y})
		case 1:
			a.call("browser_mouse_drag_xy", map[string]any{"startX": x, "startY": y, "endX": 10 + a.pick(380), "endY": 10 + a.pick(280)})
		case 2:
			a.call("browser_mouse_move_xy", map[string]any{"x": x, "y": y})
			a.call("browser_mouse_down", nil)
			a.call("browser_mouse_move_xy", map[string]any{"x": 10 + a.pick(380), "y": 10 + a.pick(280)})
			a.call("browser_mouse_up", nil)
		default:
			a.call("browser_mouse_wheel", map[string]any{"x": x, "y": y, "deltaY": 100 * (1 + a.pick(4))})
		}
	case k == 5 && page.upload && len(files) > 0:
		a.call("browser_file_upload", map[string]any{"target": "#files", "paths": []string{files[a.pick(len(files))]}})
	case k == 6:
		// Not the keys that scroll: the page scrolls smoothly after the
		// press has answered, so where it is when the next step comes
		// (and what the canvas page then logs) depends on timing.
		a.call("browser_press_key", map[string]any{"key": []string{"Tab", "a", "Escape", "Shift+Tab"}[a.pick(4)]})
	case k == 7:
		a.call("browser_evaluate", map[string]any{"function": fmt.Sprintf("() => { window.scrollTo(0, %d); return document.title; }", 10*a.pick(30))})
	case k == 8:
		a.call("browser_snapshot", nil)
	default:
		// Check what the page's status says, as an agent that read it.
		a.call("browser_snapshot", nil)
		if m := statusLineRE.FindStringSubmatch(a.snap); m != nil {
			var want string
			if json.Unmarshal([]byte(m[1]), &want) != nil {
				want = m[1]
			}
			a.call("browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": want})
		}
	}
}

// randomSessions records n sessions of the random agent (seeds from
// seed) on the fixture site f, exports each under dir as SESSION.yaml
// with assertReads, and returns the flow files, and each session's calls
// by file for a failure's report.
func randomSessions(t *testing.T, f *fixture, dir string, seed uint64, n int) ([]string, map[string][]string) {
	t.Helper()
	other := strings.Replace(f.URL, "127.0.0.1", "localhost", 1)
	elsewhere := t.TempDir()
	var files []string
	for i := range 3 {
		p := filepath.Join(elsewhere, fmt.Sprintf("file-%d.txt", i))
		if err := os.WriteFile(p, []byte(strings.Repeat("x", 10*(i+1))), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_CAPS=vision",
		"E2E_MCP_FILE_ROOTS="+dir+string(os.PathListSeparator)+elsewhere)
	c := startClient(t, env)
	var flows []string
	calls := map[string][]string{}
	for i := range n {
		s := seed + uint64(i)
		a := &randomAgent{t: t, c: c, rng: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)), session: "random-" + strconv.FormatUint(s, 10)}
		for range 2 + a.pick(2) {
			page := randomPages[a.pick(len(randomPages))]
			if _, isErr := a.call("browser_navigate", map[string]any{"url": f.URL + strings.Replace(page.path, "OTHER", other, 1)}); isErr {
				continue
			}
			if page.ready != "" {
				a.call("browser_wait_for", map[string]any{"target": page.ready})
				a.call("browser_snapshot", nil)
			}
			for range 3 + a.pick(4) {
				a.act(page, files)
			}
		}
		file := filepath.Join(dir, a.session+".yaml")
		if out, isErr := a.call("session_export_flow", map[string]any{"path": file, "name": a.session, "assertReads": true}); isErr {
			t.Fatalf("%s: the export failed:\n%s\ncalls:\n%s", a.session, out, strings.Join(a.log, "\n"))
		}
		a.call("session_end", nil)
		flows = append(flows, file)
		calls[file] = a.log
		if os.Getenv("E2E_REPLAY_LOG") != "" {
			t.Logf("%s:\n%s", a.session, strings.Join(a.log, "\n"))
		}
	}
	return flows, calls
}

// randomSeed is the first seed of the random sessions: fixed, so a failure
// comes back; E2E_REPLAY_SEED tries others.
func randomSeed(t *testing.T) uint64 {
	seed := uint64(38)
	if v, err := strconv.ParseUint(os.Getenv("E2E_REPLAY_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("random sessions from seed %d (E2E_REPLAY_SEED)", seed)
	return seed
}

// uploadSite is the fixture site with the upload endpoint the upload page
// posts to.
func uploadSite(t *testing.T) *fixture {
	return newFixture(t, func(mux *http.ServeMux, _ *fixture) {
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
}

// TestReplayRandomSessions: every flow a random session exports replays
// with e2e-mcp run, and converts to a Playwright spec with every step
// written (make playwright-check runs those specs).
func TestReplayRandomSessions(t *testing.T) {
	f := uploadSite(t)
	dir := t.TempDir()
	start := time.Now()
	flows, calls := randomSessions(t, f, dir, randomSeed(t), 10)
	t.Logf("%d sessions recorded in %s", len(flows), time.Since(start).Round(time.Millisecond))
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_FILE_ROOTS="+dir)
	start = time.Now()
	out, code := runFlows(t, env, append([]string{"--parallel", "2"}, flows...)...)
	t.Logf("replayed in %s", time.Since(start).Round(time.Millisecond))
	for _, file := range flows {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		if !strings.Contains(out, "PASS  "+name+" (") {
			b, _ := os.ReadFile(file)
			t.Errorf("%s does not replay green:\n--- the session's calls:\n%s\n--- its flow:\n%s", name, strings.Join(calls[file], "\n"), b)
		}
	}
	if code != 0 {
		t.Fatalf("e2e-mcp run: exit %d:\n%s", code, out)
	}
	conv := filepath.Join(dir, "specs")
	if o, err := exec.Command(bin, append([]string{"convert", "--to", "playwright", "--out", conv}, flows...)...).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	} else if strings.Contains(string(o), "not exported") {
		t.Errorf("a step has no Playwright code:\n%s", o)
	}
}
