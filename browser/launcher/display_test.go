package launcher

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestNoDisplay: on Linux a visible browser needs DISPLAY or
// WAYLAND_DISPLAY, and without either the error says so and what to do;
// macOS and Windows need neither.
func TestNoDisplay(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	e := noDisplay("linux", env(nil))
	if e == nil || e.Kind != refusal.BrowserLaunchFail || !strings.Contains(e.Message, "no display") || !strings.Contains(e.Hint, "xvfb-run") {
		t.Errorf("linux without a display: %+v", e)
	}
	for _, c := range []struct {
		goos string
		env  map[string]string
	}{
		{"linux", map[string]string{"DISPLAY": ":0"}},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}},
		{"freebsd", map[string]string{"DISPLAY": ":1"}},
		{"darwin", nil},
		{"windows", nil},
	} {
		if e := noDisplay(c.goos, env(c.env)); e != nil {
			t.Errorf("%s %v: %v", c.goos, c.env, e)
		}
	}
}
