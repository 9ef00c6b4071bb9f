package snaptext

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

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
