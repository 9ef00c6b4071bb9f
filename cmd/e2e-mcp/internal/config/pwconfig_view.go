package config

import (
	"flag"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// The config object browser_get_config answers is Playwright MCP's: the
// keys of their config file (pwConfigKeys), each with the value of the
// setting of ours it sets, after the flags, the environment, the config
// file and the defaults are merged, in their types (milliseconds as
// numbers, booleans, the viewport as {"width", "height"}, lists as arrays):
// what a Playwright MCP user reads there is what they expect. The settings
// of ours that no key of theirs says go under mcptools.ConfigOwnKey, by
// flag name, as the flags give them. mcptools masks the credentials of
// both, and adds the capability groups on.

// View is the config object of the settings (every setting by its
// flag's name, as Config.effective gives them).
func View(settings map[string]string) map[string]any {
	root := map[string]any{}
	shown := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(pwConfigKeys)) {
		k := pwConfigKeys[key]
		for _, s := range k.shows() {
			shown[s] = true
		}
		if v, ok := k.shown(settings); ok {
			putDotted(root, key, v)
		}
	}
	own := map[string]any{}
	for name, v := range settings {
		if !shown[name] {
			own[name] = v
		}
	}
	root[mcptools.ConfigOwnKey] = own
	return root
}

// shown is the key's value in the config object, from the settings; false
// when it has none (a setting not given that has no default, a key whose
// settings show elsewhere).
func (k pwConfigKey) shown(settings map[string]string) (any, bool) {
	switch {
	case k.refused != "":
		return nil, false
	case k.view != nil:
		return k.view(settings)
	case k.setting != "" && k.set == nil:
		return k.kind.theirs(settings[k.setting])
	}
	return nil, false
}

// shows are the settings the key's value says whole.
func (k pwConfigKey) shows() []string {
	if k.setting != "" && k.set == nil && k.view == nil {
		return []string{k.setting}
	}
	return k.reads
}

// theirs is a value of our setting as a value of the kind, false for a
// value that says nothing (an empty text or list, port 0).
func (k pwKind) theirs(v string) (any, bool) {
	switch k {
	case kindString:
		return v, v != ""
	case kindBool, kindNotBool:
		b, err := strconv.ParseBool(v)
		return b != (k == kindNotBool), err == nil
	case kindInt:
		n, err := strconv.Atoi(v)
		return n, err == nil && n != 0
	case kindBytes:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	case kindNumber:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil && f != 0
	case kindMillis:
		d, err := parseMillis(v)
		return float64(d) / float64(time.Millisecond), err == nil
	case kindList:
		var items []string
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
		return items, len(items) > 0
	case kindSize:
		z, err := devices.ParseSize(v)
		return pwSize{z.Width, z.Height}, err == nil
	}
	return nil, false
}

// pwSize is a size as their config gives it.
type pwSize struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// always is a view of a key whose value here is always v.
func always(v any) func(map[string]string) (any, bool) {
	return func(map[string]string) (any, bool) { return v, true }
}

// headersView is browser.cdpHeaders: --cdp-header's lines as an object
// of header names and values (a map of strings, which the masking reads
// as headers: a credential's value is masked by its name).
func headersView(s map[string]string) (any, bool) {
	out := map[string]string{}
	for _, h := range strings.FieldsFunc(s["cdp-header"], func(r rune) bool { return r == ';' || r == '\n' }) {
		if name, v, ok := strings.Cut(h, ":"); ok {
			out[strings.TrimSpace(name)] = strings.TrimSpace(v)
		}
	}
	return out, len(out) > 0
}

// recordVideoView is browser.contextOptions.recordVideo: the directory of
// --save-video-dir and the size --save-video gives, when it names one.
func recordVideoView(s map[string]string) (any, bool) {
	if s["save-video-dir"] == "" {
		return nil, false
	}
	out := map[string]any{"dir": s["save-video-dir"]}
	if z, err := devices.ParseSize(s["save-video"]); err == nil {
		out["size"] = pwSize{z.Width, z.Height}
	}
	return out, true
}

// proxyView is browser.launchOptions.proxy: its server (with the user and
// password given, which the masking hides) and bypass.
func proxyView(s map[string]string) (any, bool) {
	if s["proxy-server"] == "" {
		return nil, false
	}
	out := map[string]any{"server": s["proxy-server"]}
	if b := s["proxy-bypass"]; b != "" {
		out["bypass"] = b
	}
	return out, true
}

// putDotted puts v at a dotted key of the tree, making the objects above
// it.
func putDotted(tree map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	m := tree
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[parts[len(parts)-1]] = v
}

// Effective is every setting by its flag's name, as given or by default:
// what browser_get_config shows (View; it masks the credentials).
func (c *Config) Effective() map[string]string {
	var bound Config
	fs := configFlags("serve", &bound)
	// The flags point into bound: give it c's values, then read them.
	bound = *c
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f.Value.String() })
	return out
}
