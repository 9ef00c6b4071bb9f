package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/mark3labs/mcp-go/mcp"
)

// A session records its successful actions and passed checks as flow steps,
// with stable locators (role and name) instead of snapshot refs, so that
// session_export_flow can write them as a test that `e2e-mcp run` replays.

// maxRecorded bounds the steps a session keeps.
const maxRecorded = 1000

// rememberRefs keeps the role and name of the refs a snapshot handed out.
// A whole-page snapshot holds every ref of the page as the agent now sees
// it, so it replaces what was kept: the map stays the size of one page.
func (s *Session) rememberRefs(refs map[string]browser.RefInfo, whole bool) {
	if s.refNames == nil || whole {
		s.refNames = make(map[string]browser.RefInfo, len(refs))
	}
	for k, v := range refs {
		s.refNames[k] = v
	}
	if whole {
		s.pageRefs = refs
	}
}

// locator turns a target into a selector that does not depend on a
// snapshot: a ref becomes role=ROLE[name="NAME"], with >> nth=K when the
// page the agent last saw had several elements of that role and name (of
// that role, for an element without a name: role=ROLE finds them all; K
// counts them in document order, which ref numbers follow); a selector
// stays as the agent wrote it.
func (s *Session) locator(target string) string {
	if !selector.IsRef(target) {
		return target
	}
	info, ok := s.refNames[target]
	if !ok {
		return target
	}
	loc := "role=" + info.Role
	if info.Name != "" {
		loc += "[name=" + strconv.Quote(info.Name) + "]"
	}
	if _, seen := s.pageRefs[target]; !seen || strings.HasPrefix(target, "f") {
		return loc // not on the last whole page seen, or inside an iframe
	}
	// role=ROLE without a name finds every element of the role: count
	// them all.
	var same []int
	for ref, other := range s.pageRefs {
		if (other == info || info.Name == "" && other.Role == info.Role) && !strings.HasPrefix(ref, "f") {
			n, _ := strconv.Atoi(strings.TrimPrefix(ref, "e"))
			same = append(same, n)
		}
	}
	if len(same) < 2 {
		return loc
	}
	sort.Ints(same)
	me, _ := strconv.Atoi(strings.TrimPrefix(target, "e"))
	return fmt.Sprintf("%s >> nth=%d", loc, sort.SearchInts(same, me))
}

// preLocated is what preLocate read before an action ran.
type preLocated struct {
	locators map[string]string // the stable locator of each ref targeted
	// print is the fingerprint of the step's target, or nil.
	print *flow.Fingerprint
}

// recording says whether the session's calls are kept as flow steps: all
// but a replay's (Registry.Replay), which nothing exports.
func (s *Session) recording() bool { return !s.replay }

// preLocate finds, before a recordable action runs, the stable locators
// of the refs it targets and the fingerprint of its target: after it, the
// element may be gone (a click that navigates). The same engine call
// checks which texts the agent read since the last step are still shown
// (reads.go). One engine call (and one per iframe a ref is in).
func (s *Session) preLocate(ctx context.Context, tool string, rawArgs any) preLocated {
	var out preLocated
	if !s.recording() || flow.ActionOf(tool) == "" || s.tabs == nil {
		return out
	}
	p := s.tabs.Current()
	if p == nil || p.Gone() {
		s.takeReads(nil)
		return out
	}
	args, _ := rawArgs.(map[string]any)
	refs := []string{}
	for _, k := range []string{"target", "startTarget", "endTarget"} {
		if t, ok := args[k].(string); ok && selector.IsRef(t) {
			refs = append(refs, t)
		}
	}
	if fields, ok := args["fields"].([]any); ok {
		for _, f := range fields {
			if m, ok := f.(map[string]any); ok {
				if t, ok := m["target"].(string); ok && selector.IsRef(t) {
					refs = append(refs, t)
				}
			}
		}
	}
	target, _ := args["target"].(string)
	var shown []bool
	out.locators, out.print, shown = s.stepTargets(ctx, p, refs, target, s.pendingReads)
	s.takeReads(shown)
	return out
}

// flowLocators is the selector a flow records for each of targets, the one
// function the recorder, browser_generate_locator and the verify tools
// locate with: for a ref, the most robust selector that finds its element
// alone (p.StepTargets; an element of an iframe after its frame's
// locator), else its role and name as the agent last saw them (locator);
// a selector as the agent wrote it. With print, the fingerprint of that
// target comes from the same engine call: a recorded action costs one
// round trip before it acts, not one per question.
func (s *Session) flowLocators(ctx context.Context, p *browser.Page, targets []string, print string) (map[string]string, *flow.Fingerprint) {
	out, fp, _ := s.stepTargets(ctx, p, targets, print, nil)
	return out, fp
}

// stepTargets is flowLocators that also checks, in the same engine call,
// which of the selectors shown find one visible element.
func (s *Session) stepTargets(ctx context.Context, p *browser.Page, targets []string, print string, shown []string) (map[string]string, *flow.Fingerprint, []bool) {
	var ans browser.StepAnswer
	if p != nil {
		var refs []string
		for _, t := range targets {
			if selector.IsRef(t) {
				refs = append(refs, t)
			}
		}
		if len(refs) > 0 || print != "" || len(shown) > 0 {
			ans = p.StepTargets(ctx, browser.StepQuery{Refs: refs, Target: print, Shown: shown})
		}
	}
	out := make(map[string]string, len(targets))
	for _, t := range targets {
		if l := ans.Locators[t]; l != "" {
			out[t] = l
		} else {
			out[t] = s.locator(t)
		}
	}
	return out, s.fingerprintOf(ans.Element), ans.Shown
}

// flowLocator is flowLocators of one target.
func (s *Session) flowLocator(ctx context.Context, p *browser.Page, target string) string {
	out, _ := s.flowLocators(ctx, p, []string{target}, "")
	return out[target]
}

// fingerprintOf is an element's description as a step's fingerprint: the
// page's own words, which a heal matches against the page, so only the
// secrets the agent never saw are masked in it. A value the agent typed
// is in no fingerprint (a field's value is not part of one); where a page
// word happens to be it (a password "admin", a link to /admin), masking
// the word would corrupt the fingerprint and protect nothing.
func (s *Session) fingerprintOf(el *browser.Element) *flow.Fingerprint {
	fp := printOf(el)
	if fp == nil {
		return nil
	}
	m := s.secrets.String
	fp.Name, fp.TestID, fp.Label, fp.Placeholder, fp.Href = m(fp.Name), m(fp.TestID), m(fp.Label), m(fp.Placeholder), m(fp.Href)
	for i, w := range fp.Within {
		fp.Within[i] = m(w)
	}
	return fp
}

// printOf is an element's description as a step's fingerprint, as the
// page has it (nil for none).
func printOf(el *browser.Element) *flow.Fingerprint {
	if el == nil {
		return nil
	}
	return &flow.Fingerprint{Role: el.Role, Name: el.Name, TestID: el.TestID, Label: el.Label,
		Placeholder: el.Placeholder, Href: el.Href, Tag: el.Tag, Type: el.Type, Secret: el.Secret, Within: slices.Clone(el.Within)}
}

// record adds a successful call as a flow step, when the tool is one; pre
// holds the locators and fingerprint preLocate found.
func (s *Session) record(tool string, rawArgs any, pre preLocated) {
	if !s.recording() {
		return
	}
	s.noteLeftOut(tool, rawArgs)
	action := flow.ActionOf(tool)
	if action == "" {
		return
	}
	locate := func(t string) string {
		if l := pre.locators[t]; l != "" {
			return l
		}
		return s.locator(t)
	}
	b, err := json.Marshal(rawArgs)
	if err != nil {
		return
	}
	args := map[string]any{}
	if json.Unmarshal(b, &args) != nil {
		return
	}
	delete(args, "sessionId")
	delete(args, "element")
	if _, ok := args["failOn"]; tool == "browser_audit_accessibility" && !ok {
		return // an audit that fails on nothing checks nothing in a replay
	}
	for _, k := range []string{"target", "startTarget", "endTarget"} {
		if t, ok := args[k].(string); ok {
			args[k] = locate(t)
		}
	}
	if fields, ok := args["fields"].([]any); ok {
		for _, f := range fields {
			if m, ok := f.(map[string]any); ok {
				if t, ok := m["target"].(string); ok {
					m["target"] = locate(t)
				}
			}
		}
	}
	if _, named := args["expected"]; tool == "browser_expect" && args["check"] == "screenshot" && !named && s.lastBaseline != "" {
		// The name made of this page's path and target, kept as it was
		// made: a replay locates the target another way.
		args["expected"] = s.lastBaseline
	}
	if _, given := args["httpOrigin"]; tool == "browser_emulate" && args["httpUsername"] != nil && !given && s.tabs != nil {
		// The origin the call chose (the page's, the dev server's): a
		// replay scopes the credentials the same way.
		args["httpOrigin"] = s.tabs.Emulation().HTTPOrigin
	}
	// Every text as flow text: what the agent typed or opened replays as
	// it was, its $ escaped (flow/text.go); a secret (a password typed or
	// filled, an HTTP credential, a credential header) is never written
	// out: the flow reads it from the environment when it runs
	// (secrets.go).
	args = s.flowArgs(args, flow.Escape)
	s.addStep(flow.Step{Action: action, Args: args, Fingerprint: pre.print})
}

// ExportFlowParams are the arguments of session_export_flow.
type ExportFlowParams struct {
	Path        string `json:"path,omitempty" jsonschema:"File to write (file roots). Omit: the YAML"`
	Name        string `json:"name,omitempty" jsonschema:"Default: the session id"`
	Format      string `json:"format,omitempty" jsonschema:"enum=playwright"`
	AssertReads bool   `json:"assertReads,omitempty" jsonschema:"Check the texts you read"`
	SessionArg
}

// noChecksAdvice is what an export says of a flow that asserts nothing.
const noChecksAdvice = flow.NoChecks + " (browser_expect, browser_verify_*), or export with assertReads: true to check the headings, statuses and alerts read after each action"

func exportFlowTool(d *Deps) Tool {
	return define(d, "session_export_flow", ToolsetSession,
		"The session's steps and checks as a flow `e2e-mcp run` replays.",
		annotations{title: "Export a flow", idempotent: true, openWorld: false},
		func(ctx context.Context, s *Session, a ExportFlowParams) (*mcp.CallToolResult, error) {
			if len(s.recorded) == 0 {
				return nil, &ToolError{Type: ErrInvalidInput, Message: "session " + s.ID + " has no recorded step yet",
					Suggestion: "act on a page first (browser_navigate, browser_click, browser_expect...): successful calls are recorded"}
			}
			if err := flow.CheckName(a.Name); err != nil {
				return nil, invalidInput("name", "%v", err)
			}
			if a.AssertReads {
				s.settleReads(ctx)
			}
			f := &flow.Flow{Name: a.Name, Steps: s.flowSteps(a.AssertReads)}
			if f.Name == "" {
				f.Name = s.ID
			}
			if st := s.devStart; st != nil {
				f.Dev = &flow.Dev{Run: st.Run, Cwd: st.Cwd, ReadyPath: st.ReadyPath}
				if st.CommandPath != "" {
					f.Dev.Command = append([]string{st.CommandPath}, st.Args...)
				}
				f.StorageState = st.StorageState
			}
			if a.Format == "playwright" {
				return exportPlaywright(ctx, d, s, f, a.Path, true)
			}
			var out *outputFile
			if a.Path != "" {
				var err error
				if out, err = d.outputPath(ctx, "path", a.Path, "flow-*.yaml"); err != nil {
					return nil, err
				}
			}
			stem := ""
			if out != nil {
				stem = stemOf(out.path)
			}
			placed := d.placeFiles(ctx, f.Steps, out, stem)
			if !f.Checks() {
				f.Notes = append(f.Notes, "Warning: "+noChecksAdvice+".")
			}
			b, err := f.Marshal()
			if err != nil {
				return nil, err
			}
			var r response
			if out != nil {
				if err := out.write(b); err != nil {
					return nil, err
				}
				path := out.path
				r.resultf("Wrote flow %s (%s) to %s. Replay it with: e2e-mcp run %s", f.Name, plural(len(f.Steps), "step"), path, path)
				r.set("path", path)
			} else {
				r.resultf("Flow %s (%s):\n```yaml\n%s```", f.Name, plural(len(f.Steps), "step"), strings.TrimRight(string(b), "\n")+"\n")
				// The text in the structured answer too: a client that
				// reads only that (the CLI's export --json) has the flow.
				r.set("flow", string(b))
			}
			if vars := secretVarsIn(f); len(vars) > 0 {
				r.resultf("Its secrets (passwords, credentials) are not in it: set %s in the environment of the run.", strings.Join(vars, ", "))
			}
			placed.say(&r, "flow")
			s.sayExport(&r, f)
			r.set("steps", len(f.Steps))
			return r.build(), nil
		})
}

// sayExport ends an export's answer: a flow that checks nothing, and the
// calls it left out and why.
func (s *Session) sayExport(r *response, f *flow.Flow) {
	if !f.Checks() {
		r.resultf("Warning: %s.", noChecksAdvice)
	}
	r.set("checks", f.Checks())
	if said := sayLeftOut(s.leftOut); said != "" {
		r.resultf("%s", said)
		r.set("leftOut", slices.Clone(s.leftOut))
	}
}

// settleReads checks the texts the agent read after the last step on
// the page as it is now, as the next step would have.
func (s *Session) settleReads(ctx context.Context) {
	if len(s.pendingReads) == 0 || s.tabs == nil {
		return
	}
	p := s.tabs.Current()
	if p == nil || p.Gone() {
		return
	}
	_, _, shown := s.stepTargets(ctx, p, nil, "", s.pendingReads)
	s.takeReads(shown)
}

// plural is "1 step", "2 steps".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// secretVarsIn names the E2E_SECRET_n variables a flow's steps read, in
// their order: what an answer says of its secrets is read off what was
// written.
func secretVarsIn(f *flow.Flow) []string {
	vars, _ := f.Vars()
	var ns []int
	for _, v := range vars {
		if n, err := strconv.Atoi(strings.TrimPrefix(v, "E2E_SECRET_")); err == nil && strings.HasPrefix(v, "E2E_SECRET_") {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = "E2E_SECRET_" + strconv.Itoa(n)
	}
	return names
}
