package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Server keys, in column order.
const (
	e2eMCP     = "e2e-mcp"
	e2eVideo   = "e2e-mcp+video" // e2e-mcp recording the session's video: not a peer (videoTable)
	playwright = "playwright-mcp"
	devtools   = "chrome-devtools-mcp"
	agentBr    = "agent-browser"
)

var columnTitle = map[string]string{
	e2eMCP:     "e2e-mcp",
	e2eVideo:   "e2e-mcp, video on",
	playwright: "Playwright MCP",
	devtools:   "chrome-devtools-mcp",
	agentBr:    "agent-browser",
}

// spec is how to start one server over stdio.
type spec struct {
	Key   string   `json:"key"`
	Cmd   string   `json:"cmd"`
	Args  []string `json:"args"`
	Env   []string `json:"env,omitempty"`
	Close []string `json:"close,omitempty"` // a command that ends what outlives the client
}

// e2eSpec starts the e2e-mcp binary with flags that make the comparison
// fair: no cap on snapshots (the peers have none) and quiet logs.
func e2eSpec(bin, extra string) spec {
	return spec{Key: e2eMCP, Cmd: bin, Args: append([]string{"--max-snapshot-bytes", "0", "--log-level", "warn"}, strings.Fields(extra)...)}
}

// e2eVideoSpec is e2e-mcp with the video group, for the same scenarios
// with a video of the whole session recording (videoStart): what recording
// costs the actions.
func e2eVideoSpec(bin, extra string) spec {
	sp := e2eSpec(bin, extra)
	sp.Key, sp.Args = e2eVideo, append(sp.Args, "--caps", "video")
	return sp
}

// parseAnchors reads the command lines install-anchors.sh prints:
//
//	playwright-mcp:      CMD ARGS...
//	agent-browser (MCP): KEY=VAL... CMD mcp
//	agent-browser (CLI): CMD ARGS... <command> --json
func parseAnchors(path string) ([]spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	byLabel := map[string][]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		label, rest, ok := strings.Cut(line, ": ")
		if !ok || strings.HasPrefix(label, " ") {
			continue
		}
		byLabel[strings.TrimSpace(label)] = strings.Fields(rest)
	}
	var out []spec
	for _, l := range []struct{ label, key string }{{"playwright-mcp", playwright}, {"chrome-devtools-mcp", devtools}, {"agent-browser (MCP)", agentBr}} {
		f := byLabel[l.label]
		s := spec{Key: l.key}
		for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
			s.Env, f = append(s.Env, f[0]), f[1:]
		}
		if len(f) == 0 {
			continue
		}
		s.Cmd, s.Args = f[0], f[1:]
		if l.key == agentBr {
			// Its daemon and Chrome outlive the client: 'close --all' ends
			// them. The CLI line carries the browser flags; without them the
			// environment of the MCP line does.
			cli := byLabel["agent-browser (CLI)"]
			if len(cli) > 0 {
				s.Close = []string{cli[0], "close", "--all"}
			} else {
				s.Close = []string{s.Cmd, "close", "--all"}
			}
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no server command lines in it", path)
	}
	return out, nil
}

// adapter is how one server's own tools do each step, learned from its
// tools/list at run time.
type adapter struct {
	navigate, snapshot, fill, click string
	find                            string         // a search by role and name (e2e-mcp's browser_find), or none
	navArgs                         map[string]any // fixed extra arguments of navigate
	targetKey                       string         // the argument naming the element: target, ref, uid, selector
	valueKey                        string         // the text argument of fill: text, value
	hasElement                      bool           // fill/click take a human description ("element")
	refPrefix                       string         // "@" for agent-browser selectors
	pageList                        string         // a tool to call first to learn the page id (chrome-devtools-mcp list_pages)
	pageID                          any            // the page id every call then carries as "pageId"
}

func firstTool(tools map[string]mcp.Tool, names ...string) string {
	for _, n := range names {
		if _, ok := tools[n]; ok {
			return n
		}
	}
	return ""
}

func props(t mcp.Tool) map[string]bool {
	out := map[string]bool{}
	if len(t.RawInputSchema) > 0 {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(t.RawInputSchema, &s) == nil {
			for k := range s.Properties {
				out[k] = true
			}
		}
		return out
	}
	for k := range t.InputSchema.Properties {
		out[k] = true
	}
	return out
}

func required(t mcp.Tool) map[string]bool {
	out := map[string]bool{}
	var req []string
	if len(t.RawInputSchema) > 0 {
		var s struct {
			Required []string `json:"required"`
		}
		if json.Unmarshal(t.RawInputSchema, &s) == nil {
			req = s.Required
		}
	} else {
		req = t.InputSchema.Required
	}
	for _, k := range req {
		out[k] = true
	}
	return out
}

func pick(p map[string]bool, names ...string) string {
	for _, n := range names {
		if p[n] {
			return n
		}
	}
	return ""
}

func newAdapter(tools map[string]mcp.Tool) (adapter, error) {
	a := adapter{
		navigate: firstTool(tools, "browser_navigate", "navigate_page", "agent_browser_open", "navigate"),
		snapshot: firstTool(tools, "browser_snapshot", "take_snapshot", "agent_browser_snapshot"),
		fill:     firstTool(tools, "browser_type", "fill", "agent_browser_fill"),
		click:    firstTool(tools, "browser_click", "click", "agent_browser_click"),
	}
	var missing []string
	for name, t := range map[string]string{"navigate": a.navigate, "snapshot": a.snapshot, "fill": a.fill, "click": a.click} {
		if t == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return a, fmt.Errorf("no tool found for %s", strings.Join(missing, ", "))
	}
	if required(tools[a.navigate])["pageId"] {
		a.pageList = firstTool(tools, "list_pages")
		if a.pageList == "" {
			return a, fmt.Errorf("%s needs a pageId and there is no list_pages", a.navigate)
		}
	}
	if props(tools[a.navigate])["type"] {
		a.navArgs = map[string]any{"type": "url"} // chrome-devtools-mcp navigate_page
	}
	if f, ok := tools["browser_find"]; ok && props(f)["role"] && props(f)["name"] {
		a.find = "browser_find"
	}
	fp, cp := props(tools[a.fill]), props(tools[a.click])
	a.targetKey = pick(cp, "target", "ref", "uid", "selector")
	a.valueKey = pick(fp, "text", "value")
	a.hasElement = cp["element"]
	if a.targetKey == "" || a.valueKey == "" || pick(fp, a.targetKey) == "" {
		return a, fmt.Errorf("cannot tell the element and text arguments of %s/%s", a.fill, a.click)
	}
	if a.targetKey == "selector" {
		a.refPrefix = "@"
	}
	return a, nil
}

func (a adapter) withPage(m map[string]any) map[string]any {
	if a.pageID != nil {
		m["pageId"] = a.pageID
	}
	return m
}

func (a adapter) snapArgs() map[string]any { return a.withPage(map[string]any{}) }

func (a adapter) navArgsFor(url string) map[string]any {
	m := a.withPage(map[string]any{"url": url})
	for k, v := range a.navArgs {
		m[k] = v
	}
	return m
}

func (a adapter) elementArgs(ref, desc string) map[string]any {
	m := a.withPage(map[string]any{a.targetKey: a.refPrefix + ref})
	if a.hasElement {
		m["element"] = desc
	}
	return m
}

func (a adapter) fillArgs(ref, desc, text string) map[string]any {
	m := a.elementArgs(ref, desc)
	m[a.valueKey] = text
	return m
}

// The ref notations: e2e-mcp and Playwright "[ref=e5]" (f1e2 in frames),
// agent-browser "[..., ref=e5]", chrome-devtools-mcp "uid=1_5".
var refRE = regexp.MustCompile(`(?:[\[ ,]ref=((?:f\d+)?e\d+)\b|^\s*uid=(\d+_\d+)\b|@(e\d+)\b)`)

// findRef finds the ref of the element with this role and accessible name
// (quoted as every server prints it) in a snapshot.
func findRef(snapshot, role, name string) (string, bool) {
	want := role + ` "` + name + `"`
	for line := range strings.SplitSeq(snapshot, "\n") {
		for _, seg := range segments(line) {
			if !strings.Contains(seg, want) {
				continue
			}
			if ref, ok := lineRef(seg); ok {
				return ref, true
			}
		}
	}
	return "", false
}

func lineRef(line string) (string, bool) {
	m := refRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	for _, g := range m[1:] {
		if g != "" {
			return g, true
		}
	}
	return "", false
}

// rowRefs counts the rows of the big page whose button and link both carry
// a ref in the snapshot.
func rowRefs(snapshot string) int {
	buttons, links := map[string]bool{}, map[string]bool{}
	for line := range strings.SplitSeq(snapshot, "\n") {
		for _, line := range segments(line) {
			if _, ok := lineRef(line); !ok {
				continue
			}
			if i := strings.Index(line, `button "Ship order `); i >= 0 {
				buttons[numberAt(line[i+len(`button "Ship order `):])] = true
			} else if i := strings.Index(line, `link "Order `); i >= 0 {
				rest := line[i+len(`link "Order `):]
				if n := numberAt(rest); strings.HasPrefix(rest[len(n):], ` details"`) {
					links[n] = true
				}
			}
		}
	}
	n := 0
	for k := range buttons {
		if k != "" && links[k] {
			n++
		}
	}
	return n
}

// segments splits a snapshot line into its elements: e2e-mcp writes a table
// row whose cells are leaves on one line, cells separated by " | ".
func segments(line string) []string { return strings.Split(line, " | ") }

func numberAt(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// The selected page in chrome-devtools-mcp's list_pages: "1: http://... [selected]".
var pageIDRE = regexp.MustCompile(`(?m)^\D{0,8}?(\d+):.*\[selected\]`)

func parsePageID(text string) (int, bool) {
	m := pageIDRE.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// packageVersion finds the npm package a peer's command belongs to and
// returns "name version" from its package.json, or "".
func packageVersion(cmd string) string {
	path, err := filepath.EvalSymlinks(cmd)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(path); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var p struct{ Name, Version string }
		if json.Unmarshal(b, &p) == nil && p.Name != "" {
			return p.Name + " " + p.Version
		}
		return ""
	}
	return ""
}
