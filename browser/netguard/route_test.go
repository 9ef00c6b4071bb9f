package netguard

import (
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/network"
)

// TestRouteTable: the newest route that matches answers; one of Times
// uses goes away after them.
func TestRouteTable(t *testing.T) {
	var rt routeTable
	for _, c := range []struct {
		r   Route
		src string
	}{{Route{Pattern: "**", Status: 200}, "^.*$"}, {Route{Pattern: "**/api/*", Status: 500, Times: 2}, `^.*\/api\/[^/]*$`}} {
		r := c.r
		if err := r.Compile(c.src, "", false); err != nil {
			t.Fatal(err)
		}
		rt.routes = append([]*Route{&r}, rt.routes...)
	}
	var got []int
	for range 4 {
		got = append(got, rt.take("http://h/api/x").Status)
	}
	if want := []int{500, 500, 200, 200}; !reflect.DeepEqual(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if r := rt.take("http://h/"); r == nil || r.Status != 200 {
		t.Errorf("the catch-all route does not take /: %+v", r)
	}
	if rt.routes[0].Action() != "fulfil 200, 0 bytes" {
		t.Errorf("action %q", rt.routes[0].Action())
	}
}

func TestChangedHeaders(t *testing.T) {
	got := changedHeaders(network.Headers{"Accept": "*/*", "X-Client": "inventory", "Cookie": "a=b"},
		map[string]string{"x-client": "agent", "X-New": "1"}, []string{" cookie "})
	var lines []string
	for _, h := range got {
		lines = append(lines, h.Name+": "+h.Value)
	}
	if want := []string{"Accept: */*", "X-New: 1", "x-client: agent"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("headers %v, want %v", lines, want)
	}
}
