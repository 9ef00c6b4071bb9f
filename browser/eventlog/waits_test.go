package eventlog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// TestWaitNoteBounded: a wait keeps a state only when it changed, at most
// maxWaitStates of them (the first ones and the one it ended in), each
// text clipped; a tab keeps its newest maxActionWaits waits.
func TestWaitNoteBounded(t *testing.T) {
	n := NewWaitNote(strings.Repeat("t", 1<<20))
	n.State(WaitMissing, "no match")
	n.State(WaitMissing, "no match") // unchanged: not kept again
	for i := range 30 {
		n.State("covered", fmt.Sprintf("covered by div#toast-%d", i))
	}
	n.State("disabled", strings.Repeat("m", 1<<20))
	var w Waits
	w.Done(n, true)
	got := w.List()
	if len(got) != 1 || !got[0].Ready {
		t.Fatalf("waits kept: %+v", got)
	}
	s := got[0].States
	if len(s) != maxWaitStates || s[0].Code != WaitMissing || s[1].Message != "covered by div#toast-0" || s[len(s)-1].Code != "disabled" {
		t.Errorf("states kept: %d, first %q, second %q, last %q", len(s), s[0].Code, s[1].Message, s[len(s)-1].Code)
	}
	if m := s[len(s)-1].Message; len(m) > MaxShortKept+len(text.ClipMark)+32 || !strings.Contains(m, text.ClipMark) {
		t.Errorf("a state's message kept at %d bytes", len(m))
	}
	if tg := got[0].Target; len(tg) > MaxURLKept+len(text.ClipMark)+32 || !strings.Contains(tg, text.ClipMark) {
		t.Errorf("the target kept at %d bytes", len(tg))
	}
	for i := range maxActionWaits + 5 {
		w.Done(NewWaitNote(fmt.Sprint("#b", i)), false)
	}
	if got := w.List(); len(got) != maxActionWaits || got[len(got)-1].Target != fmt.Sprint("#b", maxActionWaits+4) {
		t.Errorf("%d waits kept, the newest %q", len(got), got[len(got)-1].Target)
	}
}
