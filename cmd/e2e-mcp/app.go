package main

import (
	"flag"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"go.uber.org/zap"
)

// app is the server's parts, assembled in one place for serve and run: the
// browser manager, the session registry, and what the tools depend on.
// Each command then sets what is its own (limits, the transport's options).
type app struct {
	bm   *browser.Manager
	reg  *mcptools.Registry
	deps *mcptools.Deps
}

func newApp(cfg *Config, log *zap.Logger) *app {
	bm := browser.NewManager(browserOptions(cfg, log))
	reg := mcptools.NewRegistry(bm, log)
	caps, _ := mcptools.ParseCaps(cfg.Caps) // Validate refused a bad one
	reg.InitScripts, _ = cfg.initScripts()  // Validate read them once
	reg.Vitals = slices.Contains(caps, mcptools.CapAudit)
	reg.Secrets = redact.NewSet(nil)
	reg.Secrets.Add(cfg.operatorSecrets()...)
	if cfg.StorageState != "" {
		reg.StartState, _ = mcptools.ReadStorageState(cfg.StorageState) // Validate read it once
	}
	report := slices.Contains(caps, mcptools.CapReport)
	videos, _ := cfg.videoDefaults()    // Validate refused a bad one
	videoLimits, _ := cfg.videoLimits() // and a bad limit
	a := &app{bm: bm, reg: reg, deps: &mcptools.Deps{
		Videos: videos, VideoLimits: videoLimits,
		Caps: caps, Reports: report, ReportShots: report, TraceSessions: cfg.SaveTrace, SaveTraces: cfg.SaveTrace,
		Browser: bm, Sessions: reg, Logger: log, Config: pwConfigView(cfg.effective()),
		MaxSnapshotBytes: cfg.MaxSnapshotBytes, ErrorLogLines: cfg.ErrorLogLines,
		ServerCommand: strings.Fields(cfg.ServerCommand), StateDir: cfg.StateDir, FileRoots: cfg.fileRoots(),
		DevTimeouts: devserver.Timeouts{Start: cfg.StartTimeout, Restart: cfg.RestartTimeout, Status: cfg.StatusTimeout,
			Shutdown: cfg.ShutdownTimeout},
	}}
	cfg.pwApply(a)
	return a
}

// effective is every setting by its flag's name, as given or by default:
// what browser_get_config shows (pwConfigView; it masks the credentials).
func (c *Config) effective() map[string]string {
	var bound Config
	fs := configFlags("serve", &bound)
	// The flags point into bound: give it c's values, then read them.
	bound = *c
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f.Value.String() })
	return out
}

// close ends every session (their dev servers get --shutdown first, in
// parallel, and their artifacts are written by the end's deadline), then
// the browser, which the artifacts read: clients give a server only
// seconds to exit (mcptools.EndBudget).
func (a *app) close() {
	a.reg.CloseAll()
	_ = a.bm.Close()
}

// userinfoRE finds the password of a URL's userinfo in a setting, whatever
// separates the URLs (a password may hold a comma).
var userinfoRE = regexp.MustCompile(`://[^/@:\s]*:([^@\s]+)@`)

// operatorSecrets are the credentials in the server's own settings: the
// HTTP token, the headers sent to remote browsers and grids, the passwords
// in their URLs and the values of their secret-named query parameters
// (?token=, ?apiKey=). No answer or log shows them: where the server shows
// those URLs it masks them by position too (redact.URL); this also masks
// them wherever a library quotes them.
func (c *Config) operatorSecrets() []string {
	out := []string{c.AuthToken}
	for _, h := range strings.FieldsFunc(c.CDPHeaders+";"+c.WebDriverHeaders, func(r rune) bool { return r == ';' || r == '\n' }) {
		if _, v, ok := strings.Cut(h, ":"); ok {
			out = append(out, redact.CredentialParts(strings.TrimSpace(v))...)
		}
	}
	urls := c.WebDriverURLs + " " + c.CDPEndpoints + " " + c.ProxyServer
	for _, m := range userinfoRE.FindAllStringSubmatch(urls, -1) {
		out = append(out, m[1])
	}
	for _, raw := range splitURLs(urls) {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		for name, values := range u.Query() {
			if redact.IsSecretKey(name) {
				out = append(out, values...)
			}
		}
	}
	return out
}
