package eventlog

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/runtime"
)

func TestRing(t *testing.T) {
	r := ring[int]{max: 3}
	for i := 1; i <= 5; i++ {
		r.add(i)
	}
	if got := r.list(); len(got) != 3 || got[0] != 3 || got[2] != 5 || r.total != 5 {
		t.Errorf("ring after adding 1..5 with max 3 = %v (total %d), want [3 4 5] (total 5)", got, r.total)
	}
	// Taken from the front (a session's budget), then added to.
	if v, ok := r.pop(); !ok || v != 3 {
		t.Errorf("pop = %d, %v", v, ok)
	}
	if old, dropped := r.add(6); dropped {
		t.Errorf("adding to a ring with room dropped %d", old)
	}
	if old, dropped := r.add(7); !dropped || old != 4 {
		t.Errorf("adding to a full ring dropped %d, %v; want 4", old, dropped)
	}
	if got := fmt.Sprint(r.list()); got != "[5 6 7]" {
		t.Errorf("ring = %s, want [5 6 7]", got)
	}
	small := ring[int]{max: 4}
	small.add(1)
	small.add(2)
	small.pop()
	small.add(3) // grows while its oldest is not at the start
	small.add(4)
	if got, first := fmt.Sprint(small.list()), small.items[small.start]; got != "[2 3 4]" || first != 2 {
		t.Errorf("ring = %s (oldest %d), want [2 3 4]", got, first)
	}
	for range 3 {
		small.pop()
	}
	if _, ok := small.oldest(); ok || len(small.list()) != 0 {
		t.Errorf("an emptied ring holds %v", small.list())
	}
}

func TestFormatConsoleArgs(t *testing.T) {
	str := func(s string) *runtime.RemoteObject {
		v, _ := json.Marshal(s)
		return &runtime.RemoteObject{Type: runtime.RemoteObjectTypeString, Value: v}
	}
	num := &runtime.RemoteObject{Type: runtime.RemoteObjectTypeNumber, Value: []byte("42")}
	obj := &runtime.RemoteObject{Type: runtime.RemoteObjectTypeObject, Description: "Object",
		Preview: &runtime.ObjectPreview{Properties: []*runtime.PropertyPreview{
			{Name: "a", Type: runtime.PropertyPreviewTypeNumber, Value: "1"},
			{Name: "b", Type: runtime.PropertyPreviewTypeString, Value: "x"}}}}
	tests := []struct {
		args []*runtime.RemoteObject
		want string
	}{
		{[]*runtime.RemoteObject{str("n=%d, s=%s"), num, str("x")}, "n=42, s=x"},
		{[]*runtime.RemoteObject{str("%cstyled"), str("color: red")}, "styled"},
		{[]*runtime.RemoteObject{str("100%% sure"), num}, "100% sure 42"},
		{[]*runtime.RemoteObject{str("missing %s")}, "missing %s"},
		{[]*runtime.RemoteObject{num, obj}, `42 {a: 1, b: "x"}`},
	}
	for _, tc := range tests {
		if got := formatConsoleArgs(tc.args); got != tc.want {
			t.Errorf("formatConsoleArgs(%s) = %q, want %q", remoteText(tc.args[0]), got, tc.want)
		}
	}
}

func TestExceptionMessage(t *testing.T) {
	d := &runtime.ExceptionDetails{Text: "Uncaught", URL: "http://x/a.js", LineNumber: 2, ColumnNumber: 4,
		Exception: &runtime.RemoteObject{Description: "Error: boom\n    at f (http://x/a.js:3:5)\n    at http://x/a.js:9:1"}}
	m := FromException(d)
	if m.Text != "Error: boom" || m.Location != "http://x/a.js:3:5" || m.Stack != "at f (http://x/a.js:3:5)\nat http://x/a.js:9:1" {
		t.Errorf("FromException(Error) = %+v", m)
	}
	// A thrown non-Error has no description, only a value and CDP's frames.
	v, _ := json.Marshal("just a string")
	d = &runtime.ExceptionDetails{Text: "Uncaught", Exception: &runtime.RemoteObject{Type: runtime.RemoteObjectTypeString, Value: v},
		StackTrace: &runtime.StackTrace{CallFrames: []*runtime.CallFrame{{FunctionName: "g", URL: "http://x/b.js", LineNumber: 0, ColumnNumber: 0}}}}
	m = FromException(d)
	if m.Text != "Uncaught just a string" || m.Stack != "at g (http://x/b.js:1:1)" || m.Location != "http://x/b.js:1:1" {
		t.Errorf("FromException(string) = %+v", m)
	}
}

func TestLevels(t *testing.T) {
	order := []string{"debug", "log", "warning", "exception"}
	for i := 1; i < len(order); i++ {
		if levelRank(order[i-1]) >= levelRank(order[i]) {
			t.Errorf("level %s is not less severe than %s", order[i-1], order[i])
		}
	}
	if levelRank("info") != levelRank("log") || levelRank("error") != levelRank("exception") {
		t.Errorf("info ranks as log, and error as exception")
	}
}
