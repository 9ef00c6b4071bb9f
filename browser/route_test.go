package browser

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
)

// TestRouteMatching: the URL patterns routes take are those of
// browser_wait_for's url, matched in Go.
func TestRouteMatching(t *testing.T) {
	for _, c := range []struct {
		pattern string
		match   []string
		miss    []string
	}{
		{"**/api/items", []string{"http://127.0.0.1:8080/api/items", "https://x.test/a/api/items"},
			[]string{"http://h/api/items?x=1", "http://h/api/items/2"}},
		{"**/api/*", []string{"http://h/api/items", "http://h/api/"}, []string{"http://h/api/a/b"}},
		{"/api/items", []string{"http://h:1/api/items"}, []string{"http://h/v2/api/items"}},
		{"/api/*?page=*", []string{"http://h/api/x?page=2"}, []string{"http://h/api/x"}},
		{`/\/api\/\d+$/`, []string{"http://h/api/12"}, []string{"http://h/api/x"}},
		{"/ITEMS/i", []string{"http://h/api/items"}, nil},
		{"http://*.test/**", []string{"http://a.test/x/y"}, []string{"https://a.test/x", "http://a.test"}},
	} {
		r := Route{Pattern: c.pattern}
		if err := r.compile(); err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		for _, u := range c.match {
			if !r.matches(u) {
				t.Errorf("%q does not match %s", c.pattern, u)
			}
		}
		for _, u := range c.miss {
			if r.matches(u) {
				t.Errorf("%q matches %s", c.pattern, u)
			}
		}
	}
}

// TestRouteChecks: a route that cannot work is refused with what to do.
func TestRouteChecks(t *testing.T) {
	for _, c := range []struct {
		r    Route
		want string
	}{
		{Route{Pattern: " "}, "pattern is empty"},
		{Route{Pattern: "/(?<=a)b/"}, "RE2"},
		{Route{Pattern: "/a/u"}, "flag"},
		{Route{Pattern: "**", Abort: "nope"}, "abort reason"},
		{Route{Pattern: "**", Abort: "failed", Status: 500}, "abort with a response"},
		{Route{Pattern: "**", Status: 700}, "status 700"},
		{Route{Pattern: "**", Delay: 2 * MaxRouteDelay}, "delay"},
		{Route{Pattern: "**", Delay: -1}, "delay"},
		{Route{Pattern: "**", Times: -1}, "times"},
	} {
		err := c.r.compile()
		be, ok := AsError(err)
		if !ok || be.Kind != KindInvalidInput || !strings.Contains(be.Message+" "+be.Hint, c.want) {
			t.Errorf("%+v: got %v, want an invalid_input error about %q", c.r, err, c.want)
		}
	}
}

// TestRouteTable: the newest route that matches answers; one of Times
// uses goes away after them.
func TestRouteTable(t *testing.T) {
	var rt routeTable
	for _, r := range []Route{{Pattern: "**", Status: 200}, {Pattern: "**/api/*", Status: 500, Times: 2}} {
		if err := r.compile(); err != nil {
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

// TestAddRouteBound: a session holds at most maxRoutes routes; replacing
// one of the same pattern works at the bound and keeps the count.
func TestAddRouteBound(t *testing.T) {
	tabs := &Tabs{}
	ctx := t.Context()
	for i := range maxRoutes {
		if _, err := tabs.AddRoute(ctx, Route{Pattern: "/r" + strconv.Itoa(i), Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tabs.AddRoute(ctx, Route{Pattern: "/one-more", Status: 200}); err == nil {
		t.Fatalf("route %d was accepted", maxRoutes+1)
	}
	replaced, err := tabs.AddRoute(ctx, Route{Pattern: "/r7", Status: 500})
	if err != nil || !replaced || len(tabs.Routes()) != maxRoutes || tabs.Routes()[0].Pattern != "/r7" {
		t.Fatalf("replacing at the bound: replaced %v, err %v, %d routes", replaced, err, len(tabs.Routes()))
	}
	if n, _ := tabs.RemoveRoutes(ctx, ""); n != maxRoutes {
		t.Errorf("removed %d routes", n)
	}
}
