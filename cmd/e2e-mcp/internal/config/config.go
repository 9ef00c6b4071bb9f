package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/transport"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
)

// Config is the whole configuration of a server, built once from flags with
// E2E_MCP_* environment fallbacks (a flag given on the command line wins).
type Config struct {
	// BrowserPath is the Chrome/Chromium executable; empty means search PATH.
	BrowserPath string
	// Headed shows browser windows instead of running headless.
	Headed bool
	// NoSandbox starts Chromium without its sandbox (always so as root).
	NoSandbox bool
	// ViewportSize is every tab's size at its start, WxH in CSS pixels.
	ViewportSize string
	// ActionTimeout bounds waiting for an element to become actionable.
	ActionTimeout time.Duration
	// NavigationTimeout bounds one navigation.
	NavigationTimeout time.Duration
	// ServerCommand is the default dev-server command line for session_start
	// (split on spaces; no shell).
	ServerCommand string
	// IdleTimeout ends a session (dev server --shutdown, browser context
	// closed) after this long without a tool call; 0 never.
	IdleTimeout time.Duration
	// ClientIdleTimeout ends an HTTP client's MCP session after this long
	// without a request or an open stream (a client that vanished without
	// DELETE); 0 never. It is not IdleTimeout: an agent that stops to
	// write code for an hour keeps its connection.
	ClientIdleTimeout time.Duration
	// StartTimeout, RestartTimeout, StatusTimeout and ShutdownTimeout bound
	// the dev-server command's verbs.
	StartTimeout, RestartTimeout, StatusTimeout, ShutdownTimeout time.Duration
	// StateDir holds managed dev servers' logs and state.
	StateDir string
	// MaxSnapshotBytes caps the snapshot text of one response (0: no cap).
	MaxSnapshotBytes int
	// SnapshotBudget is the size a snapshot is folded to (0: never fold).
	SnapshotBudget int
	// ErrorLogLines is how many dev-server stderr lines a failure carries.
	ErrorLogLines int
	// TestIDAttribute is the attribute testid= selectors match.
	TestIDAttribute string
	// FileRoots lists the directories file uploads may come from (comma or
	// path-list separated); empty means the client's roots or the working
	// directory (mcptools/roots.go).
	FileRoots string
	// AllowedOrigins and BlockedOrigins are the request policy's origin
	// patterns, comma separated; AllowFileURLs lets pages open file://.
	AllowedOrigins, BlockedOrigins string
	AllowFileURLs                  bool
	// HTTP is the address to serve Streamable HTTP on; empty means stdio.
	HTTP string
	// MaxSessions bounds the open sessions (LRU eviction of idle ones).
	MaxSessions int
	// MaxClients bounds the live MCP sessions over HTTP: an initialize
	// beyond it ends one with no stream and no request in flight, or is
	// refused (transport/lifetime.go).
	MaxClients int
	// SharedSessions lets every HTTP client use the sessions any client
	// names (sessionId); without it each principal has its own.
	SharedSessions bool
	// BusyTimeout bounds how long a call waits for a session another call
	// holds.
	BusyTimeout time.Duration
	// OutputDir is where tools write files for HTTP clients, and over
	// stdio the files a call does not name; OutputMaxSize bounds those
	// files (0: no bound).
	OutputDir     string
	OutputMaxSize int64
	// HTTPMaxBody bounds the body of one HTTP request, in bytes.
	HTTPMaxBody int64
	// MaxDownloadSize bounds the file one download may be, in bytes.
	MaxDownloadSize int64
	// DrainTimeout bounds waiting for in-flight calls on shutdown (HTTP).
	DrainTimeout time.Duration
	// ReplicaID names this replica in the MCP session ids it makes
	// (mcp-session-ID.UUID), so a load balancer can route by the id alone.
	ReplicaID string
	// CDPEndpoints are remote browsers to use instead of launching one
	// (comma separated); CDPHeaders go with their websocket handshake
	// ("Name: value", separated by ';').
	CDPEndpoints, CDPHeaders string
	// WebDriverURLs are WebDriver grids each session takes a browser of
	// its own from (comma separated); WebDriverHeaders go with every
	// request to them ("Name: value", separated by ';').
	WebDriverURLs, WebDriverHeaders string
	// AuthToken is the static bearer token HTTP clients must send.
	AuthToken string
	// HTTPAllowedHosts and HTTPAllowedOrigins widen the Host and Origin
	// checks of the HTTP server (comma separated).
	HTTPAllowedHosts, HTTPAllowedOrigins string
	// AllowedHosts, when set, are the only Host header values the HTTP
	// server accepts over TCP, with HTTPAllowedHosts (Playwright MCP's
	// --allowed-hosts): the listen address and localhost are not added.
	AllowedHosts string
	// OAuthIssuer, OAuthJWKSURL and OAuthResource make the HTTP server an
	// OAuth 2.1 resource server; OAuthScopes are the scopes it asks for.
	OAuthIssuer, OAuthJWKSURL, OAuthResource, OAuthScopes string
	// RateSessions and RateCalls are per-client limits a minute (0: off).
	RateSessions, RateCalls int
	// RateClients is the initializes (new MCP sessions) a client may make
	// a minute over TCP (0: no limit).
	RateClients int
	// StorageState is a storage state file every session starts in.
	StorageState string
	// InitScripts are script files run in every page, comma separated.
	InitScripts string
	// SaveTrace: every session traces, and its end saves the trace.
	SaveTrace bool
	// Caps are the capability groups whose tools are offered besides the
	// core ones (--caps, comma separated, or all).
	Caps string
	// SaveVideo records a video of every session (--save-video[=WxH]): ""
	// off, "true" the default size, or WxH.
	SaveVideo string
	// SaveVideoDir is where --save-video writes the videos ("": the
	// default, e2e-mcp-videos/ of the first file root).
	SaveVideoDir string
	// MaxVideoSize is the largest frame a session's video may have,
	// WIDTHxHEIGHT either way round; MaxVideoBytes its largest file.
	MaxVideoSize  string
	MaxVideoBytes int64
	// LogLevel is debug, info, warn or error.
	LogLevel string
	// LogFormat is json or console.
	LogFormat string

	// The settings that came with Playwright MCP's command line
	// (pwcompat.go), each also one of ours.

	// ConfigFile is a Playwright MCP JSON config file, read below the flags
	// and the environment (pwconfig.go).
	ConfigFile string
	// Channel is --browser: which Chromium to look for (chrome, msedge...).
	Channel string
	// UserDataDir keeps the sessions' cookies and storage across runs
	// (mcptools.Profile); Isolated says every session starts fresh.
	UserDataDir string
	Isolated    bool
	// Device and Mobile emulate a device in every session; UserAgent and
	// GrantPermissions change what every session's pages are told.
	Device           string
	Mobile           bool
	UserAgent        string
	GrantPermissions string
	// Locale and Timezone are every session's locale and time zone at its
	// start, as browser_emulate sets them (the config file's
	// browser.contextOptions.locale and timezoneId).
	Locale, Timezone string
	// DeviceScaleFactor is every session's pixel ratio (0: the device's,
	// else 1).
	DeviceScaleFactor float64
	// IgnoreHTTPSErrors lets pages load over HTTPS whatever the
	// certificate; BlockServiceWorkers keeps pages from registering any.
	IgnoreHTTPSErrors, BlockServiceWorkers bool
	// BypassCSP: pages' Content-Security-Policy is not enforced;
	// NoJavaScript: pages' own scripts do not run (the config file's
	// browser.contextOptions.bypassCSP and javaScriptEnabled).
	BypassCSP, NoJavaScript bool
	// ProxyServer and ProxyBypass send the browser's connections through
	// a proxy, but for the hosts ProxyBypass lists.
	ProxyServer, ProxyBypass string
	// SecretsFile is a dotenv file of secrets: ${NAME} in arguments.
	SecretsFile string
	// Codegen is typescript (actions' answers carry their Playwright code)
	// or none.
	Codegen string
	// ConsoleLevel is browser_console_messages' level when a call names none.
	ConsoleLevel string
	// ImageResponses is allow, omit or only.
	ImageResponses string
	// SnapshotMode is full (actions' answers show the page) or none;
	// SnapshotBoxes puts each element's box in its line.
	SnapshotMode  string
	SnapshotBoxes bool
	// SettleTimeout bounds an action's wait for the requests it started;
	// CDPTimeout bounds connecting to a --cdp-endpoint browser.
	SettleTimeout, CDPTimeout time.Duration
	// Port and Host are --http as Playwright MCP gives it.
	Port int
	Host string
	// SharedBrowserContext gives every client one browser session.
	SharedBrowserContext bool
	// FilePaths is how answers name files: absolute.
	FilePaths string

	// secrets are the values of the secrets file and of the config file's
	// secrets, by name (pwconfig.go).
	secrets map[string]string
}

var attrNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]*$`)

var settings = []setting{
	{"browser-path", "E2E_MCP_BROWSER_PATH", "", "Chrome or Chromium executable (default: search PATH for chromium, google-chrome, chrome, headless_shell)",
		str(func(c *Config) *string { return &c.BrowserPath })},
	{"headed", "E2E_MCP_HEADED", "false", "show browser windows (also HEADLESS=false)",
		boolean(func(c *Config) *bool { return &c.Headed })},
	{"no-sandbox", "E2E_MCP_NO_SANDBOX", "false", "start Chromium without its sandbox (always so as root): for containers whose seccomp profile forbids user namespaces",
		boolean(func(c *Config) *bool { return &c.NoSandbox })},
	{"viewport-size", "E2E_MCP_VIEWPORT_SIZE", "1280x720", "the viewport every tab starts with, WIDTHxHEIGHT (or WIDTH,HEIGHT) in CSS pixels, whatever the window's size (browser_resize and browser_emulate change it)",
		str(func(c *Config) *string { return &c.ViewportSize })},
	{"action-timeout", "E2E_MCP_ACTION_TIMEOUT", "5s", "how long an action waits for its element to become actionable",
		duration(func(c *Config) *time.Duration { return &c.ActionTimeout })},
	{"navigation-timeout", "E2E_MCP_NAVIGATION_TIMEOUT", "30s", "how long a navigation may take to load",
		duration(func(c *Config) *time.Duration { return &c.NavigationTimeout })},
	{"server-command", "E2E_MCP_SERVER_COMMAND", "", "default dev-server command for session_start (contract: COMMAND ARGS... --start|--status|--restart|--shutdown)",
		str(func(c *Config) *string { return &c.ServerCommand })},
	{"idle-timeout", "E2E_MCP_IDLE_TIMEOUT", "10m", "end a session (dev server --shutdown, browser context closed) after this long without a tool call (a number is milliseconds); 0 never",
		millis(func(c *Config) *time.Duration { return &c.IdleTimeout })},
	{"client-idle-timeout", "E2E_MCP_CLIENT_IDLE_TIMEOUT", "24h", "over HTTP, end a client's MCP session after this long without a request or an open stream (its browser sessions end sooner, by --idle-timeout), or after 10m (or this, when shorter) for one that made no request after its initialize; 0 never",
		duration(func(c *Config) *time.Duration { return &c.ClientIdleTimeout })},
	{"start-timeout", "E2E_MCP_START_TIMEOUT", "30s", "how long the dev-server command may take to answer --start",
		duration(func(c *Config) *time.Duration { return &c.StartTimeout })},
	{"restart-timeout", "E2E_MCP_RESTART_TIMEOUT", "40s", "how long it may take to answer --restart",
		duration(func(c *Config) *time.Duration { return &c.RestartTimeout })},
	{"status-timeout", "E2E_MCP_STATUS_TIMEOUT", "5s", "how long it may take to answer --status",
		duration(func(c *Config) *time.Duration { return &c.StatusTimeout })},
	{"shutdown-timeout", "E2E_MCP_SHUTDOWN_TIMEOUT", "15s", "how long it may take to answer --shutdown",
		duration(func(c *Config) *time.Duration { return &c.ShutdownTimeout })},
	{"state-dir", "E2E_MCP_STATE_DIR", "", "where managed dev servers (session_start run=...) keep logs and state (default: a per-user state directory)",
		str(func(c *Config) *string { return &c.StateDir })},
	{"snapshot-budget", "E2E_MCP_SNAPSHOT_BUDGET", "10240", "bytes of snapshot an answer shows before long runs and less important parts are folded into lines that say how to open them (0: never fold)",
		integer(func(c *Config) *int { return &c.SnapshotBudget })},
	{"max-snapshot-bytes", "E2E_MCP_MAX_SNAPSHOT_BYTES", "262144", "cap on the snapshot text of one response, with a notice saying how to get the rest (0: no cap)",
		integer(func(c *Config) *int { return &c.MaxSnapshotBytes })},
	{"error-log-lines", "E2E_MCP_ERROR_LOG_LINES", "100", "dev-server stderr lines a failed step's response carries (1-2000)",
		integer(func(c *Config) *int { return &c.ErrorLogLines })},
	{"test-id-attribute", "E2E_MCP_TEST_ID_ATTRIBUTE", "data-testid", "attribute that testid= selectors match",
		str(func(c *Config) *string { return &c.TestIDAttribute })},
	{"file-roots", "E2E_MCP_FILE_ROOTS", "", "directories browser_file_upload may read from and, over stdio, tools may write to, comma or colon separated; wins over the client's roots (default: the client's roots, else the working directory, or e2e-mcp's files directory when that is / or home; over HTTP none: uploads need this flag)",
		str(func(c *Config) *string { return &c.FileRoots })},
	{"allowed-origins", "E2E_MCP_ALLOWED_ORIGINS", "", "only these origins may be requested by pages (every request, not only navigations), comma or semicolon separated: [scheme://]host[:port], host may be *.example.com or *; the session's dev server is always allowed",
		str(func(c *Config) *string { return &c.AllowedOrigins })},
	{"blocked-origins", "E2E_MCP_BLOCKED_ORIGINS", "", "origins pages may never request, comma or semicolon separated, same patterns as --allowed-origins; wins over every allowance. Over HTTP, private addresses (RFC 1918, link-local and metadata, fc00::/7, 100.64/10) are blocked too unless listed in --allowed-origins (loopback and the session's dev server stay allowed)",
		str(func(c *Config) *string { return &c.BlockedOrigins })},
	{"allow-file-urls", "E2E_MCP_ALLOW_FILE_URLS", "false", "let browser_navigate and pages open file:// URLs (blocked by default)",
		boolean(func(c *Config) *bool { return &c.AllowFileURLs })},
	{"http", "E2E_MCP_HTTP", "", "serve Streamable HTTP on this address (:8931 is loopback; 0.0.0.0:8931 every interface; unix:PATH a Unix socket) at /mcp, / and /message, the legacy SSE transport at /sse, with /health and /metrics, instead of stdio",
		str(func(c *Config) *string { return &c.HTTP })},
	{"max-sessions", "E2E_MCP_MAX_SESSIONS", "50", "most sessions open at once: a new one ends the least recently used idle one, or gets capacity_exceeded",
		integer(func(c *Config) *int { return &c.MaxSessions })},
	{"max-clients", "E2E_MCP_MAX_CLIENTS", "1000", "over HTTP, most MCP sessions (clients) live at once: an initialize beyond it ends the one with no open stream and no request in flight that made no request since its initialize, else the least recently active such (its next request gets 404 saying why), or is refused with 503 and Retry-After when every one has a stream or a call",
		integer(func(c *Config) *int { return &c.MaxClients })},
	{"shared-sessions", "E2E_MCP_SHARED_SESSIONS", "false", "over HTTP, let every client use the sessions any client names with sessionId (by default each principal - OAuth subject, else MCP session - sees and uses only its own)",
		boolean(func(c *Config) *bool { return &c.SharedSessions })},
	{"busy-timeout", "E2E_MCP_BUSY_TIMEOUT", "15s", "how long a call waits for its session while another call runs on it before it answers busy",
		duration(func(c *Config) *time.Duration { return &c.BusyTimeout })},
	{"output-dir", "E2E_MCP_OUTPUT_DIR", "", "over HTTP, the only directory tools write files to, each client in a directory of its own, new files only (default: output/ under the per-user state directory); over stdio, where the files a call does not name go (default: the temp directory). When given, a screenshot taken without filename is also saved there (page-TIME.png), a trace stopped without path goes to its traces/, and each page's console is written there as it comes (console-TIME.log, a file a document), the lines new since the last call linked from the answer, as Playwright MCP's",
		str(func(c *Config) *string { return &c.OutputDir })},
	{"output-max-size", "E2E_MCP_OUTPUT_MAX_SIZE", "0", "bytes the files tools name themselves (a call that gives no file name, console logs) may take in the output directory (over HTTP, in each client's): the oldest are removed past it (0: none is)",
		int64Flag(func(c *Config) *int64 { return &c.OutputMaxSize })},
	{"http-max-body", "E2E_MCP_HTTP_MAX_BODY", "8388608", "the largest HTTP request body accepted, in bytes (8 MiB: a string argument has at most 1 MiB); larger ones get 413",
		int64Flag(func(c *Config) *int64 { return &c.HTTPMaxBody })},
	{"max-download-size", "E2E_MCP_MAX_DOWNLOAD_SIZE", "1073741824", "the largest file a page may download, in bytes (1 GiB): a larger download is cancelled as it passes the limit and reported as refused",
		int64Flag(func(c *Config) *int64 { return &c.MaxDownloadSize })},
	{"drain-timeout", "E2E_MCP_DRAIN_TIMEOUT", "10s", "on SIGTERM over HTTP: how long in-flight calls may finish before sessions end",
		duration(func(c *Config) *time.Duration { return &c.DrainTimeout })},
	{"replica-id", "E2E_MCP_REPLICA_ID", "", "over HTTP, this replica's name in the MCP session ids it makes (mcp-session-NAME.UUID), for load balancers that route by it: letters, digits, - and _",
		str(func(c *Config) *string { return &c.ReplicaID })},
	{"cdp-endpoint", "E2E_MCP_CDP_ENDPOINT", "", "use browsers elsewhere instead of launching one: ws://host:9222/devtools/browser/ID or http://host:9222; sessions are spread across them, the first on each in its open tab (its default context) unless --isolated",
		urls(func(c *Config) *string { return &c.CDPEndpoints })},
	{"cdp-header", "E2E_MCP_CDP_HEADERS", "", "header for the --cdp-endpoint handshakes, \"Name: value\" (the variable separates several with ;)",
		joined(func(c *Config) *string { return &c.CDPHeaders }, ";")},
	{"webdriver-url", "E2E_MCP_WEBDRIVER_URLS", "", "take each session's browser from a WebDriver grid (Selenium Grid 4, chromedriver, a cloud grid): http://host:4444; user:key@ in the URL is sent as Basic auth",
		urls(func(c *Config) *string { return &c.WebDriverURLs })},
	{"webdriver-header", "E2E_MCP_WEBDRIVER_HEADERS", "", "header for every --webdriver-url request, \"Name: value\" (the variable separates several with ;)",
		joined(func(c *Config) *string { return &c.WebDriverHeaders }, ";")},
	{"auth-token", "E2E_MCP_AUTH_TOKEN", "", "bearer token HTTP clients must send (set it in the environment: flags show in ps)",
		str(func(c *Config) *string { return &c.AuthToken })},
	{"http-allowed-hosts", "E2E_MCP_HTTP_ALLOWED_HOSTS", "", "Host header values accepted beside the listen address and localhost, comma separated (behind a proxy)",
		str(func(c *Config) *string { return &c.HTTPAllowedHosts })},
	{"allowed-hosts", "E2E_MCP_ALLOWED_HOSTS", "", "the only Host header values the HTTP server accepts, comma separated (Playwright MCP's): the listen address and localhost are no longer accepted unless listed; * accepts any",
		str(func(c *Config) *string { return &c.AllowedHosts })},
	{"http-allowed-origins", "E2E_MCP_HTTP_ALLOWED_ORIGINS", "", "browser origins whose requests to the HTTP server are accepted, comma separated (others get 403)",
		str(func(c *Config) *string { return &c.HTTPAllowedOrigins })},
	{"oauth-issuer", "E2E_MCP_OAUTH_ISSUER", "", "OAuth 2.1: the issuer whose JWT access tokens are accepted (with --oauth-jwks-url and --oauth-resource)",
		str(func(c *Config) *string { return &c.OAuthIssuer })},
	{"oauth-jwks-url", "E2E_MCP_OAUTH_JWKS_URL", "", "OAuth 2.1: the issuer's JWKS URL",
		str(func(c *Config) *string { return &c.OAuthJWKSURL })},
	{"oauth-resource", "E2E_MCP_OAUTH_RESOURCE", "", "OAuth 2.1: this server's public URL, e.g. https://mcp.example.com/mcp (the tokens' audience)",
		str(func(c *Config) *string { return &c.OAuthResource })},
	{"oauth-scopes", "E2E_MCP_OAUTH_SCOPES", "", "OAuth 2.1: scopes a token must carry, comma separated",
		str(func(c *Config) *string { return &c.OAuthScopes })},
	{"rate-sessions", "E2E_MCP_RATE_SESSIONS", "0", "sessions a client may create a minute (0: no limit; shared servers: 10)",
		integer(func(c *Config) *int { return &c.RateSessions })},
	{"rate-calls", "E2E_MCP_RATE_CALLS", "0", "tool calls a client may make a minute (0: no limit; shared servers: 100)",
		integer(func(c *Config) *int { return &c.RateCalls })},
	{"rate-clients", "E2E_MCP_RATE_CLIENTS", "60", "over TCP, MCP sessions a client (its OAuth subject, else its address) may start a minute with initialize; more get 429 with Retry-After (0: no limit)",
		integer(func(c *Config) *int { return &c.RateClients })},
	{"storage-state", "E2E_MCP_STORAGE_STATE", "", "a storage state file (browser_storage_state, or Playwright's) every session starts in: signed in",
		str(func(c *Config) *string { return &c.StorageState })},
	{"init-script", "E2E_MCP_INIT_SCRIPT", "", "JavaScript files run in every page of every session before the page's own scripts, comma separated",
		joined(func(c *Config) *string { return &c.InitScripts }, ",")},
	{"save-trace", "E2E_MCP_SAVE_TRACE", "false", "every session records a trace from its first call, saved when the session ends to e2e-mcp-traces/ of the first file root (over HTTP: traces/ of the client's directory): a zip that Playwright's Trace Viewer opens",
		boolean(func(c *Config) *bool { return &c.SaveTrace })},
	{"caps", "E2E_MCP_CAPS", "", "capability groups whose tools are offered besides the core ones, comma separated, or all: " + strings.Join(mcptools.CapGroups, ", ") + " (Playwright MCP's core groups are always offered, as is input, now core; tracing is devtools)",
		str(func(c *Config) *string { return &c.Caps })},
	{"save-video", "E2E_MCP_SAVE_VIDEO", "", "record a video of every session (an animated PNG) into e2e-mcp-videos/ of the first file root (over HTTP: of the client's own directory) or --save-video-dir, written when the session ends; =WxH sets its size (default the viewport's, fit in 800x800)",
		optionalValue(func(c *Config) *string { return &c.SaveVideo })},
	{"save-video-dir", "E2E_MCP_SAVE_VIDEO_DIR", "", "the directory --save-video writes every session's video to instead, made if missing, for every client (the config's browser.contextOptions.recordVideo.dir)",
		str(func(c *Config) *string { return &c.SaveVideoDir })},
	{"max-video-size", "E2E_MCP_MAX_VIDEO_SIZE", "1920x1080", "the largest frame a session's video may have, WIDTHxHEIGHT either way round (a recording holds about 24 bytes a pixel in memory: 50 MB at 1920x1080): a larger size asked for is refused, the default size is fit in it",
		str(func(c *Config) *string { return &c.MaxVideoSize })},
	{"max-video-bytes", "E2E_MCP_MAX_VIDEO_BYTES", "268435456", "the largest file a session's video may write, in bytes (256 MiB): past it no frame is added, and the video's answer says when it stopped",
		int64Flag(func(c *Config) *int64 { return &c.MaxVideoBytes })},
	{"config", "E2E_MCP_CONFIG", "", "a Playwright MCP config file, JSON or INI: its keys set what no flag and no environment variable sets (an unknown key is refused, named)",
		str(func(c *Config) *string { return &c.ConfigFile })},
	{"browser", "E2E_MCP_BROWSER", "", "which Chromium to look for when --browser-path is not given: chrome, chromium or msedge, or a -beta, -dev or -canary channel of chrome or msedge (any Chromium found stands in for a channel not installed; firefox and webkit are refused: this server drives Chromium over CDP)",
		str(func(c *Config) *string { return &c.Channel })},
	{"user-data-dir", "E2E_MCP_USER_DATA_DIR", "", "a persistent profile: each session's browser starts with the cookies and storage (local storage, per origin) that the last one to close left in this directory, in this run or an earlier one, and leaves its own when it closes (browser_close, the session's end); held while a browser runs on it, as Chrome's profile is: meanwhile another server's browser calls are refused, told why. Default: every session starts fresh",
		str(func(c *Config) *string { return &c.UserDataDir })},
	{"isolated", "E2E_MCP_ISOLATED", "false", "every session starts with a fresh profile kept in memory, as it does by default here (a remote browser's first session uses its open tab without it); refused with --user-data-dir",
		boolean(func(c *Config) *bool { return &c.Isolated })},
	{"device", "E2E_MCP_DEVICE", "", "emulate this device in every session (screen, pixel ratio, touch, user agent): " + strings.Join(devices.DeviceNames(), ", "),
		str(func(c *Config) *string { return &c.Device })},
	{"mobile", "E2E_MCP_MOBILE", "false", "emulate a generic phone in every session (" + mobileDevice + "), as --device does; not with --device",
		boolean(func(c *Config) *bool { return &c.Mobile })},
	{"device-scale-factor", "E2E_MCP_DEVICE_SCALE_FACTOR", "0", "the pixel ratio of every session's pages, up to 10 (over --device's; 0: the device's, else 1): a screenshot with scale device has that many pixels a CSS pixel",
		float(func(c *Config) *float64 { return &c.DeviceScaleFactor })},
	{"user-agent", "E2E_MCP_USER_AGENT", "", "the user agent every session's pages are told (over --device's)",
		str(func(c *Config) *string { return &c.UserAgent })},
	{"locale", "E2E_MCP_LOCALE", "", "the locale every session starts with, a BCP 47 tag such as fr-FR: navigator.language, Intl and the Accept-Language header, as browser_emulate sets it (which changes it per session; the config's browser.contextOptions.locale)",
		str(func(c *Config) *string { return &c.Locale })},
	{"timezone", "E2E_MCP_TIMEZONE", "", "the time zone every session starts with, an IANA name such as Europe/Paris: Date and Intl, as browser_emulate sets it (which changes it per session; the config's browser.contextOptions.timezoneId)",
		str(func(c *Config) *string { return &c.Timezone })},
	{"grant-permissions", "E2E_MCP_GRANT_PERMISSIONS", "", "permissions granted to every origin in every session, comma separated: geolocation, notifications, camera, microphone, clipboard-read, clipboard-write...",
		str(func(c *Config) *string { return &c.GrantPermissions })},
	{"ignore-https-errors", "E2E_MCP_IGNORE_HTTPS_ERRORS", "false", "let pages load over HTTPS whatever their certificate says (self-signed, expired, another host's)",
		boolean(func(c *Config) *bool { return &c.IgnoreHTTPSErrors })},
	{"block-service-workers", "E2E_MCP_BLOCK_SERVICE_WORKERS", "false", "pages cannot register service workers (navigator.serviceWorker.register rejects)",
		boolean(func(c *Config) *bool { return &c.BlockServiceWorkers })},
	{"bypass-csp", "E2E_MCP_BYPASS_CSP", "false", "pages' Content-Security-Policy is not enforced in any session: their inline scripts, eval and other sources run and load whatever it says (Playwright's bypassCSP)",
		boolean(func(c *Config) *bool { return &c.BypassCSP })},
	{"no-javascript", "E2E_MCP_NO_JAVASCRIPT", "false", "pages' own scripts do not run in any session (Playwright's javaScriptEnabled: false); the tools still read and act on the page, and browser_evaluate still runs",
		boolean(func(c *Config) *bool { return &c.NoJavaScript })},
	{"proxy-server", "E2E_MCP_PROXY_SERVER", "", "send the browser's connections through this proxy: http://host:port (user:password@ is sent to it), or socks5://host:port when no request policy applies (no origin rules, stdio); the request policy's checks still apply first",
		str(func(c *Config) *string { return &c.ProxyServer })},
	{"proxy-bypass", "E2E_MCP_PROXY_BYPASS", "", "hosts connected to directly, not through --proxy-server, comma separated: .example.com (and its subdomains), localhost, 10.0.0.0/8",
		str(func(c *Config) *string { return &c.ProxyBypass })},
	{"secrets", "E2E_MCP_SECRETS", "", "a dotenv file of NAME=value secrets: ${NAME} in a tool call's arguments (or NAME alone as browser_type's text or a browser_fill_form value) is the value, which every answer, log and file masks and a flow records as ${NAME}",
		str(func(c *Config) *string { return &c.SecretsFile })},
	{"codegen", "E2E_MCP_CODEGEN", "none", "typescript: each action's answer ends with the Playwright Test code that does what it did (### Ran Playwright code); none: not, for smaller answers",
		str(func(c *Config) *string { return &c.Codegen })},
	{"console-level", "E2E_MCP_CONSOLE_LEVEL", "info", "the least severe console messages browser_console_messages lists when a call names no level: error, warning, info or debug",
		str(func(c *Config) *string { return &c.ConsoleLevel })},
	{"image-responses", "E2E_MCP_IMAGE_RESPONSES", "allow", "images in answers: allow; omit (none: a screenshot's answer says so, and filename saves it); only (an answer that has an image is its images alone)",
		str(func(c *Config) *string { return &c.ImageResponses })},
	{"snapshot-mode", "E2E_MCP_SNAPSHOT_MODE", "full", "full: an action's answer shows the page (what changed, folded to --snapshot-budget); none: it shows no snapshot, and browser_snapshot reads the page",
		str(func(c *Config) *string { return &c.SnapshotMode })},
	{"snapshot-boxes", "E2E_MCP_SNAPSHOT_BOXES", "false", "each element's line of a snapshot says where it is, [box=x,y,width,height] in CSS pixels of its frame's viewport (read as the line is written)",
		boolean(func(c *Config) *bool { return &c.SnapshotBoxes })},
	{"timeout-settle", "E2E_MCP_TIMEOUT_SETTLE", "500ms", "how long an action waits for the requests it started before it answers (a number is milliseconds)",
		millis(func(c *Config) *time.Duration { return &c.SettleTimeout })},
	{"cdp-timeout", "E2E_MCP_CDP_TIMEOUT", "30s", "how long connecting to a --cdp-endpoint browser may take (a number is milliseconds)",
		millis(func(c *Config) *time.Duration { return &c.CDPTimeout })},
	{"port", "E2E_MCP_PORT", "", "serve Streamable HTTP on this port of --host, as --http HOST:PORT does (0: a free one, which the Listening on line names)",
		integer(func(c *Config) *int { return &c.Port })},
	{"host", "E2E_MCP_HOST", "", "the address --port listens on (default localhost; 0.0.0.0 every interface); without --port MCP is served over stdio and a warning says the host is not used",
		str(func(c *Config) *string { return &c.Host })},
	{"file-paths", "E2E_MCP_FILE_PATHS", "absolute", "how answers name files: absolute, the only way here (relative is refused)",
		str(func(c *Config) *string { return &c.FilePaths })},
	{"shared-browser-context", "E2E_MCP_SHARED_BROWSER_CONTEXT", "false", "every client that names no sessionId uses one browser session (cookies, tabs), which outlives the clients",
		boolean(func(c *Config) *bool { return &c.SharedBrowserContext })},
	{"log-level", "E2E_MCP_LOG_LEVEL", "info", "log level: debug, info, warn or error (logs go to stderr; e2e-mcp run logs at warn unless this is set)",
		str(func(c *Config) *string { return &c.LogLevel })},
	{"log-format", "E2E_MCP_LOG_FORMAT", "json", "log format: json or console",
		str(func(c *Config) *string { return &c.LogFormat })},
}

// Parse reads args (without the program and subcommand names) and the
// environment into a validated Config. A mistake in the flags themselves is
// a *FlagError; -h and --help are flag.ErrHelp (Help says the rest).
func Parse(cmd string, args []string, getenv func(string) string) (*Config, error) {
	var c Config
	if err := pwRefusal(args); err != nil {
		return nil, err
	}
	fs := configFlags(cmd, &c)
	// given are the settings the command line set, theirs included.
	given := map[string]bool{}
	addPWFlags(fs, given)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &FlagError{FlagMistake(err)}
	}
	if fs.NArg() > 0 {
		return nil, &FlagError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	// --vision before --caps: --caps set the groups over it.
	if given["vision"] && !slices.Contains(strings.Split(c.Caps, ","), "vision") {
		c.Caps = strings.TrimPrefix(c.Caps+",vision", ",")
	}
	for _, s := range settings {
		if given[s.flag] {
			continue
		}
		if v := getenv(s.env); v != "" {
			if err := fs.Set(s.flag, v); err != nil {
				return nil, fmt.Errorf("$%s=%q: %v", s.env, redact.CommandLine(v), err)
			}
			given[s.flag] = true
		}
	}
	// Seed 002's switch: HEADLESS=false shows the browser.
	if !given["headed"] {
		if v := getenv("HEADLESS"); v != "" {
			h, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("$HEADLESS=%q: want true or false", v)
			}
			c.Headed = !h
			given["headed"] = true
		}
	}
	if err := pwEnv(fs, getenv, given); err != nil {
		return nil, err
	}
	if c.ConfigFile != "" {
		pc, err := readPWConfig(c.ConfigFile)
		if err != nil {
			return nil, err
		}
		for _, kv := range pc.sets {
			if given[kv[0]] {
				continue
			}
			if err := fs.Set(kv[0], kv[1]); err != nil {
				return nil, fmt.Errorf("--config %s: --%s: %v", c.ConfigFile, kv[0], err)
			}
			given[kv[0]] = true
		}
		c.secrets = pc.secrets
	}
	if err := c.pwNormalize(given["port"]); err != nil {
		return nil, err
	}
	if err := c.readSecrets(); err != nil {
		return nil, err
	}
	return &c, c.Validate()
}

// FlagError is a mistake in a command line's flags (not in their values).
type FlagError struct{ msg string }

func (e *FlagError) Error() string { return e.msg }

// configFlags is the flag set of the settings, bound to c.
func configFlags(cmd string, c *Config) *flag.FlagSet {
	fs := NewFlagSet(cmd)
	for _, s := range settings {
		s.bind(fs, c, s.flag, s.def, s.help+" [$"+s.env+"]")
	}
	return fs
}

// Help is the help of serve (every setting) and of doctor (what it
// does; it reads the same settings).
func Help(cmd string, w io.Writer) {
	if cmd == "doctor" {
		fmt.Fprint(w, doctorUsage)
		return
	}
	fmt.Fprintf(w, "Usage: e2e-mcp %s [flags]\n\nFlags (each also read from its environment variable; a flag wins):\n", cmd)
	PrintFlags(w, configFlags(cmd, &Config{}))
	var theirs []string
	for _, f := range pwFlags {
		if f.ours != "" && f.ours != f.name {
			theirs = append(theirs, "--"+f.name)
		}
	}
	fmt.Fprintf(w, "\nPlaywright MCP's command line is taken too: its other names of these settings (%s),\n"+
		"its PLAYWRIGHT_MCP_* variables (below E2E_MCP_* ones) and its --config file; a flag of\n"+
		"its with no meaning here is refused with what to use instead (docs/playwright-mcp.md).\n",
		strings.Join(theirs, ", "))
}

const doctorUsage = `Usage: e2e-mcp doctor [--browser-path PATH] [--headed] [--no-sandbox] [--cdp-endpoint URL | --webdriver-url URL]

Finds the browser serve would use, starts it once and prints its version; or
says what is wrong (none found, it does not start, no display for --headed)
and what to do. It reads the settings serve reads, as flags or E2E_MCP_*
variables ('e2e-mcp serve --help' lists them).

Exit status: 0 the browser starts, 1 it does not, 2 a bad command line.
`

// Validate checks the values that flag parsing cannot.
func (c *Config) Validate() error {
	var errs []error
	if c.ActionTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--action-timeout must be positive, got %s", c.ActionTimeout))
	}
	if _, err := devices.ParseSize(c.ViewportSize); err != nil {
		errs = append(errs, fmt.Errorf("--viewport-size %v", err))
	}
	if c.NavigationTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--navigation-timeout must be positive, got %s", c.NavigationTimeout))
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("--log-level %q: want debug, info, warn or error", c.LogLevel))
	}
	ok := false
	for _, f := range logs.Formats {
		ok = ok || strings.EqualFold(c.LogFormat, f)
	}
	if !ok {
		errs = append(errs, fmt.Errorf("--log-format %q: want json or console", c.LogFormat))
	}
	if c.IdleTimeout < 0 {
		errs = append(errs, fmt.Errorf("--idle-timeout must be 0 (never) or positive, got %s", c.IdleTimeout))
	}
	if c.ClientIdleTimeout < 0 {
		errs = append(errs, fmt.Errorf("--client-idle-timeout must be 0 (never) or positive, got %s", c.ClientIdleTimeout))
	}
	for name, d := range map[string]time.Duration{"start": c.StartTimeout, "restart": c.RestartTimeout, "status": c.StatusTimeout, "shutdown": c.ShutdownTimeout} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("--%s-timeout must be positive, got %s", name, d))
		}
	}
	if _, err := c.Endpoints(); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.Grids(); err != nil {
		errs = append(errs, err)
	}
	if c.StorageState != "" {
		if _, err := mcptools.ReadStorageState(c.StorageState); err != nil {
			errs = append(errs, fmt.Errorf("--storage-state: %v", err))
		}
	}
	if _, err := c.ReadInitScripts(); err != nil {
		errs = append(errs, fmt.Errorf("--init-script: %v", err))
	}
	if _, err := c.VideoLimits(); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.VideoDefaults(); err != nil {
		errs = append(errs, err)
	}
	if _, err := mcptools.ParseCaps(c.Caps); err != nil {
		errs = append(errs, fmt.Errorf("--caps: %v", err))
	}
	if c.RateSessions < 0 || c.RateCalls < 0 || c.RateClients < 0 {
		errs = append(errs, fmt.Errorf("--rate-sessions, --rate-calls and --rate-clients must be 0 (no limit) or more"))
	}
	if oauth := []string{c.OAuthIssuer, c.OAuthJWKSURL, c.OAuthResource}; (oauth[0] != "" || oauth[1] != "" || oauth[2] != "") &&
		(oauth[0] == "" || oauth[1] == "" || oauth[2] == "") {
		errs = append(errs, fmt.Errorf("OAuth needs all of --oauth-issuer, --oauth-jwks-url and --oauth-resource"))
	}
	if c.ReplicaID != "" && !transport.ValidReplicaID(c.ReplicaID) {
		errs = append(errs, fmt.Errorf("--replica-id must be 1 to 32 letters, digits, - or _, got %q", c.ReplicaID))
	}
	if c.HTTPMaxBody < 1024 {
		errs = append(errs, fmt.Errorf("--http-max-body must be at least 1024 bytes, got %d", c.HTTPMaxBody))
	}
	if c.MaxDownloadSize < 1 {
		errs = append(errs, fmt.Errorf("--max-download-size must be at least 1 byte, got %d", c.MaxDownloadSize))
	}
	if c.BusyTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--busy-timeout must be positive, got %s", c.BusyTimeout))
	}
	if c.MaxSessions < 1 {
		errs = append(errs, fmt.Errorf("--max-sessions must be 1 or more, got %d", c.MaxSessions))
	}
	if c.MaxClients < 1 {
		errs = append(errs, fmt.Errorf("--max-clients must be 1 or more, got %d", c.MaxClients))
	}
	if c.RemoteHTTP() {
		if _, _, err := net.SplitHostPort(c.HTTP); err != nil {
			errs = append(errs, fmt.Errorf("--http %q: want host:port, e.g. 127.0.0.1:8931 (%v)", c.HTTP, err))
		}
	}
	if c.ErrorLogLines < 1 || c.ErrorLogLines > 2000 {
		errs = append(errs, fmt.Errorf("--error-log-lines must be 1 to 2000, got %d", c.ErrorLogLines))
	}
	if c.SnapshotBudget != 0 && c.SnapshotBudget < 1024 {
		errs = append(errs, fmt.Errorf("--snapshot-budget must be 0 (never fold) or at least 1024 bytes, got %d", c.SnapshotBudget))
	}
	if c.MaxSnapshotBytes < 0 {
		errs = append(errs, fmt.Errorf("--max-snapshot-bytes must be 0 (no cap) or more, got %d", c.MaxSnapshotBytes))
	}
	if !attrNameRE.MatchString(c.TestIDAttribute) {
		errs = append(errs, fmt.Errorf("--test-id-attribute %q: want an attribute name such as data-testid", c.TestIDAttribute))
	}
	for _, r := range c.FileRootDirs() {
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			errs = append(errs, fmt.Errorf("--file-roots: %q is not a directory", r))
		}
	}
	if _, err := c.Policy(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, c.validatePW()...)
	// A --browser-path that names no browser is not checked here: the
	// server starts anyway (a client that cannot initialize sees only a
	// closed connection), and its first browser call says
	// browser_not_found, as doctor does.
	return errors.Join(errs...)
}

// FileRootDirs splits FileRoots into absolute, clean directory paths.
func (c *Config) FileRootDirs() []string {
	var roots []string
	for _, r := range strings.FieldsFunc(c.FileRoots, func(r rune) bool { return r == ',' || r == filepath.ListSeparator }) {
		if r = strings.TrimSpace(r); r == "" {
			continue
		}
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		roots = append(roots, filepath.Clean(r))
	}
	return roots
}

// headers parses "Name: value" pairs separated by ';' (the flag names the
// setting in errors). A bare name is a header with an empty value, as
// Playwright MCP takes one. An entry that is neither is refused without
// being quoted: "Bearer KEY" with its name forgotten is a credential.
func headers(flagName, list string) (http.Header, error) {
	h := http.Header{}
	for i, kv := range strings.Split(list, ";") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, value, ok := strings.Cut(kv, ":")
		if !ok && headerName(kv) {
			name, ok = kv, true
		}
		if !ok || !headerName(strings.TrimSpace(name)) {
			return nil, fmt.Errorf("--%s: entry %d is not \"Name: value\" (not shown: it may hold a credential)", flagName, i+1)
		}
		h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	return h, nil
}

// headerName says whether s is a header's name: a token of RFC 9110.
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !letter && !strings.ContainsRune("!#$%&'*+-.^_`|~", r) {
			return false
		}
	}
	return true
}

// Grids are the --webdriver-url grids with the --webdriver-header headers.
func (c *Config) Grids() ([]*webdriver.Grid, error) {
	h, err := headers("webdriver-header", c.WebDriverHeaders)
	if err != nil {
		return nil, err
	}
	var out []*webdriver.Grid
	for _, u := range splitURLs(c.WebDriverURLs) {
		g, err := webdriver.New(u, h)
		if err != nil {
			return nil, fmt.Errorf("--webdriver-url: %v", err)
		}
		out = append(out, g)
	}
	if len(out) > 0 && c.CDPEndpoints != "" {
		return nil, fmt.Errorf("--webdriver-url and --cdp-endpoint: give one or the other")
	}
	return out, nil
}

// Endpoints are the --cdp-endpoint browsers with the --cdp-header headers.
func (c *Config) Endpoints() ([]launcher.Endpoint, error) {
	h, err := headers("cdp-header", c.CDPHeaders)
	if err != nil {
		return nil, err
	}
	var out []launcher.Endpoint
	for _, u := range splitURLs(c.CDPEndpoints) {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "ws" && pu.Scheme != "wss" && pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return nil, fmt.Errorf("--cdp-endpoint %q: want ws://host:port/devtools/browser/ID or http://host:port", redact.URL(u))
		}
		out = append(out, launcher.Endpoint{RawURL: u, Header: h})
	}
	return out, nil
}

// Policy builds the request policy. Serving over HTTP also blocks private
// networks: a remote client must not reach the server's own network.
func (c *Config) Policy() (*netpolicy.Policy, error) {
	up, err := c.proxy()
	if err != nil {
		return nil, err
	}
	return netpolicy.New(netpolicy.Config{
		Upstream:             up,
		AllowedOrigins:       netpolicy.SplitOrigins(c.AllowedOrigins),
		BlockedOrigins:       netpolicy.SplitOrigins(c.BlockedOrigins),
		AllowFileURLs:        c.AllowFileURLs,
		BlockPrivateNetworks: c.RemoteHTTP(),
	})
}

// MakeOutputDir is the directory tools write to for remote clients, made if
// needed (0700: what agents save is theirs and the operator's).
func (c *Config) MakeOutputDir() (string, error) {
	dir := c.OutputDir
	if dir == "" {
		base := c.StateDir
		if base == "" {
			var err error
			if base, err = devserver.StateBase(); err != nil {
				return "", fmt.Errorf("--output-dir: %w", err)
			}
		}
		dir = filepath.Join(base, "output")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("--output-dir %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil { //nolint:gosec // the operator names the output directory
		return "", fmt.Errorf("--output-dir: %w", err)
	}
	if wd, err := os.Getwd(); err == nil && sameDir(wd, abs) && c.RemoteHTTP() {
		return "", fmt.Errorf("--output-dir %q is the working directory: over HTTP, files agents write must not land among the project's files", dir)
	}
	return abs, nil
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// UnixSocket is the socket path of --http unix:PATH, or "".
func (c *Config) UnixSocket() string {
	if p, ok := strings.CutPrefix(c.HTTP, "unix:"); ok {
		return p
	}
	return ""
}

// RemoteHTTP reports whether clients reach the server over TCP: then they
// may be anyone the network lets through, and the server is strict (dev
// commands, private networks). A Unix socket is the local user's.
func (c *Config) RemoteHTTP() bool { return c.HTTP != "" && c.UnixSocket() == "" }

// ReadInitScripts reads the --init-script files.
func (c *Config) ReadInitScripts() ([]string, error) {
	var out []string
	for _, p := range strings.Split(c.InitScripts, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		src, err := mcptools.ReadInitScript(p)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}
