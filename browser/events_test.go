package browser

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
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
	m := exceptionMessage(d)
	if m.Text != "Error: boom" || m.Location != "http://x/a.js:3:5" || m.Stack != "at f (http://x/a.js:3:5)\nat http://x/a.js:9:1" {
		t.Errorf("exceptionMessage(Error) = %+v", m)
	}
	// A thrown non-Error has no description, only a value and CDP's frames.
	v, _ := json.Marshal("just a string")
	d = &runtime.ExceptionDetails{Text: "Uncaught", Exception: &runtime.RemoteObject{Type: runtime.RemoteObjectTypeString, Value: v},
		StackTrace: &runtime.StackTrace{CallFrames: []*runtime.CallFrame{{FunctionName: "g", URL: "http://x/b.js", LineNumber: 0, ColumnNumber: 0}}}}
	m = exceptionMessage(d)
	if m.Text != "Uncaught just a string" || m.Stack != "at g (http://x/b.js:1:1)" || m.Location != "http://x/b.js:1:1" {
		t.Errorf("exceptionMessage(string) = %+v", m)
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

func TestParseURLPattern(t *testing.T) {
	tests := []struct {
		pattern string
		rel     bool
		match   []string
		nomatch []string
	}{
		{"**/done?step=2", false, []string{"http://h:1/wait/done?step=2"}, []string{"http://h:1/wait/done?step=3", "http://h:1/wait/doneXstep=2"}},
		{"http://h/*/x", false, []string{"http://h/a/x"}, []string{"http://h/a/b/x"}},
		{"/users/*", true, []string{"/users/7"}, []string{"/users/7/edit", "/admin/users/7"}},
		{"/users/", false, []string{"http://h/users/7"}, []string{"http://h/Users"}}, // a regular expression
		{`/USERS\/\d+/i`, false, []string{"http://h/users/7"}, []string{"http://h/users/x"}},
	}
	for _, tc := range tests {
		m, err := parseURLPattern(tc.pattern)
		if err != nil {
			t.Fatalf("parseURLPattern(%q): %v", tc.pattern, err)
		}
		if m.rel != tc.rel {
			t.Errorf("parseURLPattern(%q).rel = %v, want %v", tc.pattern, m.rel, tc.rel)
		}
		// These sources mean the same in Go's syntax as in JavaScript's.
		src := m.src
		if strings.Contains(m.flags, "i") {
			src = "(?i)" + src
		}
		re := regexp.MustCompile(src)
		for _, u := range tc.match {
			if !re.MatchString(u) {
				t.Errorf("%q (regex %s) does not match %s", tc.pattern, m.src, u)
			}
		}
		for _, u := range tc.nomatch {
			if re.MatchString(u) {
				t.Errorf("%q (regex %s) matches %s", tc.pattern, m.src, u)
			}
		}
	}
}

func TestFindInSnapshot(t *testing.T) {
	yaml := strings.Join([]string{
		`- navigation:`,
		`  - link "Home" [ref=e1]:`,
		`    - /url: /`,
		`- main:`,
		`  - heading "Orders" [level=1]`,
		`  - list [ref=e2]:`,
		`    - listitem: Order 17 shipped`,
		`  - button "Ship order" [ref=e3]`,
	}, "\n")
	got, total := FindInSnapshot(yaml, FindQuery{Text: "ORDER"}, 10)
	if total != 3 || len(got) != 3 {
		t.Fatalf("FindInSnapshot(order) found %d (%d listed), want 3: %+v", total, len(got), got)
	}
	if got[1].Line != "- listitem: Order 17 shipped" || got[1].Ref != "e2" || got[1].Under != "- list [ref=e2]:" {
		t.Errorf("a line without a ref gets the nearest ref above it: %+v", got[1])
	}
	if got[2].Ref != "e3" || got[2].Under != "" {
		t.Errorf("a line with a ref keeps it: %+v", got[2])
	}
	if got, total := FindInSnapshot(yaml, FindQuery{Text: "e3"}, 10); total != 0 {
		t.Errorf("refs are not searched, but e3 found %+v", got)
	}
	if got, total := FindInSnapshot(yaml, FindQuery{Regex: regexp.MustCompile(`^link "H`)}, 10); total != 1 || got[0].Ref != "e1" {
		t.Errorf("regex search (the list marker is not part of the line) = %+v", got)
	}
	if got, total := FindInSnapshot(yaml, FindQuery{Text: "order"}, 1); total != 3 || len(got) != 1 {
		t.Errorf("limit 1: %d listed of %d, want 1 of 3", len(got), total)
	}
	// On a one-line row, the element that matches gives the ref.
	row := `- table:\n  - row: cell "1400" | cell "Pending" | cell: button "Ship 1400" [ref=e7], link "View 1400" [ref=e8] [url=/o/1400]`
	if got, total := FindInSnapshot(row, FindQuery{Text: "view 1400"}, 5); total != 1 || got[0].Ref != "e8" || got[0].Role != "link" {
		t.Errorf("text search on a row = %+v, want the link's ref e8", got)
	}
	if got, total := FindInSnapshot(row, FindQuery{Role: "button", Name: "ship 14"}, 5); total != 1 || got[0].Ref != "e7" || got[0].Name != "Ship 1400" {
		t.Errorf("role and name search on a row = %+v, want the button's ref e7", got)
	}
	if _, total := FindInSnapshot(row, FindQuery{Role: "link", Name: "ship"}, 5); total != 0 {
		t.Errorf("role link, name ship matched an element that is not both")
	}
	if got, total := FindInSnapshot(yaml, FindQuery{Role: "heading"}, 5); total != 1 || got[0].Name != "Orders" || got[0].Ref != "" {
		t.Errorf("role heading = %+v, want the heading without a ref of its own", got)
	}
	// A container without a ref lists the controls inside it, up to
	// maxControls, and says how many more; the next container is not its.
	feed := []string{`- article "Post 1":`, `  - heading "Post 1" [level=2]`, `  - button "Like" [ref=e4]`, `  - list:`}
	for i := range maxControls + 2 {
		feed = append(feed, fmt.Sprintf(`    - listitem: link "Tag %d" [ref=e%d]`, i, 10+i))
	}
	feed = append(feed, `- article "Post 2":`, `  - button "Like" [ref=e40]`)
	got, _ = FindInSnapshot(strings.Join(feed, "\n"), FindQuery{Role: "article", Name: "post 1"}, 5)
	if len(got) != 1 || len(got[0].Controls) != maxControls || got[0].More != 3 ||
		!reflect.DeepEqual(got[0].Controls[0], FindMatch{Line: `- button "Like" [ref=e4]`, Ref: "e4", Role: "button", Name: "Like"}) ||
		got[0].Controls[1].Ref != "e10" || got[0].Controls[1].Role != "link" {
		t.Errorf("a container's controls = %+v", got)
	}
	if got, _ := FindInSnapshot(yaml, FindQuery{Role: "button"}, 5); len(got) != 1 || got[0].Controls != nil {
		t.Errorf("a control lists no controls: %+v", got)
	}
}
