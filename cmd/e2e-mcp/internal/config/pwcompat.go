package config

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Playwright MCP's command line. Most users of e2e-mcp come from
// `npx @playwright/mcp@latest ARGS` in an .mcp.json, a CI image or an
// agent's settings; swapping the command for `e2e-mcp ARGS` must keep
// working. So serve takes every flag of Playwright MCP 0.0.83's --help
// (testdata/playwright-mcp-flags.txt) with its name and value syntax, its
// PLAYWRIGHT_MCP_* environment variable and its key in the config file
// (pwconfig.go): each is one of our settings under the same name, an alias
// of one of ours under another name, or refused with why and what to use
// instead. Nothing is ignored in silence. The table of
// docs/playwright-mcp.md is made from pwFlags (TestReadmePlaywrightTable).
//
// Precedence, for ours and theirs alike: a flag, then our E2E_MCP_*
// variable, then their PLAYWRIGHT_MCP_* variable, then the config file,
// then the default. Ours win over theirs when both are set: E2E_MCP_* is
// this program's, set on purpose for it.

// pwFlag is one flag of Playwright MCP's command line and what it is here.
type pwFlag struct {
	name string // as given, without "--"
	env  string // its PLAYWRIGHT_MCP_* variable ("" none)
	// isBool: the flag takes no value.
	isBool bool
	// ours is the setting it sets: its own name when the setting is ours
	// too (which then takes their value syntax as well), or another
	// (an alias). "" with refused empty: accepted, nothing to set.
	ours string
	// to turns their value into ours' (nil: as it is).
	to func(string) (string, error)
	// also are further settings it sets, each to a fixed value.
	also [][2]string
	// differs says how it differs from theirs ("" the same).
	differs string
	// refused says why it has no meaning here and what to use instead.
	refused string
}

// mobileDevice is what --mobile emulates, as Playwright MCP's on Chromium.
const mobileDevice = "Pixel 10"

func invert(v string) (string, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return "", fmt.Errorf("%q: want true or false", v)
	}
	return strconv.FormatBool(!b), nil
}

func millisecondsOf(v string) (string, error) {
	d, err := parseMillis(v)
	if err != nil {
		return "", err
	}
	return d.String(), nil
}

const extensionRefusal = "it connects through the Playwright MCP Bridge browser extension, which this server does not speak: to use a running Chrome, start it with --remote-debugging-port=9222 and give --cdp-endpoint http://127.0.0.1:9222"

const endpointRefusal = "a Playwright server's endpoint speaks Playwright's own protocol, not the DevTools protocol: give the browser's DevTools endpoint with --cdp-endpoint (ws://HOST:PORT/devtools/browser/ID or http://HOST:PORT)"

// pwFlags are Playwright MCP 0.0.83's flags, in its --help's order, then
// the hidden ones it still takes.
var pwFlags = []pwFlag{
	{name: "allowed-hosts", env: "PLAYWRIGHT_MCP_ALLOWED_HOSTS", ours: "allowed-hosts",
		differs: "a name without a port is accepted on any port; without it the listen address, localhost, 127.0.0.1 and [::1] are accepted (theirs: only the address it prints), and --http-allowed-hosts adds to those"},
	{name: "allowed-origins", env: "PLAYWRIGHT_MCP_ALLOWED_ORIGINS", ours: "allowed-origins",
		differs: "a boundary here: every request and connection of the pages (workers, WebSockets, redirects) is held to it; the session's dev server is always allowed"},
	{name: "allow-unrestricted-file-access", env: "PLAYWRIGHT_MCP_ALLOW_UNRESTRICTED_FILE_ACCESS", isBool: true, ours: "allow-file-urls",
		also:    [][2]string{{"file-roots", "/"}},
		differs: "sets --allow-file-urls and --file-roots /; over HTTP a remote client still writes only in its own directory"},
	{name: "blocked-origins", env: "PLAYWRIGHT_MCP_BLOCKED_ORIGINS", ours: "blocked-origins",
		differs: "a boundary here, as --allowed-origins"},
	{name: "block-service-workers", env: "PLAYWRIGHT_MCP_BLOCK_SERVICE_WORKERS", isBool: true, ours: "block-service-workers"},
	{name: "browser", env: "PLAYWRIGHT_MCP_BROWSER", ours: "browser",
		differs: "any Chromium found stands in for a channel not installed; firefox and webkit are refused"},
	{name: "caps", env: "PLAYWRIGHT_MCP_CAPS", ours: "caps",
		differs: "our groups (vision, pdf, devtools, network, storage, testing, config and more); core is always on"},
	{name: "cdp-endpoint", env: "PLAYWRIGHT_MCP_CDP_ENDPOINT", ours: "cdp-endpoint", differs: "several may be given: sessions are spread across them; the first on each uses its open tab unless --isolated, the others get contexts of their own"},
	{name: "cdp-header", env: "PLAYWRIGHT_MCP_CDP_HEADERS", ours: "cdp-header"},
	{name: "cdp-timeout", env: "PLAYWRIGHT_MCP_CDP_TIMEOUT", ours: "cdp-timeout"},
	{name: "codegen", env: "PLAYWRIGHT_MCP_CODEGEN", ours: "codegen",
		differs: "none by default, for smaller answers; python, java and csharp are refused (the code is Playwright Test's TypeScript)"},
	{name: "config", env: "PLAYWRIGHT_MCP_CONFIG", ours: "config", differs: "an unknown key is refused, named, and so is an INI line that is not KEY = VALUE, a key given twice or a value not of its key's type"},
	{name: "console-level", env: "PLAYWRIGHT_MCP_CONSOLE_LEVEL", ours: "console-level", differs: "a call's level argument wins"},
	{name: "device", env: "PLAYWRIGHT_MCP_DEVICE", ours: "device", differs: "a table of our own: the devices --help names"},
	{name: "mobile", env: "PLAYWRIGHT_MCP_MOBILE", isBool: true, ours: "mobile"},
	{name: "executable-path", env: "PLAYWRIGHT_MCP_EXECUTABLE_PATH", ours: "browser-path"},
	{name: "extension", env: "PLAYWRIGHT_MCP_EXTENSION", isBool: true, refused: extensionRefusal},
	{name: "endpoint", env: "PLAYWRIGHT_MCP_ENDPOINT", refused: endpointRefusal},
	{name: "file-paths", env: "PLAYWRIGHT_MCP_FILE_PATHS", ours: "file-paths",
		differs: "absolute only (theirs is relative by default): answers here name files by their absolute paths"},
	{name: "grant-permissions", env: "PLAYWRIGHT_MCP_GRANT_PERMISSIONS", ours: "grant-permissions"},
	{name: "headless", env: "PLAYWRIGHT_MCP_HEADLESS", isBool: true, ours: "headed", to: invert,
		differs: "headless is the default here (theirs is headed where there is a display): --headed shows the browser"},
	{name: "host", env: "PLAYWRIGHT_MCP_HOST", ours: "host"},
	{name: "idle-timeout", env: "PLAYWRIGHT_MCP_IDLE_TIMEOUT", ours: "idle-timeout",
		differs: "it ends the idle session (tabs, cookies, dev server) rather than closing the browser for the next call to start again; default 10 minutes"},
	{name: "ignore-https-errors", env: "PLAYWRIGHT_MCP_IGNORE_HTTPS_ERRORS", isBool: true, ours: "ignore-https-errors"},
	{name: "init-page", env: "PLAYWRIGHT_MCP_INIT_PAGE",
		refused: "it runs a TypeScript file on Playwright's page object in Node, which this server has not: use --init-script (JavaScript run in every page before its own scripts), --storage-state, --grant-permissions or --device"},
	{name: "init-script", env: "PLAYWRIGHT_MCP_INIT_SCRIPT", ours: "init-script"},
	{name: "isolated", env: "PLAYWRIGHT_MCP_ISOLATED", isBool: true, ours: "isolated",
		differs: "the default here: every session starts with a fresh profile (with --cdp-endpoint, not the first one without it)"},
	{name: "image-responses", env: "PLAYWRIGHT_MCP_IMAGE_RESPONSES", ours: "image-responses"},
	{name: "no-sandbox", env: "PLAYWRIGHT_MCP_NO_SANDBOX", isBool: true, ours: "no-sandbox", differs: "always so as root"},
	{name: "no-webmcp", env: "PLAYWRIGHT_MCP_WEBMCP", isBool: true,
		differs: "accepted: this server never offers the tools pages register through WebMCP"},
	{name: "output-dir", env: "PLAYWRIGHT_MCP_OUTPUT_DIR", ours: "output-dir",
		differs: "over HTTP, the only directory tools write to, a directory for each client; without it no console log file is written (theirs: in a default directory)"},
	{name: "output-max-size", env: "PLAYWRIGHT_MCP_OUTPUT_MAX_SIZE", ours: "output-max-size"},
	{name: "port", env: "PLAYWRIGHT_MCP_PORT", ours: "port", differs: "Streamable HTTP at /mcp, as --http HOST:PORT"},
	{name: "profile-dir-name", env: "PLAYWRIGHT_MCP_PROFILE_DIR_NAME", refused: "it names the Chrome profile --extension connects to; " + extensionRefusal},
	{name: "proxy-bypass", env: "PLAYWRIGHT_MCP_PROXY_BYPASS", ours: "proxy-bypass"},
	{name: "proxy-server", env: "PLAYWRIGHT_MCP_PROXY_SERVER", ours: "proxy-server",
		differs: "socks5 only where no request policy applies (stdio, no origin rules)"},
	{name: "sandbox", env: "PLAYWRIGHT_MCP_SANDBOX", isBool: true, ours: "no-sandbox", to: invert,
		differs: "the sandbox is on by default here, but as root Chromium runs without it"},
	{name: "save-session", env: "PLAYWRIGHT_MCP_SAVE_SESSION", isBool: true, ours: "save-trace",
		differs: "the session is saved as a Playwright trace (Trace Viewer) in e2e-mcp-traces/ of the first file root, not as a log"},
	{name: "secrets", env: "PLAYWRIGHT_MCP_SECRETS_FILE", ours: "secrets",
		differs: "masked as ••• (theirs <secret>NAME</secret>); ${NAME} works in every argument"},
	{name: "shared-browser-context", env: "PLAYWRIGHT_MCP_SHARED_BROWSER_CONTEXT", isBool: true, ours: "shared-browser-context"},
	{name: "snapshot-boxes", env: "PLAYWRIGHT_MCP_SNAPSHOT_BOXES", isBool: true, ours: "snapshot-boxes",
		differs: "an iframe's elements are placed in its own viewport; boxes make snapshots fold sooner"},
	{name: "snapshot-mode", env: "PLAYWRIGHT_MCP_SNAPSHOT_MODE", ours: "snapshot-mode",
		differs: "full (and the older incremental) show what changed since the last snapshot, folded to --snapshot-budget"},
	{name: "storage-state", env: "PLAYWRIGHT_MCP_STORAGE_STATE", ours: "storage-state"},
	{name: "test-id-attribute", env: "PLAYWRIGHT_MCP_TEST_ID_ATTRIBUTE", ours: "test-id-attribute"},
	{name: "timeout-action", env: "PLAYWRIGHT_MCP_TIMEOUT_ACTION", ours: "action-timeout", to: millisecondsOf},
	{name: "timeout-navigation", env: "PLAYWRIGHT_MCP_TIMEOUT_NAVIGATION", ours: "navigation-timeout", to: millisecondsOf,
		differs: "default 30 s (theirs 60 s)"},
	{name: "timeout-settle", env: "PLAYWRIGHT_MCP_TIMEOUT_SETTLE", ours: "timeout-settle"},
	{name: "user-agent", env: "PLAYWRIGHT_MCP_USER_AGENT", ours: "user-agent"},
	{name: "user-data-dir", env: "PLAYWRIGHT_MCP_USER_DATA_DIR", ours: "user-data-dir",
		differs: "cookies and local storage are kept, not Chrome's whole profile (IndexedDB, cache and service workers are not)"},
	{name: "viewport-size", env: "PLAYWRIGHT_MCP_VIEWPORT_SIZE", ours: "viewport-size", differs: "1280x720 by default, headed or not"},
	// Hidden in their --help, still taken.
	{name: "vision", isBool: true, ours: "caps", to: func(v string) (string, error) {
		if b, err := strconv.ParseBool(v); err != nil || !b {
			return "", fmt.Errorf("%q: --vision takes no value", v)
		}
		return "vision", nil
	}, differs: "their old spelling of --caps vision: it adds the group to those --caps gives"},
	{name: "remote-header", env: "PLAYWRIGHT_MCP_REMOTE_HEADERS", refused: "it goes with --endpoint; " + endpointRefusal},
}

// pwFlagNamed is the row of a Playwright MCP flag.
func pwFlagNamed(name string) (pwFlag, bool) {
	i := slices.IndexFunc(pwFlags, func(f pwFlag) bool { return f.name == name })
	if i < 0 {
		return pwFlag{}, false
	}
	return pwFlags[i], true
}

// pwRefusal is the mistake a refused flag of theirs is, said before the
// command line is parsed (a refused flag may take a value or not).
func pwRefusal(args []string) error {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f, ok := pwFlagNamed(name); ok && f.refused != "" && f.ours == "" {
			return &FlagError{fmt.Sprintf("--%s is Playwright MCP's and has no meaning here: %s", name, f.refused)}
		}
	}
	return nil
}

// pwValue is an alias flag of theirs: setting it sets ours.
type pwValue struct {
	f     pwFlag
	fs    *flag.FlagSet
	given map[string]bool
}

func (v *pwValue) String() string { return "" }

func (v *pwValue) IsBoolFlag() bool { return v != nil && v.f.isBool }

func (v *pwValue) Set(s string) error {
	sets, err := v.f.assignments(s)
	if err != nil {
		return err
	}
	for _, kv := range sets {
		// A flag of theirs that names a capability group (--vision)
		// adds it to the groups given, as theirs does.
		if cur := v.fs.Lookup(kv[0]).Value.String(); kv[0] == "caps" && cur != "" {
			kv[1] = cur + "," + kv[1]
		}
		if err := v.fs.Set(kv[0], kv[1]); err != nil {
			return fmt.Errorf("--%s: %w", kv[0], err)
		}
		v.given[kv[0]] = true
	}
	return nil
}

// assignments are the settings of ours a value of this flag sets, with
// their values in our syntax.
func (f pwFlag) assignments(v string) ([][2]string, error) {
	if f.ours == "" {
		return nil, nil
	}
	if f.to != nil {
		var err error
		if v, err = f.to(v); err != nil {
			return nil, err
		}
	}
	out := [][2]string{{f.ours, v}}
	if f.isBool {
		if b, err := strconv.ParseBool(v); err == nil && !b && f.to == nil {
			return out, nil // a false turns on none of the rest
		}
	}
	return append(out, f.also...), nil
}

// addPWFlags adds to fs the flags of theirs whose names are not ours;
// given collects the settings they set.
func addPWFlags(fs *flag.FlagSet, given map[string]bool) {
	for _, f := range pwFlags {
		if fs.Lookup(f.name) != nil || (f.refused != "" && f.ours == "") {
			continue
		}
		fs.Var(&pwValue{f: f, fs: fs, given: given}, f.name, "Playwright MCP's --"+f.name)
	}
}

// pwEnv sets, from their PLAYWRIGHT_MCP_* variables, the settings no flag
// and no E2E_MCP_* variable set. A variable of a refused flag set to
// anything but false is refused, as the flag is.
func pwEnv(fs *flag.FlagSet, getenv func(string) string, given map[string]bool) error {
	set := map[string]bool{}
	for _, f := range pwFlags {
		if f.env == "" {
			continue
		}
		v := strings.TrimSpace(getenv(f.env))
		if v == "" {
			continue
		}
		if f.name == "no-webmcp" {
			continue // PLAYWRIGHT_MCP_WEBMCP: the tools are never offered, whatever it says
		}
		if f.refused != "" && f.ours == "" {
			if b, err := strconv.ParseBool(v); f.isBool && err == nil && !b {
				continue
			}
			return fmt.Errorf("$%s is Playwright MCP's --%s, which has no meaning here: %s", f.env, f.name, f.refused)
		}
		sets, err := f.assignments(v)
		if err != nil {
			return fmt.Errorf("$%s: %v", f.env, err)
		}
		for _, kv := range sets {
			if given[kv[0]] {
				continue
			}
			if err := fs.Set(kv[0], kv[1]); err != nil {
				return fmt.Errorf("$%s: --%s: %v", f.env, kv[0], err)
			}
			set[kv[0]] = true
		}
	}
	for k := range set {
		given[k] = true
	}
	return nil
}

// pwNormalize turns the values of theirs that our settings keep as given
// into ours: separators, names, and the settings made of two (--port and
// --host, --mobile). portGiven says --port was set (flag, variable or
// config file): 0, as theirs, is then a port the system picks, not none.
func (c *Config) pwNormalize(portGiven bool) error {
	c.AllowedOrigins = strings.ReplaceAll(c.AllowedOrigins, ";", ",")
	c.BlockedOrigins = strings.ReplaceAll(c.BlockedOrigins, ";", ",")
	if v := strings.TrimSpace(c.ViewportSize); !strings.ContainsAny(v, "xX") && strings.Count(v, ",") == 1 {
		c.ViewportSize = strings.Replace(v, ",", "x", 1)
	}
	var caps []string
	for _, g := range strings.Split(c.Caps, ",") {
		switch g = strings.ToLower(strings.TrimSpace(g)); {
		case g == "core" || strings.HasPrefix(g, "core-") || g == "input":
			// Always offered here (browser_install has no place: the
			// browser is the machine's). input was our group of
			// browser_drop, a core tool now, as theirs: a --caps that
			// still names it starts as it did.
		case g == "tracing":
			caps = append(caps, "devtools")
		case g != "":
			caps = append(caps, g)
		}
	}
	c.Caps = strings.Join(caps, ",")
	if c.Mobile {
		if c.Device != "" {
			return fmt.Errorf("--mobile and --device: give one or the other (--mobile is --device %q)", mobileDevice)
		}
		c.Device = mobileDevice
	}
	if portGiven {
		if c.Port < 0 || c.Port > 65535 {
			return fmt.Errorf("--port must be 0 (a free port) to 65535, got %d", c.Port)
		}
		if c.HTTP != "" {
			return fmt.Errorf("--port and --http: give one or the other (--http %s)", c.HTTP)
		}
		host := c.Host
		if host == "" {
			host = "localhost"
		}
		c.HTTP = net.JoinHostPort(host, strconv.Itoa(c.Port))
	} else if c.Host != "" && c.HTTP != "" {
		return fmt.Errorf("--host %s and --http %s: give the address in --http HOST:PORT alone", c.Host, c.HTTP)
	}
	// --host without --port: MCP is served over stdio, as theirs does,
	// and serve warns that the host is not used (hostUnused).
	return nil
}

// HostUnused says --host was given without --port: nothing listens on it,
// MCP is served over stdio.
func (c *Config) HostUnused() bool { return c.Host != "" && c.HTTP == "" }

// startEmulation is what every session emulates from its start, through
// the path browser_emulate takes (Tabs.SetEmulation), and the device it
// names: nil when the settings ask for nothing.
func (c *Config) startEmulation() (*devices.Emulation, string) {
	e := devices.Emulation{UserAgent: c.UserAgent, Permissions: c.permissions(), DeviceScaleFactor: c.DeviceScaleFactor,
		Locale: c.Locale, TimezoneID: c.Timezone}
	if c.Device == "" && e.IsZero() {
		return nil, ""
	}
	return &e, c.Device
}

// startError is a refusal of a setting's check (browser/devices: a locale,
// a time zone) as a start-up error says it: what is wrong, and what to give
// instead.
func startError(err error) string {
	if e, ok := refusal.As(err); ok && e.Hint != "" {
		return e.Message + ": " + e.Hint
	}
	return err.Error()
}

// channels are the values --browser takes: Chromium's, by channel.
var channels = []string{"chrome", "chrome-beta", "chrome-dev", "chrome-canary", "chromium",
	"msedge", "msedge-beta", "msedge-dev", "msedge-canary"}

// enumCheck says a value is one of want, naming the flag.
func enumCheck(flag, v string, want ...string) error {
	if slices.Contains(want, v) {
		return nil
	}
	return fmt.Errorf("--%s %q: want %s", flag, v, strings.Join(want, ", "))
}

// validatePW checks the settings that came with Playwright MCP's command
// line.
func (c *Config) validatePW() []error {
	var errs []error
	switch ch := strings.ToLower(c.Channel); {
	case ch == "" || slices.Contains(channels, ch):
	case ch == "firefox" || ch == "webkit" || strings.HasPrefix(ch, "moz-firefox"):
		errs = append(errs, fmt.Errorf("--browser %s: this server drives Chromium over the DevTools protocol only; leave --browser out, or give chrome, chromium or msedge", c.Channel))
	default:
		errs = append(errs, enumCheck("browser", c.Channel, channels...))
	}
	if c.Device != "" {
		if _, ok := devices.Devices[c.Device]; !ok {
			errs = append(errs, fmt.Errorf("--device %q: not a device of this server's table; give one of %s", c.Device, strings.Join(devices.DeviceNames(), ", ")))
		}
	}
	if c.DeviceScaleFactor < 0 || c.DeviceScaleFactor > 10 {
		errs = append(errs, fmt.Errorf("--device-scale-factor %g: give a pixel ratio up to 10, e.g. 2 or 3 for a phone (0: the device's)", c.DeviceScaleFactor))
	}
	if c.Isolated && c.UserDataDir != "" {
		errs = append(errs, fmt.Errorf("--isolated and --user-data-dir: give one or the other (a profile kept in memory, or in the directory)"))
	}
	switch c.Codegen {
	case "none", "typescript":
	case "python", "java", "csharp":
		errs = append(errs, fmt.Errorf("--codegen %s: the code here is Playwright Test's TypeScript; give typescript or none", c.Codegen))
	default:
		errs = append(errs, enumCheck("codegen", c.Codegen, "none", "typescript"))
	}
	if err := enumCheck("console-level", c.ConsoleLevel, "error", "warning", "info", "debug"); err != nil {
		errs = append(errs, err)
	}
	if err := enumCheck("image-responses", c.ImageResponses, "allow", "omit", "only"); err != nil {
		errs = append(errs, err)
	}
	if c.SnapshotMode == "incremental" {
		c.SnapshotMode = "full" // their older name of what full is here
	}
	if err := enumCheck("snapshot-mode", c.SnapshotMode, "full", "none"); err != nil {
		errs = append(errs, err)
	}
	if c.FilePaths == "relative" {
		errs = append(errs, fmt.Errorf("--file-paths relative: answers here name files by their absolute paths; leave it out or give absolute"))
	} else if err := enumCheck("file-paths", c.FilePaths, "absolute"); err != nil {
		errs = append(errs, err)
	}
	if c.SettleTimeout <= 0 || c.SettleTimeout > time.Minute {
		errs = append(errs, fmt.Errorf("--timeout-settle must be more than 0 and at most 1m, got %s", c.SettleTimeout))
	}
	if c.OutputMaxSize < 0 {
		errs = append(errs, fmt.Errorf("--output-max-size must be 0 (no bound) or more bytes, got %d", c.OutputMaxSize))
	}
	if c.CDPTimeout < 0 {
		errs = append(errs, fmt.Errorf("--cdp-timeout must be 0 (the default, 30s) or more, got %s", c.CDPTimeout))
	}
	for _, ck := range []struct {
		flag, v string
		check   func(string) error
	}{{"locale", c.Locale, devices.CheckLocale}, {"timezone", c.Timezone, devices.CheckTimezone}} {
		if err := ck.check(ck.v); err != nil {
			errs = append(errs, fmt.Errorf("--%s: %s", ck.flag, startError(err)))
		}
	}
	for _, p := range c.permissions() {
		if err := devices.CheckPermission(p); err != nil {
			errs = append(errs, fmt.Errorf("--grant-permissions: %s", startError(err)))
		}
	}
	for name := range c.secrets {
		if !secretNameRE.MatchString(name) {
			errs = append(errs, fmt.Errorf("secret name %q: want letters, digits, _, . and -", name))
		}
	}
	return errs
}

// permissions are --grant-permissions' names.
func (c *Config) permissions() []string {
	var out []string
	for _, p := range strings.Split(c.GrantPermissions, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// proxy reads --proxy-server and --proxy-bypass: nil when none is given.
func (c *Config) proxy() (*netpolicy.Upstream, error) {
	if c.ProxyServer == "" {
		if c.ProxyBypass != "" {
			return nil, fmt.Errorf("--proxy-bypass needs --proxy-server")
		}
		return nil, nil
	}
	raw := c.ProxyServer
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // as Chromium reads a proxy without a scheme
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" ||
		(u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") {
		return nil, fmt.Errorf("--proxy-server %q: want http://host:port, https://host:port or socks5://host:port", redact.URL(c.ProxyServer))
	}
	up := &netpolicy.Upstream{URL: u}
	for _, b := range strings.FieldsFunc(c.ProxyBypass, func(r rune) bool { return r == ',' || r == ';' }) {
		if b = strings.TrimSpace(b); b != "" {
			up.Bypass = append(up.Bypass, b)
		}
	}
	return up, nil
}

// blockServiceWorkers is the init script of --block-service-workers: a
// page's registration rejects, as in a browser that has them off.
const blockServiceWorkers = `(() => {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const refuse = () => Promise.reject(new DOMException('service workers are blocked on this server (--block-service-workers)', 'SecurityError'));
  Object.defineProperty(sw, 'register', { value: refuse, configurable: false, writable: false });
})();`

// ApplyPlaywright gives the server's parts, the session registry and what
// the tools depend on, what the settings of Playwright MCP's command line
// ask of them (serve and run alike).
func (c *Config) ApplyPlaywright(reg *mcptools.Registry, deps *mcptools.Deps) {
	reg.StartEmulation, reg.StartDevice = c.startEmulation()
	if c.BlockServiceWorkers {
		reg.InitScripts = append([]string{blockServiceWorkers}, reg.InitScripts...)
	}
	if len(c.secrets) > 0 {
		deps.SecretVars, reg.SecretNames = map[string]string{}, map[string]string{}
		for name, v := range c.secrets {
			deps.SecretVars[name] = v
			if v != "" { // an empty one masks nothing
				reg.Secrets.Add(v)
				reg.SecretNames[v] = name
			}
		}
	}
	deps.Codegen, deps.ConsoleLevel, deps.ImageResponses = c.Codegen, c.ConsoleLevel, c.ImageResponses
	deps.OutputMaxSize = c.OutputMaxSize
	reg.NoSnapshots = c.SnapshotMode == "none"
	reg.SharedDefault = c.SharedBrowserContext
}

// channelExecutables are the executables of a --browser channel, in the
// order they are looked for on PATH.
var channelExecutables = map[string][]string{
	"chrome":        {"google-chrome", "google-chrome-stable", "chrome"},
	"chrome-beta":   {"google-chrome-beta"},
	"chrome-dev":    {"google-chrome-unstable", "google-chrome-dev"},
	"chrome-canary": {"google-chrome-canary"},
	"chromium":      {"chromium", "chromium-browser"},
	"msedge":        {"microsoft-edge", "microsoft-edge-stable", "msedge"},
	"msedge-beta":   {"microsoft-edge-beta"},
	"msedge-dev":    {"microsoft-edge-dev"},
	"msedge-canary": {"microsoft-edge-canary"},
}

// ChannelPath is the executable of --browser's channel, or "" when none is
// installed: then any Chromium found stands in (a Chromium is a Chromium).
func (c *Config) ChannelPath() string {
	if c.BrowserPath != "" {
		return c.BrowserPath
	}
	for _, name := range channelExecutables[strings.ToLower(c.Channel)] {
		if p, err := launcher.FindExecutable(name); err == nil {
			return p
		}
	}
	return ""
}
