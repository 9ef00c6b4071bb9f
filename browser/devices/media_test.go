package devices

import (
	"errors"
	"reflect"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestMediaCheck: each media field takes its own values ("" is the
// browser's own); anything else is refused with the values it takes.
func TestMediaCheck(t *testing.T) {
	for _, m := range []Media{{}, {Type: "print", ColorScheme: "dark", ReducedMotion: "reduce", ForcedColors: "active", Contrast: "more"},
		{ColorScheme: "no-preference", Contrast: "less"}} {
		if err := m.Check(); err != nil {
			t.Errorf("Check(%+v) = %v", m, err)
		}
	}
	for _, c := range []struct {
		m         Media
		msg, hint string
	}{
		{Media{Type: "tv"}, `media "tv"`, "use one of screen or print"},
		{Media{ColorScheme: "Dark"}, `colorScheme "Dark"`, "use one of light, dark or no-preference"},
		{Media{ReducedMotion: "none"}, `reducedMotion "none"`, "use one of reduce or no-preference"},
		{Media{ForcedColors: "on"}, `forcedColors "on"`, "use one of active or none"},
		{Media{Contrast: "high"}, `contrast "high"`, "use one of more, less or no-preference"},
	} {
		var e *refusal.Error
		if err := c.m.Check(); !errors.As(err, &e) || e.Message != c.msg || e.Hint != c.hint {
			t.Errorf("Check(%+v) = %#v, want %q (hint %q)", c.m, err, c.msg, c.hint)
		}
	}
}

// TestMediaFeatures: every feature, in a fixed order, with what m gives
// it: an empty value clears an earlier one.
func TestMediaFeatures(t *testing.T) {
	want := []MediaFeature{{"prefers-color-scheme", "dark"}, {"prefers-reduced-motion", ""}, {"forced-colors", ""}, {"prefers-contrast", "more"}}
	if got := (Media{Type: "print", ColorScheme: "dark", Contrast: "more"}).Features(); !reflect.DeepEqual(got, want) {
		t.Errorf("Features = %+v, want %+v", got, want)
	}
}

// TestNetworkState: the presets, online and offline unthrottled; any other
// name is refused naming them.
func TestNetworkState(t *testing.T) {
	if got := NetworkStates(); !reflect.DeepEqual(got, []string{"fast-3g", "fast-4g", "offline", "online", "slow-3g"}) {
		t.Errorf("NetworkStates = %v", got)
	}
	if c, err := NetworkState("offline"); err != nil || !c.Offline || c.DownloadThroughput != -1 || c.UploadThroughput != -1 {
		t.Errorf("offline = %+v, %v", c, err)
	}
	if c, err := NetworkState("slow-3g"); err != nil || c.Offline || c.Latency != 2000 || c.DownloadThroughput != 50000 || c.ConnectionType != "cellular3g" {
		t.Errorf("slow-3g = %+v, %v", c, err)
	}
	var e *refusal.Error
	if _, err := NetworkState("3g"); !errors.As(err, &e) || e.Message != `network state "3g"` ||
		e.Hint != "use one of fast-3g, fast-4g, offline, online or slow-3g" {
		t.Errorf("3g: %#v", err)
	}
}
