package config

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/internal/readme"
)

// pwTestFiles are files the flags of theirs that read one are given.
type pwTestFiles struct{ dir, script, state, secrets string }

func newPWTestFiles(t *testing.T) pwTestFiles {
	t.Helper()
	dir := t.TempDir()
	return pwTestFiles{dir: dir, script: writeFile(t, dir, "init.js", "window.x = 1;"),
		state: writeFile(t, dir, "state.json", `{"cookies":[],"origins":[]}`), secrets: writeFile(t, dir, "secrets.env", "X-PASSWORD=password123\n")}
}

// pwFlagCase is what one of their flags does here: the command line that
// gives it, and what the Config is then, or the refusal's words.
type pwFlagCase struct {
	args    func(f pwTestFiles) []string
	want    func(c *Config, f pwTestFiles) bool
	refused string
}

func argv(a ...string) func(pwTestFiles) []string { return func(pwTestFiles) []string { return a } }

// pwFlagCases has a row for each flag of Playwright MCP's --help
// (testdata/playwright-mcp-flags.txt): a flag added to their list fails
// TestPlaywrightFlags until it has one here and in pwFlags.
var pwFlagCases = map[string]pwFlagCase{
	"allowed-hosts": {args: argv("--allowed-hosts", "mcp.example.com,*"), want: func(c *Config, _ pwTestFiles) bool { return c.AllowedHosts == "mcp.example.com,*" }},
	"allowed-origins": {args: argv("--allowed-origins", "https://a.example.com;http://localhost:*"),
		want: func(c *Config, _ pwTestFiles) bool {
			p, err := c.Policy()
			return err == nil && p.Intercepts() && c.AllowedOrigins == "https://a.example.com,http://localhost:*"
		}},
	"allow-unrestricted-file-access": {args: argv("--allow-unrestricted-file-access"),
		want: func(c *Config, _ pwTestFiles) bool { return c.AllowFileURLs && c.FileRoots == "/" }},
	"blocked-origins": {args: argv("--blocked-origins", "https://ads.example.com;https://t.example.com"),
		want: func(c *Config, _ pwTestFiles) bool {
			return c.BlockedOrigins == "https://ads.example.com,https://t.example.com"
		}},
	"block-service-workers": {args: argv("--block-service-workers"), want: func(c *Config, _ pwTestFiles) bool { return c.BlockServiceWorkers }},
	"browser":               {args: argv("--browser", "msedge"), want: func(c *Config, _ pwTestFiles) bool { return c.Channel == "msedge" }},
	"caps": {args: argv("--caps", "vision,pdf,core,tracing"),
		want: func(c *Config, _ pwTestFiles) bool { return c.Caps == "vision,pdf,devtools" }},
	"cdp-endpoint": {args: argv("--cdp-endpoint", "http://127.0.0.1:9222"),
		want: func(c *Config, _ pwTestFiles) bool { e, err := c.Endpoints(); return err == nil && len(e) == 1 }},
	"cdp-header": {args: argv("--cdp-endpoint", "http://127.0.0.1:9222", "--cdp-header", "X-A: 1", "--cdp-header", "X-Empty"),
		want: func(c *Config, _ pwTestFiles) bool {
			e, err := c.Endpoints()
			return err == nil && e[0].Header.Get("X-A") == "1" && len(e[0].Header.Values("X-Empty")) == 1
		}},
	"cdp-timeout": {args: argv("--cdp-timeout", "5000"), want: func(c *Config, _ pwTestFiles) bool { return c.CDPTimeout == 5*time.Second }},
	"codegen":     {args: argv("--codegen", "typescript"), want: func(c *Config, _ pwTestFiles) bool { return c.Codegen == "typescript" }},
	"config": {args: func(f pwTestFiles) []string {
		path := filepath.Join(f.dir, "config.json")
		if err := os.WriteFile(path, []byte(`{"browser":{"launchOptions":{"headless":false}}}`), 0o600); err != nil {
			panic(err)
		}
		return []string{"--config", path}
	}, want: func(c *Config, _ pwTestFiles) bool { return c.Headed }},
	"console-level": {args: argv("--console-level", "error"), want: func(c *Config, _ pwTestFiles) bool { return c.ConsoleLevel == "error" }},
	"device":        {args: argv("--device", "iPhone 15"), want: func(c *Config, _ pwTestFiles) bool { return c.Device == "iPhone 15" }},
	"mobile":        {args: argv("--mobile"), want: func(c *Config, _ pwTestFiles) bool { return c.Device == mobileDevice }},
	"executable-path": {args: argv("--executable-path", "/opt/chrome/chrome"),
		want: func(c *Config, _ pwTestFiles) bool { return c.BrowserPath == "/opt/chrome/chrome" }},
	"extension":  {args: argv("--extension"), refused: "--remote-debugging-port"},
	"endpoint":   {args: argv("--endpoint", "ws://127.0.0.1:3000/"), refused: "with --cdp-endpoint"},
	"file-paths": {args: argv("--file-paths", "absolute"), want: func(c *Config, _ pwTestFiles) bool { return c.FilePaths == "absolute" }},
	"grant-permissions": {args: argv("--grant-permissions", "geolocation,clipboard-read"),
		want: func(c *Config, _ pwTestFiles) bool {
			return slices.Equal(c.permissions(), []string{"geolocation", "clipboard-read"})
		}},
	"headless":            {args: argv("--headed", "--headless"), want: func(c *Config, _ pwTestFiles) bool { return !c.Headed }},
	"host":                {args: argv("--port", "8931", "--host", "0.0.0.0"), want: func(c *Config, _ pwTestFiles) bool { return c.HTTP == "0.0.0.0:8931" }},
	"idle-timeout":        {args: argv("--idle-timeout", "3600000"), want: func(c *Config, _ pwTestFiles) bool { return c.IdleTimeout == time.Hour }},
	"ignore-https-errors": {args: argv("--ignore-https-errors"), want: func(c *Config, _ pwTestFiles) bool { return c.IgnoreHTTPSErrors }},
	"init-page":           {args: argv("--init-page", "setup.ts"), refused: "use --init-script"},
	"init-script": {args: func(f pwTestFiles) []string { return []string{"--init-script", f.script, "--init-script", f.script} },
		want: func(c *Config, _ pwTestFiles) bool { s, err := c.ReadInitScripts(); return err == nil && len(s) == 2 }},
	"isolated":        {args: argv("--isolated"), want: func(c *Config, _ pwTestFiles) bool { return c.Isolated }},
	"image-responses": {args: argv("--image-responses", "omit"), want: func(c *Config, _ pwTestFiles) bool { return c.ImageResponses == "omit" }},
	"no-sandbox":      {args: argv("--no-sandbox"), want: func(c *Config, _ pwTestFiles) bool { return c.NoSandbox }},
	"no-webmcp":       {args: argv("--no-webmcp"), want: func(c *Config, _ pwTestFiles) bool { return true }},
	"output-dir": {args: func(f pwTestFiles) []string { return []string{"--output-dir", f.dir} },
		want: func(c *Config, f pwTestFiles) bool { return c.OutputDir == f.dir }},
	"output-max-size":  {args: argv("--output-max-size", "1000000"), want: func(c *Config, _ pwTestFiles) bool { return c.OutputMaxSize == 1000000 }},
	"port":             {args: argv("--port", "8931"), want: func(c *Config, _ pwTestFiles) bool { return c.HTTP == "localhost:8931" }},
	"profile-dir-name": {args: argv("--profile-dir-name", "Profile 1"), refused: "--extension"},
	"proxy-bypass": {args: argv("--proxy-server", "http://127.0.0.1:3128", "--proxy-bypass", ".example.com,localhost"),
		want: func(c *Config, _ pwTestFiles) bool {
			up, err := c.proxy()
			return err == nil && slices.Equal(up.Bypass, []string{".example.com", "localhost"})
		}},
	"proxy-server": {args: argv("--proxy-server", "http://127.0.0.1:3128"),
		want: func(c *Config, _ pwTestFiles) bool {
			p, err := c.Policy()
			return err == nil && p.Upstream() != nil && p.Upstream().URL.Host == "127.0.0.1:3128"
		}},
	"sandbox":      {args: argv("--no-sandbox", "--sandbox"), want: func(c *Config, _ pwTestFiles) bool { return !c.NoSandbox }},
	"save-session": {args: argv("--save-session"), want: func(c *Config, _ pwTestFiles) bool { return c.SaveTrace }},
	"secrets": {args: func(f pwTestFiles) []string { return []string{"--secrets", f.secrets} },
		want: func(c *Config, _ pwTestFiles) bool { return c.secrets["X-PASSWORD"] == "password123" }},
	"shared-browser-context": {args: argv("--shared-browser-context"), want: func(c *Config, _ pwTestFiles) bool { return c.SharedBrowserContext }},
	"snapshot-boxes":         {args: argv("--snapshot-boxes"), want: func(c *Config, _ pwTestFiles) bool { return c.SnapshotBoxes }},
	"snapshot-mode":          {args: argv("--snapshot-mode", "none"), want: func(c *Config, _ pwTestFiles) bool { return c.SnapshotMode == "none" }},
	"storage-state": {args: func(f pwTestFiles) []string { return []string{"--storage-state", f.state} },
		want: func(c *Config, f pwTestFiles) bool { return c.StorageState == f.state }},
	"test-id-attribute": {args: argv("--test-id-attribute", "data-qa"), want: func(c *Config, _ pwTestFiles) bool { return c.TestIDAttribute == "data-qa" }},
	"timeout-action":    {args: argv("--timeout-action", "2500"), want: func(c *Config, _ pwTestFiles) bool { return c.ActionTimeout == 2500*time.Millisecond }},
	"timeout-navigation": {args: argv("--timeout-navigation", "60000"),
		want: func(c *Config, _ pwTestFiles) bool { return c.NavigationTimeout == time.Minute }},
	"timeout-settle": {args: argv("--timeout-settle", "100"), want: func(c *Config, _ pwTestFiles) bool { return c.SettleTimeout == 100*time.Millisecond }},
	"user-agent":     {args: argv("--user-agent", "Bot/1.0"), want: func(c *Config, _ pwTestFiles) bool { return c.UserAgent == "Bot/1.0" }},
	"user-data-dir": {args: func(f pwTestFiles) []string { return []string{"--user-data-dir", f.dir} },
		want: func(c *Config, f pwTestFiles) bool { return c.UserDataDir == f.dir }},
	"viewport-size": {args: argv("--viewport-size", "800,600"), want: func(c *Config, _ pwTestFiles) bool { return c.ViewportSize == "800x600" }},
}

// theirFlags reads testdata/playwright-mcp-flags.txt.
func theirFlags(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "playwright-mcp-flags.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() //nolint:errcheck // read only
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestPlaywrightFlags gives each flag of Playwright MCP's --help on our
// command line and reads what it set, or that it was refused with its
// reason (issue 39). Their list is the test's: a flag of theirs without a
// row in pwFlags and pwFlagCases fails.
func TestPlaywrightFlags(t *testing.T) {
	theirs := theirFlags(t)
	if len(theirs) < 45 {
		t.Fatalf("testdata lists %d flags: is it whole?", len(theirs))
	}
	for _, name := range theirs {
		t.Run(name, func(t *testing.T) {
			row, ok := pwFlagNamed(name)
			if !ok {
				t.Fatalf("--%s has no row in pwFlags: say what it is here (ours, an alias, or refused with why)", name)
			}
			tc, ok := pwFlagCases[name]
			if !ok {
				t.Fatalf("--%s has no row in pwFlagCases", name)
			}
			f := newPWTestFiles(t)
			args := tc.args(f)
			c, err := Parse("serve", args, envOf(nil))
			if tc.refused != "" {
				if row.refused == "" {
					t.Errorf("pwFlags does not refuse --%s, the test expects it refused", name)
				}
				if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "--"+name) {
					t.Fatalf("Parse(%q) = %v, want a refusal naming --%s and saying %q", args, err, name, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q) = %v", args, err)
			}
			if !tc.want(c, f) {
				t.Errorf("Parse(%q) set %+v", args, *c)
			}
		})
	}
	for _, r := range pwFlags {
		if !slices.Contains(theirs, r.name) && r.name != "vision" && r.name != "remote-header" {
			t.Errorf("pwFlags has --%s, which their --help no longer lists", r.name)
		}
		if r.refused == "" && r.ours != "" && settingNamed(r.ours) == nil {
			t.Errorf("--%s sets --%s, which is no setting", r.name, r.ours)
		}
	}
}

func settingNamed(name string) *setting {
	for i := range settings {
		if settings[i].flag == name {
			return &settings[i]
		}
	}
	return nil
}

// TestPlaywrightEnv: each flag of theirs that sets something here is also
// read from its PLAYWRIGHT_MCP_* variable; ours (E2E_MCP_*) wins over
// theirs, a flag over both; a refused flag's variable is refused.
func TestPlaywrightEnv(t *testing.T) {
	runParseCases(t, []parseCase{
		{name: "theirs", env: map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_ACTION": "2500", "PLAYWRIGHT_MCP_HEADLESS": "false", "PLAYWRIGHT_MCP_PORT": "9000",
			"PLAYWRIGHT_MCP_ALLOWED_ORIGINS": "https://a.example.com;https://b.example.com", "PLAYWRIGHT_MCP_VIEWPORT_SIZE": "800x600"},
			want: func(c *Config) bool {
				return c.ActionTimeout == 2500*time.Millisecond && c.Headed && c.HTTP == "localhost:9000" &&
					c.AllowedOrigins == "https://a.example.com,https://b.example.com" && c.ViewportSize == "800x600"
			}},
		{name: "ours win over theirs", env: map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_ACTION": "2500", "E2E_MCP_ACTION_TIMEOUT": "7s"},
			want: func(c *Config) bool { return c.ActionTimeout == 7*time.Second }},
		{name: "a flag wins over both", args: []string{"--timeout-action", "1000"}, env: map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_ACTION": "2500", "E2E_MCP_ACTION_TIMEOUT": "7s"},
			want: func(c *Config) bool { return c.ActionTimeout == time.Second }},
		{name: "their flag wins over our variable", args: []string{"--headless"}, env: map[string]string{"E2E_MCP_HEADED": "true"},
			want: func(c *Config) bool { return !c.Headed }},
		{name: "a refused flag's variable", env: map[string]string{"PLAYWRIGHT_MCP_EXTENSION": "true"}, err: "PLAYWRIGHT_MCP_EXTENSION is Playwright MCP's --extension"},
		{name: "a refused flag's variable, false", env: map[string]string{"PLAYWRIGHT_MCP_EXTENSION": "false"}, want: func(c *Config) bool { return true }},
		{name: "firefox", env: map[string]string{"PLAYWRIGHT_MCP_BROWSER": "firefox"}, err: "Chromium over the DevTools protocol only"},
		{name: "python", args: []string{"--codegen", "python"}, err: "Playwright Test's TypeScript"},
		{name: "mobile and device", args: []string{"--mobile", "--device", "iPhone 15"}, err: "--mobile and --device"},
		{name: "isolated and a profile", args: []string{"--isolated", "--user-data-dir", t.TempDir()}, err: "--isolated and --user-data-dir"},
		{name: "host without a port: stdio, as theirs", args: []string{"--host", "0.0.0.0"},
			want: func(c *Config) bool { return c.HTTP == "" && c.Host == "0.0.0.0" && c.HostUnused() }},
		{name: "the config's host without a port", env: map[string]string{"PLAYWRIGHT_MCP_HOST": "localhost"},
			want: func(c *Config) bool { return c.HTTP == "" && c.HostUnused() }},
		{name: "host and http", args: []string{"--host", "0.0.0.0", "--http", "127.0.0.1:2"}, err: "--host 0.0.0.0 and --http 127.0.0.1:2: give the address in --http HOST:PORT alone"},
		{name: "host and port", args: []string{"--host", "0.0.0.0", "--port", "2"}, want: func(c *Config) bool { return c.HTTP == "0.0.0.0:2" && !c.HostUnused() }},
		{name: "locale and time zone", args: []string{"--locale", "fr-FR"}, env: map[string]string{"E2E_MCP_TIMEZONE": "Europe/Paris"},
			want: func(c *Config) bool {
				e, dev := c.startEmulation()
				return e != nil && dev == "" && e.Locale == "fr-FR" && e.TimezoneID == "Europe/Paris"
			}},
		{name: "not a time zone", args: []string{"--timezone", "Mars/Olympus"}, err: `--timezone: timezoneId "Mars/Olympus" is not a time zone: give a name of the IANA`},
		{name: "not a permission name", args: []string{"--grant-permissions", "geolocation,-geo"}, err: `--grant-permissions: permission "-geo": use the web's permission names`},
		{name: "not a time zone's variable", env: map[string]string{"E2E_MCP_TIMEZONE": "Local"}, err: `--timezone: timezoneId "Local" is not a time zone`},
		{name: "not a locale", args: []string{"--locale", "en_US"}, err: `--locale: locale "en_US" is not a language tag: give a BCP 47 language tag, such as fr-FR`},
		{name: "port and http", args: []string{"--port", "1", "--http", ":2"}, err: "--port and --http"},
		{name: "a free port", args: []string{"--port", "0"}, want: func(c *Config) bool { return c.HTTP == "localhost:0" }},
		{name: "a free port's variable", env: map[string]string{"PLAYWRIGHT_MCP_PORT": "0"}, want: func(c *Config) bool { return c.HTTP == "localhost:0" }},
		{name: "no port", want: func(c *Config) bool { return c.HTTP == "" }},
		{name: "unknown device", args: []string{"--device", "Nokia 3310"}, err: "--device \"Nokia 3310\""},
		{name: "relative file paths", args: []string{"--file-paths", "relative"}, err: "absolute paths"},
		{name: "socks under a policy", args: []string{"--proxy-server", "socks5://127.0.0.1:1080", "--blocked-origins", "ads.example.com"}, err: "SOCKS"},
		{name: "a refused flag with =", args: []string{"--init-page=setup.ts"}, err: "--init-page is Playwright MCP's"},
		{name: "the old vision flag", args: []string{"--vision"}, want: func(c *Config) bool { return c.Caps == "vision" }},
		{name: "the old vision flag, then --caps", args: []string{"--vision", "--caps=pdf"}, want: func(c *Config) bool { return c.Caps == "pdf,vision" }},
		{name: "our old input group, core now", args: []string{"--caps=input,pdf"}, want: func(c *Config) bool { return c.Caps == "pdf" }},
		{name: "--caps, then the old vision flag", args: []string{"--caps=pdf", "--vision"}, want: func(c *Config) bool { return c.Caps == "pdf,vision" }},
		{name: "version", args: []string{"--snapshot-mode", "incremental"}, want: func(c *Config) bool { return c.SnapshotMode == "full" }},
	})
}

// TestPlaywrightConfigFile: their config file's keys set ours; a flag wins
// over our variable, which wins over theirs, which wins over the file,
// which wins over the default; an unknown key is refused by its name, and
// a key with no meaning here with why.
func TestPlaywrightConfigFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "init.js", "window.fromConfig = 1;")
	full := writeFile(t, dir, "full.json", `{
  "browser": {
    "browserName": "chromium",
    "isolated": true,
    "launchOptions": {"headless": false, "channel": "chrome", "executablePath": "/opt/chrome", "chromiumSandbox": false,
      "proxy": {"server": "http://127.0.0.1:3128", "bypass": "localhost", "username": "u", "password": "pw-9c2e1"}},
    "contextOptions": {"viewport": {"width": 800, "height": 600}, "userAgent": "Bot/2", "ignoreHTTPSErrors": true,
      "permissions": ["geolocation"], "serviceWorkers": "block", "deviceScaleFactor": 2, "locale": "fr-FR", "timezoneId": "Europe/Paris",
      "recordVideo": {"dir": "/tmp/videos", "size": {"width": 640, "height": 480}}},
    "cdpTimeout": 4000,
    "initScript": ["init.js"]
  },
  "server": {"port": 8931, "host": "127.0.0.1", "allowedHosts": ["mcp.example.com"]},
  "capabilities": ["vision", "core"],
  "saveSession": true,
  "sharedBrowserContext": true,
  "secrets": {"API_KEY": "k-4d1f"},
  "console": {"level": "warning"},
  "network": {"allowedOrigins": ["https://a.example.com"], "blockedOrigins": ["https://b.example.com"]},
  "testIdAttribute": "data-qa",
  "timeouts": {"action": 1500, "navigation": 45000, "settle": 200, "idle": 0},
  "imageResponses": "omit",
  "snapshot": {"mode": "none", "boxes": true},
  "codegen": "typescript",
  "extension": false,
  "webmcp": false
}`)
	c, err := Parse("serve", []string{"--config", full}, envOf(nil))
	if err != nil {
		t.Fatalf("--config full.json: %v", err)
	}
	checks := map[string]bool{
		"headless false": c.Headed, "isolated": c.Isolated, "channel": c.Channel == "chrome", "executablePath": c.BrowserPath == "/opt/chrome",
		"sandbox": c.NoSandbox, "proxy": c.ProxyServer == "http://u:pw-9c2e1@127.0.0.1:3128" && c.ProxyBypass == "localhost",
		"viewport": c.ViewportSize == "800x600", "userAgent": c.UserAgent == "Bot/2", "https": c.IgnoreHTTPSErrors,
		"permissions": c.GrantPermissions == "geolocation", "service workers": c.BlockServiceWorkers, "cdpTimeout": c.CDPTimeout == 4*time.Second,
		"server": c.HTTP == "127.0.0.1:8931" && c.AllowedHosts == "mcp.example.com", "caps": c.Caps == "vision",
		"saveSession": c.SaveTrace, "shared": c.SharedBrowserContext, "secrets": c.secrets["API_KEY"] == "k-4d1f",
		"console": c.ConsoleLevel == "warning", "origins": c.AllowedOrigins == "https://a.example.com" && c.BlockedOrigins == "https://b.example.com",
		"testId": c.TestIDAttribute == "data-qa", "timeouts": c.ActionTimeout == 1500*time.Millisecond && c.NavigationTimeout == 45*time.Second &&
			c.SettleTimeout == 200*time.Millisecond && c.IdleTimeout == 0,
		"images": c.ImageResponses == "omit", "snapshot": c.SnapshotMode == "none" && c.SnapshotBoxes, "codegen": c.Codegen == "typescript",
		"init script, beside the file": c.InitScripts == filepath.Join(dir, "init.js"),
		"deviceScaleFactor":            c.DeviceScaleFactor == 2, "recordVideo": c.SaveVideo == "640x480" && c.SaveVideoDir == "/tmp/videos",
		"locale and timezoneId": c.Locale == "fr-FR" && c.Timezone == "Europe/Paris",
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("--config full.json: %s not as the file says: %+v", what, *c)
		}
	}

	// Precedence: flag > our variable > their variable > file > default.
	small := writeFile(t, dir, "small.json", `{"timeouts": {"action": 1000, "navigation": 2000, "settle": 300}, "testIdAttribute": "data-file"}`)
	env := map[string]string{"PLAYWRIGHT_MCP_TIMEOUT_ACTION": "3000", "PLAYWRIGHT_MCP_TIMEOUT_NAVIGATION": "4000", "E2E_MCP_ACTION_TIMEOUT": "5s"}
	c, err = Parse("serve", []string{"--config", small, "--action-timeout", "6s"}, envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	if c.ActionTimeout != 6*time.Second || c.NavigationTimeout != 4*time.Second || c.SettleTimeout != 300*time.Millisecond ||
		c.TestIDAttribute != "data-file" || c.MaxSessions != 50 {
		t.Errorf("precedence: action %s (flag 6s), navigation %s (their variable 4s), settle %s (file 300ms), test id %q (file), max sessions %d (default 50)",
			c.ActionTimeout, c.NavigationTimeout, c.SettleTimeout, c.TestIDAttribute, c.MaxSessions)
	}
	c, err = Parse("serve", []string{"--config", small}, envOf(env))
	if err != nil || c.ActionTimeout != 5*time.Second {
		t.Errorf("our variable over theirs and the file: %v, %v", c.ActionTimeout, err)
	}
	// The file named by their variable.
	c, err = Parse("serve", nil, envOf(map[string]string{"PLAYWRIGHT_MCP_CONFIG": small}))
	if err != nil || c.TestIDAttribute != "data-file" {
		t.Errorf("PLAYWRIGHT_MCP_CONFIG: %v, %v", c, err)
	}

	for _, tc := range []struct{ name, body, err string }{
		{"unknown key", `{"browser": {"launchOption": {}}}`, `unknown key "browser.launchOption"`},
		{"unknown top key", `{"timeout": 5}`, `unknown key "timeout"`},
		{"firefox", `{"browser": {"browserName": "firefox"}}`, "browser.browserName: firefox: this server drives Chromium"},
		{"extension", `{"extension": true}`, "extension: it connects through the Playwright MCP Bridge"},
		{"init page", `{"browser": {"initPage": ["a.ts"]}}`, "browser.initPage has no meaning here"},
		{"launch args", `{"browser": {"launchOptions": {"args": ["--foo"]}}}`, "browser.launchOptions.args has no meaning here"},
		{"color scheme", `{"browser": {"contextOptions": {"colorScheme": "dark"}}}`, "browser.contextOptions.colorScheme has no meaning here: set it per session"},
		{"not a time zone", `{"browser": {"contextOptions": {"timezoneId": "Mars/Olympus"}}}`,
			`browser.contextOptions.timezoneId: timezoneId "Mars/Olympus" is not a time zone: give a name of the IANA time zone database`},
		{"not a locale", `{"browser": {"contextOptions": {"locale": "French please"}}}`,
			`browser.contextOptions.locale: locale "French please" is not a language tag: give a BCP 47 language tag`},
		{"a locale of another type", `{"browser": {"contextOptions": {"locale": ["fr-FR"]}}}`, "browser.contextOptions.locale: want a string"},
		{"wrong type", `{"timeouts": {"action": "5s"}}`, "timeouts.action: want milliseconds"},
		{"video without dir", `{"browser": {"contextOptions": {"recordVideo": {"size": {"width": 800, "height": 600}}}}}`, "recordVideo: dir: give the directory"},
		{"video with a key of Playwright's we lack", `{"browser": {"contextOptions": {"recordVideo": {"dir": "v", "showActions": {}}}}}`, `recordVideo: unknown key "showActions"`},
		{"scale factor", `{"browser": {"contextOptions": {"deviceScaleFactor": 11}}}`, "give a pixel ratio up to 10"},
		{"not an object", `[1]`, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "-") + ".json"
			_, err := Parse("serve", []string{"--config", writeFile(t, dir, name, tc.body)}, envOf(nil))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("--config %s: %v, want an error saying %q", tc.body, err, tc.err)
			}
		})
	}
}

// TestDotenv reads the forms of a secrets file, and names a bad line
// without its value.
func TestDotenv(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "s.env", "# comment\n\nA=plain # note\nexport B='single # kept'\nC=\"dq\\nline\"\nX-PASSWORD=password123\nEMPTY=\n")
	c := &Config{SecretsFile: path}
	if err := c.readSecrets(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "plain", "B": "single # kept", "C": "dq\nline", "X-PASSWORD": "password123", "EMPTY": ""}
	for k, v := range want {
		if c.secrets[k] != v {
			t.Errorf("secret %s = %q, want %q", k, c.secrets[k], v)
		}
	}
	writeFile(t, dir, "s.env", "GOOD=1\nbad line s3cr3t-value\n")
	c = &Config{SecretsFile: path}
	if err := c.readSecrets(); err == nil || !strings.Contains(err.Error(), "line 2") || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("a bad line: %v", err)
	}
}

// TestReadmePlaywrightTable: the flags table of docs/playwright-mcp.md
// (Coming from Playwright MCP) is made from pwFlags.
func TestReadmePlaywrightTable(t *testing.T) {
	readme.Check(t, "PWFLAGS", pwFlagTable())
}

// TestStartEmulation: each setting that every session emulates from its
// start is put, alone, into what sessions are given (startEmulation, which
// they apply through browser_emulate's path); none given, nothing is.
func TestStartEmulation(t *testing.T) {
	if e, dev := (&Config{}).startEmulation(); e != nil || dev != "" {
		t.Errorf("no setting: %+v, %q", e, dev)
	}
	for _, tc := range []struct {
		args []string
		got  func(e devices.Emulation, device string) bool
	}{
		{[]string{"--device", "iPhone 15"}, func(_ devices.Emulation, d string) bool { return d == "iPhone 15" }},
		{[]string{"--user-agent", "Bot/3"}, func(e devices.Emulation, _ string) bool { return e.UserAgent == "Bot/3" }},
		{[]string{"--grant-permissions", "geolocation"}, func(e devices.Emulation, _ string) bool { return slices.Equal(e.Permissions, []string{"geolocation"}) }},
		{[]string{"--device-scale-factor", "2"}, func(e devices.Emulation, _ string) bool { return e.DeviceScaleFactor == 2 }},
		{[]string{"--locale", "de-CH"}, func(e devices.Emulation, _ string) bool { return e.Locale == "de-CH" }},
		{[]string{"--timezone", "Asia/Tokyo"}, func(e devices.Emulation, _ string) bool { return e.TimezoneID == "Asia/Tokyo" }},
	} {
		c, err := Parse("serve", tc.args, envOf(nil))
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if e, dev := c.startEmulation(); e == nil || !tc.got(*e, dev) {
			t.Errorf("%v: sessions start with %+v, device %q", tc.args, e, dev)
		}
	}
}
