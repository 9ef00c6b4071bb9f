package mcptools

import (
	"reflect"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestFlowCoverage holds flowCoverage to the inventory, both ways: every
// tool has a row, every row a tool; a tool is a step of its own exactly
// when flow.Verbs has its action; a call that is not recorded says why;
// a read-only tool loses nothing when it is not recorded.
func TestFlowCoverage(t *testing.T) {
	tools := map[string]Tool{}
	for _, tl := range Inventory(nil) {
		tools[tl.Def.Name] = tl
		row, ok := flowCoverage[tl.Def.Name]
		if !ok {
			t.Errorf("%s has no row in flowCoverage: say how a flow records its calls, or why it does not", tl.Def.Name)
			continue
		}
		if step := flow.ActionOf(tl.Def.Name) != ""; step != (row.rec == recStep) {
			t.Errorf("%s: recorded as a step %v, but flow.Verbs has its action: %v", tl.Def.Name, row.rec == recStep, step)
		}
		switch row.rec {
		case recStep, recChecks:
		case recReads, recSession, recLeftOut, recHeader, recInner:
			if row.why == "" {
				t.Errorf("%s: not a step of its own, and no why", tl.Def.Name)
			}
		default:
			t.Errorf("%s: no recording %d", tl.Def.Name, row.rec)
		}
		if row.rec == recLeftOut && tl.ReadOnly {
			t.Errorf("%s is read-only: a flow loses nothing without it (recReads), it is not left out", tl.Def.Name)
		}
	}
	for name := range flowCoverage {
		if _, ok := tools[name]; !ok {
			t.Errorf("flowCoverage has a row for %s, which is no tool", name)
		}
	}
	for _, v := range flow.Verbs {
		if _, ok := tools[v.Tool]; !ok {
			t.Errorf("the flow action %s calls %s, which is no tool", v.Name, v.Tool)
		}
	}
}

// TestLeftOut: the export names each tool whose calls were left out, with
// their count and why, in the order they were first made; steps and
// reads are not named.
func TestLeftOut(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	for _, tool := range []string{"browser_tabs", "browser_click", "browser_snapshot", "browser_cookie_set", "browser_tabs", "session_end"} {
		s.record(tool, map[string]any{"target": "#a", "action": "new"}, preLocated{})
	}
	s.record("browser_tabs", map[string]any{"action": "list"}, preLocated{})
	want := []leftOutCall{{Tool: "browser_tabs", Calls: 2, Why: flowCoverage["browser_tabs"].why}, {Tool: "browser_cookie_set", Calls: 1, Why: flowCoverage["browser_cookie_set"].why}}
	if !reflect.DeepEqual(s.leftOut, want) {
		t.Errorf("left out %+v, want %+v", s.leftOut, want)
	}
	said := sayLeftOut(s.leftOut)
	if !strings.Contains(said, "- browser_tabs (2 calls): a flow has no step that opens") || !strings.Contains(said, "- browser_cookie_set (1 call): ") {
		t.Errorf("said:\n%s", said)
	}
	if len(s.recorded) != 1 || s.recorded[0].Action != "click" {
		t.Errorf("recorded %+v", s.recorded)
	}
}

// TestReadChecks: the texts an agent read become checks after the step
// they followed when they were still shown at the next, at most
// maxReadChecks a step, none twice since the page loaded, none that
// changes from run to run or holds a secret; without assertReads, none.
func TestReadChecks(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	s.private.Add("hunter22")
	step := func(action string, args map[string]any) { s.addStep(flow.Step{Action: action, Args: args}) }
	step("navigate", map[string]any{"url": "/"})
	s.noteReads("- heading \"Sales\" [level=1]\n- status: Last sync 12:04\n- heading \"Pay $TOTAL\" [level=2]\n- alert: Welcome hunter22\n- status: \"Order 123456789 placed\"")
	if want := []string{`role=heading[name="Sales"]`, `role=heading[name="Pay $TOTAL"]`}; !reflect.DeepEqual(s.pendingReads, want) {
		t.Fatalf("pending %q, want %q", s.pendingReads, want)
	}
	s.takeReads([]bool{true, true}) // the next step finds both
	step("click", map[string]any{"target": "#save"})
	s.noteReads("- status: Saved\n- heading \"Sales\" [level=1]\n- heading \"A\"\n- heading \"B\"\n- heading \"C\"\n- alert \"Gone\"")
	s.takeReads([]bool{true, true, true, true, true, false})
	step("reload", map[string]any{})
	s.noteReads("- heading \"Sales\" [level=1]")
	s.takeReads([]bool{true})

	if got := s.flowSteps(false); len(got) != 3 {
		t.Errorf("without assertReads: %d steps, want the 3 recorded", len(got))
	}
	var got []string
	for _, st := range s.flowSteps(true) {
		if st.Action == "expect" {
			if st.Args["check"] != "visible" {
				t.Errorf("a check of %v", st.Args)
			}
			got = append(got, "expect "+st.Args["target"].(string))
		} else {
			got = append(got, st.Action)
		}
	}
	want := []string{"navigate", `expect role=heading[name="Sales"]`, `expect role=heading[name="Pay $$TOTAL"]`,
		"click", `expect role=status >> text="Saved"`, `expect role=heading[name="A"]`, `expect role=heading[name="B"]`,
		"reload", `expect role=heading[name="Sales"]`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the flow:\n got %q\nwant %q", got, want)
	}
	// The oldest step goes with what was read after it.
	for range maxRecorded {
		step("press", map[string]any{"key": "a"})
	}
	if len(s.recorded) != maxRecorded || len(s.readChecks) != maxRecorded || s.readChecks[0] != nil {
		t.Errorf("%d steps, %d read checks, the first %q", len(s.recorded), len(s.readChecks), s.readChecks[0])
	}
}

// TestReadSelector: what is read, as the selector of its check.
func TestReadSelector(t *testing.T) {
	for _, c := range []struct {
		rt   snaptext.ReadText
		want string
	}{
		{snaptext.ReadText{Role: "heading", Name: `Say "hi"`}, `role=heading[name="Say \"hi\""]`},
		{snaptext.ReadText{Role: "status", Text: "Subscribed: ada@example.com"}, `role=status >> text="Subscribed: ada@example.com"`},
		{snaptext.ReadText{Role: "alert", Name: "Card declined"}, `role=alert[name="Card declined"]`},
		{snaptext.ReadText{Role: "status", Text: "Updated 3 minutes ago"}, ""},
		{snaptext.ReadText{Role: "status", Text: "Took 350ms"}, ""},
		{snaptext.ReadText{Role: "heading", Name: "Report of 2025-03-15"}, ""},
		{snaptext.ReadText{Role: "heading", Name: "Due Mar 3"}, ""},
		{snaptext.ReadText{Role: "heading", Name: "May: 57 sales"}, `role=heading[name="May: 57 sales"]`},
		{snaptext.ReadText{Role: "status", Text: "Loading orders"}, ""},
		{snaptext.ReadText{Role: "status", Text: "Saving…"}, ""},
		{snaptext.ReadText{Role: "alert", Text: "Please wait..."}, ""},
		{snaptext.ReadText{Role: "heading", Name: strings.Repeat("x", maxReadText+1)}, ""},
	} {
		if got := readSelector(c.rt); got != c.want {
			t.Errorf("%+v: %q, want %q", c.rt, got, c.want)
		}
		if c.want != "" {
			if _, err := selector.Parse(c.want, ""); err != nil {
				t.Errorf("%s does not parse: %v", c.want, err)
			}
		}
	}
}
