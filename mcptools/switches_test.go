package mcptools

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// opposites are the names a tool that turns something on or off would
// have for its other half: browser_start_X and browser_stop_X, X_show_Y
// and X_hide_Y, X_start and X_end, browser_X and browser_unX or
// browser_hide_X.
func opposites(name string) []string {
	var out []string
	if rest, ok := strings.CutSuffix(name, "_start"); ok {
		out = append(out, rest+"_end")
	}
	for _, r := range [][2]string{{"_start_", "_stop_"}, {"_show_", "_hide_"}} {
		if strings.Contains(name, r[0]) {
			out = append(out, strings.Replace(name, r[0], r[1], 1))
		}
	}
	if rest, ok := strings.CutPrefix(name, "browser_"); ok {
		out = append(out, "browser_un"+rest, "browser_hide_"+rest)
	}
	return out
}

// pageActions are pairs by name that act on the page, whose state is the
// page's and shows in the next snapshot, not on something of the session.
var pageActions = map[string]bool{"browser_check": true, "browser_uncheck": true}

// TestSwitches: every pair of tools that turn one thing of a session on
// and off is a switch, both halves (a cancelled one runs to its end and
// is told on the next call; switches.go), and every switch is a tool.
func TestSwitches(t *testing.T) {
	names := map[string]bool{}
	for _, tool := range Inventory(nil) {
		names[tool.Def.Name] = true
	}
	pairs := 0
	for n := range names {
		for _, o := range opposites(n) {
			if !names[o] || pageActions[n] && pageActions[o] {
				continue
			}
			pairs++
			for _, half := range []string{n, o} {
				if !switches[half] {
					t.Errorf("%s turns off what %s turns on, but %s is not in switches: a client that cancels it leaves the session half switched", o, n, half)
				}
			}
		}
	}
	if pairs < 7 {
		t.Errorf("found %d pairs of tools; the scan no longer sees them", pairs)
	}
	for n := range switches {
		if !names[n] {
			t.Errorf("switch %s is not a tool", n)
		}
	}
}

// TestUntoldAnswers: the answer of a switch its client cancelled is kept
// (masked as it was) and put before the next answer, in its text and its
// structured content, once; a call that was not cancelled, or not a
// switch, keeps nothing.
func TestUntoldAnswers(t *testing.T) {
	s := newSession(sessionKey{id: "a"}, "c", nil)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	var r response
	r.resultf("Wrote the trace of session a to /tmp/t.zip")
	r.set("path", "/tmp/t.zip")
	if s.keepUntold(context.Background(), "browser_stop_tracing", r.build()) {
		t.Error("kept the answer of a call that was not cancelled")
	}
	if s.keepUntold(cancelled, "browser_snapshot", r.build()) {
		t.Error("kept the answer of a cancelled call that is no switch")
	}
	if !s.keepUntold(cancelled, "browser_stop_tracing", r.build()) {
		t.Fatal("did not keep the answer of a cancelled switch")
	}
	var next response
	next.resultf("Session a is not tracing")
	next.set("x", 1)
	res := next.build()
	s.tellUntold(res)
	got := ResultText(res)
	if !strings.HasPrefix(got, "### Cancelled calls that ran to their end\n- browser_stop_tracing (done): Wrote the trace of session a to /tmp/t.zip") ||
		!strings.Contains(got, "Session a is not tracing") {
		t.Errorf("the next answer:\n%s", got)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	list, _ := sc["cancelledCalls"].([]map[string]any)
	if len(list) != 1 || list[0]["tool"] != "browser_stop_tracing" || sc["x"] != 1 {
		t.Errorf("structured: %v", res.StructuredContent)
	}
	again := mcp.NewToolResultText("later")
	s.tellUntold(again)
	if ResultText(again) != "later" {
		t.Errorf("told twice: %s", ResultText(again))
	}
}
