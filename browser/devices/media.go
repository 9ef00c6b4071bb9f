package devices

import (
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// Media is what the CSS media queries of a session's pages see; an empty
// field is the browser's own value.
type Media struct {
	Type          string `json:"media,omitempty"`         // screen or print
	ColorScheme   string `json:"colorScheme,omitempty"`   // light, dark or no-preference
	ReducedMotion string `json:"reducedMotion,omitempty"` // reduce or no-preference
	ForcedColors  string `json:"forcedColors,omitempty"`  // active or none
	Contrast      string `json:"contrast,omitempty"`      // more, less or no-preference
}

// MediaFeature is a CSS media feature (prefers-color-scheme...) and the
// value a Media gives it ("": the browser's own).
type MediaFeature struct {
	Name, Value string
}

// mediaValues are the values each field takes, as Playwright's emulateMedia
// names them.
var mediaValues = []struct {
	field, feature string
	values         []string
	get            func(Media) string
}{
	{"media", "", []string{"screen", "print"}, func(m Media) string { return m.Type }},
	{"colorScheme", "prefers-color-scheme", []string{"light", "dark", "no-preference"}, func(m Media) string { return m.ColorScheme }},
	{"reducedMotion", "prefers-reduced-motion", []string{"reduce", "no-preference"}, func(m Media) string { return m.ReducedMotion }},
	{"forcedColors", "forced-colors", []string{"active", "none"}, func(m Media) string { return m.ForcedColors }},
	{"contrast", "prefers-contrast", []string{"more", "less", "no-preference"}, func(m Media) string { return m.Contrast }},
}

// Check refuses (a [*refusal.Error]) a value that a field of m does not take,
// with the values it takes.
func (m Media) Check() error {
	for _, f := range mediaValues {
		v := f.get(m)
		if v == "" {
			continue
		}
		ok := false
		for _, w := range f.values {
			ok = ok || v == w
		}
		if !ok {
			return refusal.Invalid("use one of "+text.JoinOr(f.values), "%s %q", f.field, v)
		}
	}
	return nil
}

// Features are the media features m sets, each of them, in a fixed order:
// those it leaves empty are the browser's own again.
func (m Media) Features() []MediaFeature {
	var out []MediaFeature
	for _, f := range mediaValues {
		if f.feature != "" {
			out = append(out, MediaFeature{Name: f.feature, Value: f.get(m)})
		}
	}
	return out
}
