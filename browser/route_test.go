package browser

import (
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
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
		r := netguard.Route{Pattern: c.pattern}
		if err := compileRoute(&r); err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		for _, u := range c.match {
			if !r.Matches(u) {
				t.Errorf("%q does not match %s", c.pattern, u)
			}
		}
		for _, u := range c.miss {
			if r.Matches(u) {
				t.Errorf("%q matches %s", c.pattern, u)
			}
		}
	}
}

// TestRouteChecks: a route that cannot work is refused with what to do.
func TestRouteChecks(t *testing.T) {
	for _, c := range []struct {
		r    netguard.Route
		want string
	}{
		{netguard.Route{Pattern: " "}, "pattern is empty"},
		{netguard.Route{Pattern: "/(?<=a)b/"}, "RE2"},
		{netguard.Route{Pattern: "/a/u"}, "flag"},
		{netguard.Route{Pattern: "**", Abort: "nope"}, "abort reason"},
		{netguard.Route{Pattern: "**", Abort: "failed", Status: 500}, "abort with a response"},
		{netguard.Route{Pattern: "**", Status: 700}, "status 700"},
		{netguard.Route{Pattern: "**", Delay: 2 * netguard.MaxRouteDelay}, "delay"},
		{netguard.Route{Pattern: "**", Delay: -1}, "delay"},
		{netguard.Route{Pattern: "**", Times: -1}, "times"},
	} {
		err := compileRoute(&c.r)
		be, ok := AsError(err)
		if !ok || be.Kind != KindInvalidInput || !strings.Contains(be.Message+" "+be.Hint, c.want) {
			t.Errorf("%+v: got %v, want an invalid_input error about %q", c.r, err, c.want)
		}
	}
}

// TestAddRouteBound: a session holds at most netguard.MaxRoutes routes; replacing
// one of the same pattern works at the bound and keeps the count.
func TestAddRouteBound(t *testing.T) {
	tabs := &Tabs{}
	ctx := t.Context()
	for i := range netguard.MaxRoutes {
		if _, err := tabs.AddRoute(ctx, netguard.Route{Pattern: "/r" + strconv.Itoa(i), Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tabs.AddRoute(ctx, netguard.Route{Pattern: "/one-more", Status: 200}); err == nil {
		t.Fatalf("route %d was accepted", netguard.MaxRoutes+1)
	}
	replaced, err := tabs.AddRoute(ctx, netguard.Route{Pattern: "/r7", Status: 500})
	if err != nil || !replaced || len(tabs.Routes()) != netguard.MaxRoutes || tabs.Routes()[0].Pattern != "/r7" {
		t.Fatalf("replacing at the bound: replaced %v, err %v, %d routes", replaced, err, len(tabs.Routes()))
	}
	if n, _ := tabs.RemoveRoutes(ctx, ""); n != netguard.MaxRoutes {
		t.Errorf("removed %d routes", n)
	}
}
