package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Playwright MCP's config file (--config FILE): the JSON its
// `npx @playwright/mcp --config` reads, with the same keys (its config.d.ts).
// Each key sets one of our settings, as its flag would, unless a flag or
// an environment variable set that setting (pwcompat.go says the order).
// A key this server does not know is refused with its name, and so is one
// that has no meaning here, with why: a config file that says something
// must not be half read in silence.

// maxConfigFile bounds the config file read.
const maxConfigFile = 1 << 20

// pwConfigKey is how one key of their config file sets ours: the
// assignments it makes of its JSON value, or why it is refused.
type pwConfigKey struct {
	set     func(v any) ([][2]string, error)
	refused string
}

// pwGroups are the keys that hold objects of further keys.
var pwGroups = map[string]bool{
	"browser": true, "browser.launchOptions": true, "browser.contextOptions": true,
	"server": true, "console": true, "network": true, "timeouts": true, "snapshot": true,
}

const perSessionRefusal = "set it per session with browser_emulate or browser_emulate_media (--caps emulation)"

// pwConfigKeys are the leaf keys of their config file.
var pwConfigKeys = map[string]pwConfigKey{
	"browser.browserName": {set: func(v any) ([][2]string, error) {
		if s, ok := v.(string); ok && s == "chromium" {
			return nil, nil
		}
		return nil, fmt.Errorf("%v: this server drives Chromium over CDP only; leave it out or give chromium", v)
	}},
	"browser.isolated":    {set: as("isolated", boolValue)},
	"browser.userDataDir": {set: as("user-data-dir", stringValue)},
	"browser.cdpEndpoint": {set: as("cdp-endpoint", stringValue)},
	"browser.cdpHeaders": {set: func(v any) ([][2]string, error) {
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
	}},
	"browser.cdpTimeout":     {set: as("cdp-timeout", millisValueOf)},
	"browser.remoteEndpoint": {refused: endpointRefusal},
	"browser.initPage":       {refused: "it runs TypeScript on Playwright's page object in Node, which this server has not: use browser.initScript (JavaScript run in every page)"},
	"browser.initScript":     {set: as("init-script", listValue(","))},

	"browser.launchOptions.channel":         {set: as("browser", stringValue)},
	"browser.launchOptions.headless":        {set: as("headed", func(v any) (string, error) { return invertedBool(v) })},
	"browser.launchOptions.executablePath":  {set: as("browser-path", stringValue)},
	"browser.launchOptions.chromiumSandbox": {set: as("no-sandbox", func(v any) (string, error) { return invertedBool(v) })},
	"browser.launchOptions.proxy":           {set: proxyValue},
	"browser.launchOptions.args":            {refused: "this server chooses Chromium's command line itself: use the settings (--no-sandbox, --proxy-server, --ignore-https-errors...)"},

	"browser.contextOptions.viewport": {set: as("viewport-size", func(v any) (string, error) {
		m, ok := v.(map[string]any)
		w, wok := m["width"].(float64)
		h, hok := m["height"].(float64)
		if !ok || !wok || !hok || len(m) != 2 {
			return "", fmt.Errorf("want {\"width\": W, \"height\": H}")
		}
		return fmt.Sprintf("%gx%g", w, h), nil
	})},
	"browser.contextOptions.userAgent":         {set: as("user-agent", stringValue)},
	"browser.contextOptions.proxy":             {set: proxyValue},
	"browser.contextOptions.ignoreHTTPSErrors": {set: as("ignore-https-errors", boolValue)},
	"browser.contextOptions.permissions":       {set: as("grant-permissions", listValue(","))},
	"browser.contextOptions.storageState": {set: as("storage-state", func(v any) (string, error) {
		if s, ok := v.(string); ok {
			return s, nil
		}
		return "", fmt.Errorf("give the path of a storage state file")
	})},
	"browser.contextOptions.serviceWorkers": {set: as("block-service-workers", func(v any) (string, error) {
		switch v {
		case "block":
			return "true", nil
		case "allow":
			return "false", nil
		}
		return "", fmt.Errorf("%v: want block or allow", v)
	})},
	"browser.contextOptions.locale":           {refused: perSessionRefusal},
	"browser.contextOptions.timezoneId":       {refused: perSessionRefusal},
	"browser.contextOptions.geolocation":      {refused: perSessionRefusal},
	"browser.contextOptions.colorScheme":      {refused: perSessionRefusal},
	"browser.contextOptions.reducedMotion":    {refused: perSessionRefusal},
	"browser.contextOptions.extraHTTPHeaders": {refused: perSessionRefusal},
	"browser.contextOptions.httpCredentials":  {refused: perSessionRefusal},
	"browser.contextOptions.isMobile":         {refused: "use --device or --mobile"},
	"browser.contextOptions.hasTouch":         {refused: "use --device or --mobile"},
	"browser.contextOptions.deviceScaleFactor": {set: as("device-scale-factor", func(v any) (string, error) {
		if f, ok := v.(float64); ok && f > 0 && f <= 10 {
			return strconv.FormatFloat(f, 'f', -1, 64), nil
		}
		return "", fmt.Errorf("want a pixel ratio above 0, up to 10, got %s", jsonOf(v))
	})},
	"browser.contextOptions.recordVideo": {set: recordVideoValue},

	"extension": {set: func(v any) ([][2]string, error) {
		if v == false {
			return nil, nil
		}
		return nil, fmt.Errorf("%s", extensionRefusal)
	}},
	"server.port":         {set: as("port", func(v any) (string, error) { return intValue(v) })},
	"server.host":         {set: as("host", stringValue)},
	"server.allowedHosts": {set: as("http-allowed-hosts", listValue(","))},
	"capabilities":        {set: as("caps", listValue(","))},
	"saveSession":         {set: as("save-trace", boolValue)},
	"saveTrace":           {set: as("save-trace", boolValue)},
	"webmcp": {set: func(v any) ([][2]string, error) {
		if v == false {
			return nil, nil
		}
		return nil, fmt.Errorf("this server never offers the tools pages register through WebMCP: leave it out or give false")
	}},
	"sharedBrowserContext":   {set: as("shared-browser-context", boolValue)},
	"outputDir":              {set: as("output-dir", stringValue)},
	"outputMaxSize":          {set: as("output-max-size", bytesValue)},
	"console.level":          {set: as("console-level", stringValue)},
	"network.allowedOrigins": {set: as("allowed-origins", listValue(","))},
	"network.blockedOrigins": {set: as("blocked-origins", listValue(","))},
	"testIdAttribute":        {set: as("test-id-attribute", stringValue)},
	"timeouts.action":        {set: as("action-timeout", millisValueOf)},
	"timeouts.navigation":    {set: as("navigation-timeout", millisValueOf)},
	"timeouts.settle":        {set: as("timeout-settle", millisValueOf)},
	"timeouts.idle":          {set: as("idle-timeout", millisValueOf)},
	"timeouts.expect":        {refused: "a check waits as long as its call's timeout argument says (browser_expect, browser_wait_for)"},
	"imageResponses":         {set: as("image-responses", stringValue)},
	"filePaths":              {set: as("file-paths", stringValue)},
	"snapshot.mode":          {set: as("snapshot-mode", stringValue)},
	"snapshot.boxes":         {set: as("snapshot-boxes", boolValue)},
	"allowUnrestrictedFileAccess": {set: func(v any) ([][2]string, error) {
		s, err := boolValue(v)
		if err != nil {
			return nil, err
		}
		f, _ := pwFlagNamed("allow-unrestricted-file-access")
		return f.assignments(s)
	}},
	"codegen": {set: as("codegen", stringValue)},
}

// as sets one setting of ours to a value made of the key's.
func as(setting string, value func(any) (string, error)) func(any) ([][2]string, error) {
	return func(v any) ([][2]string, error) {
		s, err := value(v)
		if err != nil {
			return nil, err
		}
		return [][2]string{{setting, s}}, nil
	}
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

func invertedBool(v any) (string, error) {
	s, err := boolValue(v)
	if err != nil {
		return "", err
	}
	return invert(s)
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

// listValue is an array of strings joined with sep.
func listValue(sep string) func(any) (string, error) {
	return func(v any) (string, error) {
		xs, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("want an array of strings, got %s", jsonOf(v))
		}
		out := make([]string, len(xs))
		for i, x := range xs {
			s, ok := x.(string)
			if !ok || strings.Contains(s, sep) {
				return "", fmt.Errorf("item %d: want a string without %q, got %s", i+1, sep, jsonOf(x))
			}
			out[i] = s
		}
		return strings.Join(out, sep), nil
	}
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

// readPWConfig reads and checks a config file of theirs.
func readPWConfig(path string) (*pwConfig, error) {
	if strings.EqualFold(filepath.Ext(path), ".ini") {
		return nil, fmt.Errorf("--config %s: write the config file as JSON (Playwright MCP's .ini form is not read here)", path)
	}
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
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("--config %s: not a JSON object: %v", path, err)
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
				sets, err := h.set(v)
				if err != nil {
					*errs = append(*errs, fmt.Sprintf("%s: %v", key, err))
					continue
				}
				out.sets = append(out.sets, sets...)
			}
		}
	}
}
