package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// Playwright MCP's config file (--config FILE): the JSON its
// `npx @playwright/mcp --config` reads, with the same keys (its config.d.ts),
// or the same keys in an INI file (pwconfig_ini.go), which becomes the same
// tree of keys and is read by the same walk. Each key sets one of our
// settings, as its flag would, unless a flag or an environment variable
// set that setting (pwcompat.go says the order). A key this server does
// not know is refused with its name, and so is one that has no meaning
// here, with why: a config file that says something must not be half read
// in silence.

// maxConfigFile bounds the config file read.
const maxConfigFile = 1 << 20

// pwKind is the type of a config key's value, which says how its JSON
// value becomes our setting's, and what an INI file's text stands for.
type pwKind int

const (
	kindString pwKind = iota + 1
	kindBool
	kindNotBool // a boolean ours says the opposite of (headless: --headed)
	kindInt
	kindBytes
	kindMillis
	kindNumber // a number that need not be whole (a pixel ratio)
	kindList   // an array of strings: ours is comma separated
	kindSize   // {"width": W, "height": H}: ours is WxH
	kindObject // an object of strings (headers, a proxy), read by its own set
)

// pwConfigKey is how one key of their config file sets ours: its kind and
// the setting its value sets, or a function making the assignments of a
// value that sets more or other, or why it is refused. Read backwards, it
// is the key's value in the config object browser_get_config answers
// (pwconfig_view.go): its setting's value as a value of its kind, or what
// view makes of the settings it reads.
type pwConfigKey struct {
	kind    pwKind
	setting string
	set     func(v any) ([][2]string, error)
	refused string
	// check, when set, refuses a value of ours the setting cannot take,
	// so that the start names the key rather than the flag.
	check func(string) error
	// view, beside set, is the key's value from our settings' (by flag
	// name), false when they give it none; nil: the key is not shown.
	view func(settings map[string]string) (any, bool)
	// reads are the settings view shows whole, which the config object
	// then does not repeat among ours.
	reads []string
}

// to is a key that sets one setting of ours from a value of its kind.
func to(setting string, kind pwKind) pwConfigKey { return pwConfigKey{kind: kind, setting: setting} }

// assignments are the settings of ours the key's JSON value sets.
func (k pwConfigKey) assignments(v any) ([][2]string, error) {
	if k.set != nil {
		return k.set(v)
	}
	s, err := k.kind.ours(v)
	if err != nil {
		return nil, err
	}
	if k.check != nil {
		if err := k.check(s); err != nil {
			return nil, errors.New(startError(err))
		}
	}
	return [][2]string{{k.setting, s}}, nil
}

// ours is a JSON value of the kind as our setting's value.
func (k pwKind) ours(v any) (string, error) {
	switch k {
	case kindString:
		return stringValue(v)
	case kindBool:
		return boolValue(v)
	case kindNotBool:
		s, err := boolValue(v)
		if err != nil {
			return "", err
		}
		return invert(s)
	case kindInt:
		return intValue(v)
	case kindBytes:
		return bytesValue(v)
	case kindMillis:
		return millisValueOf(v)
	case kindNumber:
		f, ok := v.(float64)
		if !ok {
			return "", fmt.Errorf("want a number, got %s", jsonOf(v))
		}
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	case kindList:
		return listValue(v)
	case kindSize:
		m, ok := v.(map[string]any)
		w, wok := m["width"].(float64)
		h, hok := m["height"].(float64)
		if !ok || !wok || !hok || len(m) != 2 {
			return "", fmt.Errorf("want {\"width\": W, \"height\": H}")
		}
		return fmt.Sprintf("%gx%g", w, h), nil
	}
	return "", fmt.Errorf("kind %d has no value of ours", k)
}

// pwGroups are the keys that hold objects of further keys.
var pwGroups = map[string]bool{
	"browser": true, "browser.launchOptions": true, "browser.contextOptions": true,
	"server": true, "console": true, "network": true, "timeouts": true, "snapshot": true,
}

const perSessionRefusal = "set it per session with browser_emulate or browser_emulate_media (--caps emulation)"

// pwConfigKeys are the leaf keys of their config file.
var pwConfigKeys = map[string]pwConfigKey{
	"browser.browserName": {kind: kindString, set: func(v any) ([][2]string, error) {
		if s, ok := v.(string); ok && s == "chromium" {
			return nil, nil
		}
		return nil, fmt.Errorf("%v: this server drives Chromium over CDP only; leave it out or give chromium", v)
	}, view: always("chromium")},
	"browser.isolated":    to("isolated", kindBool),
	"browser.userDataDir": to("user-data-dir", kindString),
	"browser.cdpEndpoint": to("cdp-endpoint", kindString),
	"browser.cdpHeaders": {kind: kindObject, set: func(v any) ([][2]string, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want an object of header names and values")
		}
		var lines []string
		for _, k := range sortedKeys(m) {
			s, ok := m[k].(string)
			if !ok {
				return nil, fmt.Errorf("%s: want a string", k)
			}
			lines = append(lines, k+": "+s)
		}
		return [][2]string{{"cdp-header", strings.Join(lines, ";")}}, nil
	}, view: headersView, reads: []string{"cdp-header"}},
	"browser.cdpTimeout":     to("cdp-timeout", kindMillis),
	"browser.remoteEndpoint": {refused: endpointRefusal},
	"browser.initPage":       {refused: "it runs TypeScript on Playwright's page object in Node, which this server has not: use browser.initScript (JavaScript run in every page)"},
	"browser.initScript":     to("init-script", kindList),

	"browser.launchOptions.channel":         to("browser", kindString),
	"browser.launchOptions.headless":        to("headed", kindNotBool),
	"browser.launchOptions.executablePath":  to("browser-path", kindString),
	"browser.launchOptions.chromiumSandbox": to("no-sandbox", kindNotBool),
	"browser.launchOptions.proxy":           {kind: kindObject, set: proxyValue, view: proxyView, reads: []string{"proxy-server", "proxy-bypass"}},
	"browser.launchOptions.args":            {refused: "this server chooses Chromium's command line itself: use the settings (--no-sandbox, --proxy-server, --ignore-https-errors...)"},

	"browser.contextOptions.viewport":          to("viewport-size", kindSize),
	"browser.contextOptions.userAgent":         to("user-agent", kindString),
	"browser.contextOptions.proxy":             {kind: kindObject, set: proxyValue}, // shown once, as launchOptions.proxy
	"browser.contextOptions.ignoreHTTPSErrors": to("ignore-https-errors", kindBool),
	"browser.contextOptions.permissions":       to("grant-permissions", kindList),
	"browser.contextOptions.storageState":      to("storage-state", kindString),
	"browser.contextOptions.serviceWorkers": {kind: kindString, set: func(v any) ([][2]string, error) {
		switch v {
		case "block":
			return [][2]string{{"block-service-workers", "true"}}, nil
		case "allow":
			return [][2]string{{"block-service-workers", "false"}}, nil
		}
		return nil, fmt.Errorf("%v: want block or allow", v)
	}, view: func(s map[string]string) (any, bool) {
		if s["block-service-workers"] == "true" {
			return "block", true
		}
		return "allow", true
	}, reads: []string{"block-service-workers"}},
	"browser.contextOptions.bypassCSP":         to("bypass-csp", kindBool),
	"browser.contextOptions.javaScriptEnabled": to("no-javascript", kindNotBool),
	"browser.contextOptions.locale":            {kind: kindString, setting: "locale", check: devices.CheckLocale},
	"browser.contextOptions.timezoneId":        {kind: kindString, setting: "timezone", check: devices.CheckTimezone},
	"browser.contextOptions.geolocation":       {refused: perSessionRefusal},
	"browser.contextOptions.colorScheme":       {refused: perSessionRefusal},
	"browser.contextOptions.reducedMotion":     {refused: perSessionRefusal},
	"browser.contextOptions.extraHTTPHeaders":  {refused: perSessionRefusal},
	"browser.contextOptions.httpCredentials":   {refused: perSessionRefusal},
	"browser.contextOptions.isMobile":          {refused: "use --device or --mobile"},
	"browser.contextOptions.hasTouch":          {refused: "use --device or --mobile"},
	"browser.contextOptions.deviceScaleFactor": to("device-scale-factor", kindNumber),
	"browser.contextOptions.recordVideo": {kind: kindObject, set: recordVideoValue, view: recordVideoView,
		reads: []string{"save-video", "save-video-dir"}},

	"extension": {kind: kindBool, set: func(v any) ([][2]string, error) {
		if v == false {
			return nil, nil
		}
		return nil, fmt.Errorf("%s", extensionRefusal)
	}, view: always(false)},
	"server.port":         to("port", kindInt),
	"server.host":         to("host", kindString),
	"server.allowedHosts": to("allowed-hosts", kindList),
	"capabilities":        to("caps", kindList),
	"saveSession":         to("save-trace", kindBool),
	"saveTrace":           to("save-trace", kindBool),
	"webmcp": {kind: kindBool, set: func(v any) ([][2]string, error) {
		if v == false {
			return nil, nil
		}
		return nil, fmt.Errorf("this server never offers the tools pages register through WebMCP: leave it out or give false")
	}, view: always(false)},
	"sharedBrowserContext":   to("shared-browser-context", kindBool),
	"outputDir":              to("output-dir", kindString),
	"outputMaxSize":          to("output-max-size", kindBytes),
	"console.level":          to("console-level", kindString),
	"network.allowedOrigins": to("allowed-origins", kindList),
	"network.blockedOrigins": to("blocked-origins", kindList),
	"testIdAttribute":        to("test-id-attribute", kindString),
	"timeouts.action":        to("action-timeout", kindMillis),
	"timeouts.navigation":    to("navigation-timeout", kindMillis),
	"timeouts.settle":        to("timeout-settle", kindMillis),
	"timeouts.idle":          to("idle-timeout", kindMillis),
	"timeouts.expect":        {refused: "a check waits as long as its call's timeout argument says (browser_expect, browser_wait_for)"},
	"imageResponses":         to("image-responses", kindString),
	"filePaths":              to("file-paths", kindString),
	"snapshot.mode":          to("snapshot-mode", kindString),
	"snapshot.boxes":         to("snapshot-boxes", kindBool),
	"allowUnrestrictedFileAccess": {kind: kindBool, set: func(v any) ([][2]string, error) {
		s, err := boolValue(v)
		if err != nil {
			return nil, err
		}
		f, _ := pwFlagNamed("allow-unrestricted-file-access")
		return f.assignments(s)
	}, view: func(s map[string]string) (any, bool) {
		// Both of what it sets; each stays among ours, which say more.
		return s["allow-file-urls"] == "true" && s["file-roots"] == "/", true
	}},
	"codegen": to("codegen", kindString),
}

func stringValue(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", fmt.Errorf("want a string, got %s", jsonOf(v))
}

func boolValue(v any) (string, error) {
	if b, ok := v.(bool); ok {
		return strconv.FormatBool(b), nil
	}
	return "", fmt.Errorf("want true or false, got %s", jsonOf(v))
}

func intValue(v any) (string, error) {
	if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
		return strconv.Itoa(int(f)), nil
	}
	return "", fmt.Errorf("want a whole number, got %s", jsonOf(v))
}

func bytesValue(v any) (string, error) {
	if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= 0 && f < 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return "", fmt.Errorf("want a number of bytes, got %s", jsonOf(v))
}

// millisValueOf is a number of milliseconds as a duration of ours.
func millisValueOf(v any) (string, error) {
	f, ok := v.(float64)
	if !ok || f < 0 || f > 1e12 {
		return "", fmt.Errorf("want milliseconds (a number 0 or more), got %s", jsonOf(v))
	}
	return millisecondsOf(strconv.FormatFloat(f, 'f', -1, 64))
}

// listValue is an array of strings, joined with commas.
func listValue(v any) (string, error) {
	xs, ok := v.([]any)
	if !ok {
		return "", fmt.Errorf("want an array of strings, got %s", jsonOf(v))
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		s, ok := x.(string)
		if !ok || strings.Contains(s, ",") {
			return "", fmt.Errorf("item %d: want a string without \",\", got %s", i+1, jsonOf(x))
		}
		out[i] = s
	}
	return strings.Join(out, ","), nil
}

// proxyValue is launchOptions.proxy (or contextOptions.proxy): server,
// bypass, username, password.
func proxyValue(v any) ([][2]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want {\"server\": ..., \"bypass\": ...}")
	}
	var server, bypass, user, pass string
	for _, k := range sortedKeys(m) {
		s, ok := m[k].(string)
		if !ok {
			return nil, fmt.Errorf("%s: want a string", k)
		}
		switch k {
		case "server":
			server = s
		case "bypass":
			bypass = s
		case "username":
			user = s
		case "password":
			pass = s
		default:
			return nil, fmt.Errorf("unknown key %q (server, bypass, username, password)", k)
		}
	}
	if server == "" {
		return nil, fmt.Errorf("server: give the proxy's URL")
	}
	if user != "" {
		u, err := url.Parse(server)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("server: not a URL (scheme://host:port)")
		}
		u.User = url.UserPassword(user, pass)
		server = u.String()
	}
	out := [][2]string{{"proxy-server", server}}
	if bypass != "" {
		out = append(out, [2]string{"proxy-bypass", bypass})
	}
	return out, nil
}

// recordVideoValue is contextOptions.recordVideo, {dir, size: {width,
// height}}: every session's video (--save-video, at that size) in dir
// (--save-video-dir). Theirs films each page as a WebM; ours, each session
// as an animated PNG.
func recordVideoValue(v any) ([][2]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want {\"dir\": ..., \"size\": {\"width\": W, \"height\": H}}")
	}
	dir, size := "", "true"
	for _, k := range sortedKeys(m) {
		switch k {
		case "dir":
			s, ok := m[k].(string)
			if !ok || s == "" {
				return nil, fmt.Errorf("dir: want the directory's path")
			}
			dir = s
		case "size":
			sz, ok := m[k].(map[string]any)
			w, wok := sz["width"].(float64)
			h, hok := sz["height"].(float64)
			if !ok || !wok || !hok || len(sz) != 2 {
				return nil, fmt.Errorf("size: want {\"width\": W, \"height\": H}")
			}
			size = fmt.Sprintf("%gx%g", w, h)
		default:
			return nil, fmt.Errorf("unknown key %q (dir, size)", k)
		}
	}
	if dir == "" {
		return nil, fmt.Errorf("dir: give the directory the videos go to")
	}
	return [][2]string{{"save-video", size}, {"save-video-dir", dir}}, nil
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		b = append(b[:37], "..."...)
	}
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// pwConfig is what a config file says: our settings' values by name, and
// the secrets it holds.
type pwConfig struct {
	sets    [][2]string
	secrets map[string]string
}

// readPWConfig reads and checks a config file of theirs, JSON or INI.
func readPWConfig(path string) (*pwConfig, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	if fi.Size() > maxConfigFile {
		return nil, fmt.Errorf("--config %s: %d bytes, more than a config file may be (%d)", path, fi.Size(), maxConfigFile)
	}
	b, err := os.ReadFile(path) //nolint:gosec // the operator names the config file
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	root, err := pwConfigTree(strings.EqualFold(filepath.Ext(path), ".ini"), b)
	if err != nil {
		return nil, fmt.Errorf("--config %s: %w", path, err)
	}
	out := &pwConfig{}
	var errs []string
	walkPWConfig(root, "", out, &errs)
	if len(errs) > 0 {
		return nil, fmt.Errorf("--config %s: %s", path, strings.Join(errs, "; "))
	}
	// Its scripts' paths are the file's, as theirs reads them.
	dir := filepath.Dir(path)
	for i, kv := range out.sets {
		if kv[0] != "init-script" || kv[1] == "" {
			continue
		}
		ps := strings.Split(kv[1], ",")
		for j, p := range ps {
			if !filepath.IsAbs(p) {
				ps[j] = filepath.Join(dir, p)
			}
		}
		out.sets[i][1] = strings.Join(ps, ",")
	}
	return out, nil
}

func walkPWConfig(m map[string]any, prefix string, out *pwConfig, errs *[]string) {
	for _, k := range sortedKeys(m) {
		key, v := prefix+k, m[k]
		if v == nil {
			continue // null: not set, as theirs reads it
		}
		switch {
		case key == "secrets":
			sec, ok := v.(map[string]any)
			if !ok {
				*errs = append(*errs, "secrets: want an object of names and values")
				continue
			}
			out.secrets = map[string]string{}
			for _, n := range sortedKeys(sec) {
				s, ok := sec[n].(string)
				if !ok || !secretNameRE.MatchString(n) {
					*errs = append(*errs, fmt.Sprintf("secrets.%s: want a name of letters, digits, _ and - with a string value", n))
					continue
				}
				out.secrets[n] = s
			}
		case pwGroups[key]:
			sub, ok := v.(map[string]any)
			if !ok {
				*errs = append(*errs, fmt.Sprintf("%s: want an object", key))
				continue
			}
			walkPWConfig(sub, key+".", out, errs)
		default:
			h, ok := pwConfigKeys[key]
			switch {
			case !ok:
				*errs = append(*errs, fmt.Sprintf("unknown key %q", key))
			case h.refused != "":
				*errs = append(*errs, fmt.Sprintf("%s has no meaning here: %s", key, h.refused))
			default:
				sets, err := h.assignments(v)
				if err != nil {
					*errs = append(*errs, fmt.Sprintf("%s: %v", key, err))
					continue
				}
				out.sets = append(out.sets, sets...)
			}
		}
	}
}
