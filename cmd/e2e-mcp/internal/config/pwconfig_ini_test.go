package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestINIConfigIsTheJSONOne: an INI config file sets what the JSON file
// with the same keys sets, to the same values (sections, comments, quotes,
// lists, the keys of objects, a BOM and CRLF line ends), whatever the
// file's name says.
func TestINIConfigIsTheJSONOne(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "init.js", "window.a = 1;")
	writeFile(t, dir, "more.js", "window.b = 1;")
	jsonFile := writeFile(t, dir, "full.json", `{
  "browser": {
    "browserName": "chromium",
    "isolated": true,
    "cdpTimeout": 4000,
    "initScript": ["init.js", "more.js"],
    "cdpEndpoint": "http://127.0.0.1:9222",
    "cdpHeaders": {"Authorization": "Bearer t-1", "X-Team": "qa"},
    "launchOptions": {"headless": false, "channel": "chrome", "executablePath": "/opt/chrome", "chromiumSandbox": false,
      "proxy": {"server": "http://127.0.0.1:3128", "bypass": "localhost", "username": "u", "password": "pw;9c#2e"}},
    "contextOptions": {"viewport": {"width": 800, "height": 600}, "userAgent": "Bot/2 (x; y)", "ignoreHTTPSErrors": true,
      "permissions": ["geolocation", "clipboard-read"], "serviceWorkers": "block", "locale": "fr-FR", "timezoneId": "Europe/Paris"}
  },
  "server": {"port": 8931, "host": "127.0.0.1", "allowedHosts": ["mcp.example.com"]},
  "capabilities": ["vision", "core"],
  "saveSession": true,
  "sharedBrowserContext": true,
  "outputMaxSize": 2000000,
  "secrets": {"API_KEY": "k#4d1f", "TOKEN": "a b"},
  "console": {"level": "warning"},
  "network": {"allowedOrigins": ["https://a.example.com"], "blockedOrigins": ["https://b.example.com", "https://c.example.com"]},
  "testIdAttribute": "data-qa",
  "timeouts": {"action": 1500, "navigation": 45000, "settle": 200, "idle": 0},
  "imageResponses": "omit",
  "snapshot": {"mode": "none", "boxes": true},
  "codegen": "typescript",
  "extension": false,
  "webmcp": false
}`)
	ini := "\ufeff; Playwright MCP's config, as INI\r\n" + `# both kinds of comment
browser.browserName = chromium
browser.isolated = 1
browser.cdpTimeout = 4000
browser.initScript[] = init.js
browser.initScript[] = more.js
browser.cdpEndpoint = http://127.0.0.1:9222
browser.cdpHeaders.Authorization = Bearer t-1
browser.cdpHeaders.X-Team = qa
capabilities[] = vision
capabilities[] = core
saveSession = true
sharedBrowserContext = true
outputMaxSize = 2e6
testIdAttribute = "data-qa"
imageResponses = omit ; what answers carry
codegen = typescript
extension = false
webmcp = false

[browser.launchOptions]
  headless = false
  channel = chrome
  executablePath = /opt/chrome
  chromiumSandbox = 0
  proxy.server = http://127.0.0.1:3128
  proxy.bypass = localhost
  proxy.username = u
  proxy.password = "pw;9c#2e"

[browser.contextOptions] ; a comment after a section
viewport = 800x600
userAgent = 'Bot/2 (x; y)'
ignoreHTTPSErrors = true
permissions[] = geolocation
permissions[] = clipboard-read
serviceWorkers = block
locale = fr-FR
timezoneId = Europe/Paris ; as Intl names it

[server]
port = 8931
host = 127.0.0.1
allowedHosts = mcp.example.com

[secrets]
API_KEY = k\#4d1f
TOKEN = "a b"

[console]
level = warning

[network]
allowedOrigins = https://a.example.com
blockedOrigins[] = https://b.example.com
blockedOrigins[] = https://c.example.com

[timeouts]
action = 1500
navigation = 45000
settle = 200
idle = 0

[snapshot]
mode = none
boxes = true
`
	want, err := Parse("serve", []string{"--config", jsonFile}, envOf(nil))
	if err != nil {
		t.Fatalf("--config full.json: %v", err)
	}
	// The same INI under three names: theirs reads a .json file that is
	// not JSON as INI (their tests write INI into config.json).
	for _, name := range []string{"full.ini", "full.INI", "ini.json", "config"} {
		got, err := Parse("serve", []string{"--config", writeFile(t, dir, name, strings.ReplaceAll(ini, "\n", "\r\n"))}, envOf(nil))
		if err != nil {
			t.Fatalf("--config %s: %v", name, err)
		}
		got.ConfigFile = want.ConfigFile
		if !reflect.DeepEqual(got, want) {
			t.Errorf("--config %s sets\n%+v\nwhere the JSON file sets\n%+v", name, *got, *want)
		}
	}
	// And it is read below flags and variables, as the JSON file is.
	small := writeFile(t, dir, "small.ini", "timeouts.action = 1000\ntimeouts.navigation = 2000\n")
	c, err := Parse("serve", []string{"--config", small, "--action-timeout", "6s"},
		envOf(map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_NAVIGATION": "4000"}))
	if err != nil || c.ActionTimeout.String() != "6s" || c.NavigationTimeout.String() != "4s" {
		t.Errorf("precedence over an INI file: %v, %v", c, err)
	}
}

// TestINIConfigRefused: a line the INI reader cannot read, a key given
// twice, a value not of its key's kind, a list where one value goes, an
// unknown key and a key with no meaning here are each refused, naming the
// line (iniError) or the key, and never quoting a value (it may be a
// secret).
func TestINIConfigRefused(t *testing.T) {
	const secret = "s3cr3t-v4lue"
	tests := []struct {
		name string
		body string
		line int // the iniError's line, 0: the walk's refusal (no line)
		want string
	}{
		{"section not closed", "[browser\nisolated = true", 1, "no ] closes it"},
		{"text after a section", "[browser] isolated = true", 1, "a section line is [NAME] alone"},
		{"empty section", "a = 1\n[]", 2, "an empty name"},
		{"no equals sign", "# ok\nbrowser.isolated", 2, "want KEY = VALUE"},
		{"no key", "= " + secret, 1, "a value with no key"},
		{"empty part", "browser..isolated = true", 1, "an empty name between dots"},
		{"trailing dot in a section", "[browser.]\nisolated = true", 1, "an empty name between dots"},
		{"given twice", "timeouts.action = 1\n\ntimeouts.action = 2", 3, "timeouts.action is given again (first on line 1)"},
		{"a value then items", "capabilities = vision\ncapabilities[] = pdf", 2, "capabilities is given again (first on line 1): a list is one capabilities[] = VALUE line an item"},
		{"twice through a section", "timeouts.action = 1\n[timeouts]\naction = 2", 3, "timeouts.action is given again"},
		{"not a boolean", "browser.isolated = yes", 1, "browser.isolated: want true or false"},
		{"not a boolean, inverted", "[browser.launchOptions]\nheadless = " + secret, 2, "browser.launchOptions.headless: want true or false"},
		{"not a number", "\n[timeouts]\naction = 5s", 3, "timeouts.action: want a number"},
		{"not a port", "server.port = " + secret, 1, "server.port: want a number"},
		{"not a size", "browser.contextOptions.viewport = 640", 1, "want WIDTHxHEIGHT"},
		{"a size of zero", "browser.contextOptions.viewport = 0x480", 1, "want WIDTHxHEIGHT"},
		{"commas in a list", "capabilities = vision,pdf", 1, "a list is one capabilities[] = VALUE line an item"},
		{"a list for one value", "browser.isolated[] = true", 1, "takes one value, not a list"},
		{"a bad item", "timeouts.action[] = 1", 1, "takes one value, not a list"},
		{"a value for an object", "browser.cdpHeaders = " + secret, 1, "it holds keys: write each as browser.cdpHeaders.NAME = VALUE"},
		{"keys under a value", "timeouts.action.max = 1", 1, "timeouts.action takes a value, not keys under it"},
		{"a value, then keys under it", "browser = 1\nbrowser.isolated = true", 2, "browser has a value (line 1)"},
		{"keys, then a value", "browser.isolated = true\nbrowser = 1", 2, "browser holds keys (line 1)"},
		{"bad double quotes", `secrets.API_KEY = "` + secret + `\q"`, 1, "not a JSON string"},
		{"a list of one value's key under an object", "secrets.API_KEY[] = " + secret, 1, "takes one value, not a list"},
		{"unknown key", "browser.launchOption.headless = false", 0, `unknown key "browser.launchOption"`},
		{"unknown top key", "timeout = 5", 0, `unknown key "timeout"`},
		{"no meaning here", "[browser.contextOptions]\ncolorScheme = dark", 0, "browser.contextOptions.colorScheme has no meaning here: set it per session"},
		{"not a time zone", "[browser.contextOptions]\ntimezoneId = Mars/Olympus", 0, `browser.contextOptions.timezoneId: timezoneId "Mars/Olympus" is not a time zone`},
		{"firefox", "browser.browserName = firefox", 0, "this server drives Chromium"},
		{"a proxy without its server", "browser.launchOptions.proxy.bypass = localhost", 0, "server: give the proxy's URL"},
		{"a group given a value", "console = " + secret, 0, "console: want an object"},
		{"secrets given a value", "secrets = " + secret, 0, "secrets: want an object"},
		{"a bad secret name", "secrets.A$B = " + secret, 0, "secrets.A$B: want a name"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".ini", tc.body)
			_, err := Parse("serve", []string{"--config", path}, envOf(nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--config "+path+": ") {
				t.Fatalf("--config %q = %v, want an error naming the file and saying %q", tc.body, err, tc.want)
			}
			var ie *iniError
			switch {
			case tc.line > 0 && (!errors.As(err, &ie) || ie.Line != tc.line):
				t.Errorf("--config %q = %v, want an iniError of line %d", tc.body, err, tc.line)
			case tc.line == 0 && errors.As(err, &ie):
				t.Errorf("--config %q = %v, an iniError for what the walk refuses", tc.body, err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("--config %q = %v: the error quotes the value", tc.body, err)
			}
		})
	}
}

// TestConfigFileFormat: JSON and INI are told apart as theirs does: a .ini
// file is INI; another is JSON when it reads as JSON or begins with {,
// else INI, and an error then says it was read as INI.
func TestConfigFileFormat(t *testing.T) {
	tests := []struct {
		name, body string
		want       func(*Config) bool
		err        string
	}{
		{"a.json", `{"browser": {"isolated": true}}`, func(c *Config) bool { return c.Isolated }, ""},
		{"a.json", "  \n[browser]\nisolated = true\n", func(c *Config) bool { return c.Isolated }, ""},
		{"a.json", "browser.isolated = true", func(c *Config) bool { return c.Isolated }, ""},
		{"a.json", "", func(c *Config) bool { return !c.Isolated }, ""},
		{"a.json", "null", func(c *Config) bool { return !c.Isolated }, ""},
		{"a.ini", "; nothing but a comment", func(c *Config) bool { return !c.Isolated }, ""},
		{"a.json", ` {"browser": {"isolated": true},}`, nil, "not a JSON object: invalid character"},
		{"a.json", `[1]`, nil, "not a JSON object"},
		{"a.json", `"browser"`, nil, "not a JSON object"},
		{"a.json", "browser", nil, "read as INI (it is not JSON): line 1: want KEY = VALUE"},
		{"a.ini", `{"browser": {"isolated": true}}`, nil, "line 1: want KEY = VALUE"},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		path := writeFile(t, dir, strings.Repeat("x", i)+tc.name, tc.body)
		c, err := Parse("serve", []string{"--config", path}, envOf(nil))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %q: %v, want an error saying %q", tc.name, tc.body, err, tc.err)
		case tc.err == "" && (err != nil || !tc.want(c)):
			t.Errorf("%s %q: %v, %v", tc.name, tc.body, err, c)
		}
	}
}

// TestPWConfigKinds: every key of their config file that sets a setting
// has a kind, and the setting exists; and a value of the kind, written in
// an INI file, is taken by the key and its setting (so the type the INI
// reader gives the text is the type the key's JSON value is).
func TestPWConfigKinds(t *testing.T) {
	flags := configFlags("serve", &Config{})
	sample := map[pwKind]string{
		kindString: "text", kindBool: "true", kindNotBool: "false", kindInt: "8931", kindBytes: "1000",
		kindMillis: "2500", kindNumber: "2.5", kindList: "item", kindSize: "800x600",
	}
	// Keys whose values are of a closed set, or checked.
	special := map[string]string{
		"browser.browserName": "chromium", "browser.contextOptions.serviceWorkers": "allow",
		"extension": "false", "webmcp": "false",
		"browser.contextOptions.locale": "fr-FR", "browser.contextOptions.timezoneId": "Europe/Paris",
	}
	dir := t.TempDir()
	for key, k := range pwConfigKeys {
		if k.refused != "" {
			if k.kind != 0 || k.setting != "" || k.set != nil {
				t.Errorf("%s is refused and sets something", key)
			}
			continue
		}
		if k.kind == 0 || (k.setting == "") == (k.set == nil) || (k.kind == kindObject && k.set == nil) {
			t.Errorf("%s: want a kind, and a setting or a set function (kind %d, setting %q)", key, k.kind, k.setting)
			continue
		}
		if k.setting != "" && flags.Lookup(k.setting) == nil {
			t.Errorf("%s sets --%s, which is no setting", key, k.setting)
		}
		var body string
		switch {
		case key == "browser.contextOptions.recordVideo":
			body = key + ".dir = videos\n"
		case k.kind == kindObject:
			body = key + ".server = http://127.0.0.1:3128\n"
		case special[key] != "":
			body = key + " = " + special[key] + "\n"
		default:
			body = key + " = " + sample[k.kind] + "\n"
		}
		path := writeFile(t, dir, strings.ReplaceAll(key, ".", "_")+".ini", body)
		pc, err := readPWConfig(path)
		if err != nil {
			t.Errorf("%s, %q in an INI file: %v", key, body, err)
			continue
		}
		for _, kv := range pc.sets {
			if err := configFlags("serve", &Config{}).Set(kv[0], kv[1]); err != nil {
				t.Errorf("%s, %q in an INI file: --%s %q: %v", key, body, kv[0], kv[1], err)
			}
		}
	}
}
