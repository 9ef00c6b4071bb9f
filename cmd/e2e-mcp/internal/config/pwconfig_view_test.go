package config

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// viewSamples are a value of each kind, as a config file gives it, that
// browser_get_config gives back the same.
var viewSamples = map[pwKind]any{
	kindString: "text", kindBool: true, kindNotBool: false, kindInt: 8931.0, kindBytes: 1000.0, kindMillis: 2500.0, kindNumber: 2.5,
	kindList: []any{"/x/a.js", "/x/b.js"}, kindSize: map[string]any{"width": 800.0, "height": 600.0},
}

// viewSpecial are the values of the keys whose values are of a closed set
// or an object, or checked (a locale, a time zone).
var viewSpecial = map[string]any{
	"browser.browserName": "chromium", "browser.contextOptions.serviceWorkers": "block",
	"extension": false, "webmcp": false, "allowUnrestrictedFileAccess": true,
	"browser.contextOptions.locale": "fr-FR", "browser.contextOptions.timezoneId": "Europe/Paris",
	"browser.cdpHeaders":                 map[string]any{"X-Team": "qa"},
	"browser.launchOptions.proxy":        map[string]any{"server": "http://127.0.0.1:3128", "bypass": "localhost"},
	"browser.contextOptions.recordVideo": map[string]any{"dir": "/x/videos", "size": map[string]any{"width": 640.0, "height": 480.0}},
}

// viewElsewhere are the keys that set a setting and are not shown at their
// own place, with the key that shows what they set.
var viewElsewhere = map[string]string{
	"browser.contextOptions.proxy": "browser.launchOptions.proxy",
}

// TestConfigViewRoundTrip: each key of Playwright MCP's config file that
// sets one of our settings, given a value in a config file, is that value
// (its type too) in the config object browser_get_config answers; and
// every setting of ours is said once: by a key of theirs, or among ours.
func TestConfigViewRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, key := range slices.Sorted(maps.Keys(pwConfigKeys)) {
		k := pwConfigKeys[key]
		if k.refused != "" {
			continue
		}
		v, ok := viewSpecial[key]
		if !ok {
			v = viewSamples[k.kind]
		}
		if key == "browser.contextOptions.proxy" {
			v = viewSpecial["browser.launchOptions.proxy"]
		}
		if v == nil {
			t.Errorf("%s: no sample value of kind %d: give it one in viewSamples or viewSpecial", key, k.kind)
			continue
		}
		tree := map[string]any{}
		putDotted(tree, key, v)
		b, _ := json.Marshal(tree)
		path := writeFile(t, dir, strings.ReplaceAll(key, ".", "_")+".json", string(b))
		pc, err := readPWConfig(path)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		// The settings as the file sets them, without the start's checks
		// (the samples are of the key's type, not all good values).
		var c Config
		fs := configFlags("serve", &c)
		for _, kv := range pc.sets {
			if err := fs.Set(kv[0], kv[1]); err != nil {
				t.Errorf("%s: --%s %q: %v", key, kv[0], kv[1], err)
			}
		}
		at := key
		if other, ok := viewElsewhere[key]; ok {
			at = other
			if dig(View(c.Effective()), key) != nil {
				t.Errorf("%s is shown, and at %s too", key, other)
			}
		}
		got, want := canonical(dig(View(c.Effective()), at)), canonical(v)
		if got != want {
			t.Errorf("%s = %s in the config file: browser_get_config shows %s at %s", key, want, got, at)
		}
	}

	view := View((&Config{}).Effective())
	own, _ := view[mcptools.ConfigOwnKey].(map[string]any)
	for _, s := range settings {
		var by []string
		for key, k := range pwConfigKeys {
			if slices.Contains(k.shows(), s.flag) {
				by = append(by, key)
			}
		}
		if _, mine := own[s.flag]; mine == (len(by) > 0) {
			t.Errorf("--%s: among ours %v, said by their keys %v: want one or the other", s.flag, mine, by)
		}
	}
}

// canonical is v's JSON with its objects' keys sorted.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

// TestConfigViewMerged: the config object is of the settings merged from
// the config file, the environment and the flags, defaults included, as
// their browser_get_config test reads it; what their keys do not say is
// among ours.
func TestConfigViewMerged(t *testing.T) {
	path := writeFile(t, t.TempDir(), "c.json", `{"browser": {"contextOptions": {"viewport": {"width": 800, "height": 600}}}, "capabilities": ["config"],
		"timeouts": {"action": 10000, "navigation": 30000}}`)
	c, err := Parse("serve", []string{"--config", path, "--isolated", "--max-sessions", "7"},
		envOf(map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_NAVIGATION": "45000"}))
	if err != nil {
		t.Fatal(err)
	}
	view := View(c.Effective())
	for key, want := range map[string]string{
		"browser.contextOptions.viewport": `{"width":800,"height":600}`, // the file
		"timeouts.action":                 `10000`,                      // the file
		"timeouts.navigation":             `45000`,                      // their variable over the file
		"browser.isolated":                `true`,                       // the flag
		"timeouts.settle":                 `500`,                        // the default
		"browser.launchOptions.headless":  `true`,                       // the default
		"capabilities":                    `["config"]`,
		"browser.browserName":             `"chromium"`,
		"browser.userDataDir":             `null`, // not given, no default
		"e2e-mcp.max-sessions":            `"7"`,  // ours, by flag name
		"e2e-mcp.action-timeout":          `null`, // said by timeouts.action
		"e2e-mcp.config":                  `"` + path + `"`,
	} {
		if got, _ := json.Marshal(dig(view, key)); string(got) != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
}

// dig is the value at a dotted key of a config object (nil: none).
func dig(m map[string]any, key string) any {
	var v any = m
	for _, p := range strings.Split(key, ".") {
		o, _ := v.(map[string]any)
		v = o[p]
	}
	return v
}
