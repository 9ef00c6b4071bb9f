package main

import (
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
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

func newApp(cfg *config.Config, log *zap.Logger) *app {
	bm := browser.NewManager(browserOptions(cfg, log))
	reg := mcptools.NewRegistry(bm, log)
	caps, _ := mcptools.ParseCaps(cfg.Caps)    // Validate refused a bad one
	reg.InitScripts, _ = cfg.ReadInitScripts() // Validate read them once
	reg.Vitals = slices.Contains(caps, mcptools.CapAudit)
	reg.Secrets = redact.NewSet(nil)
	reg.Secrets.Add(cfg.OperatorSecrets()...)
	if cfg.StorageState != "" {
		reg.StartState, _ = mcptools.ReadStorageState(cfg.StorageState) // Validate read it once
	}
	report := slices.Contains(caps, mcptools.CapReport)
	videos, _ := cfg.VideoDefaults()    // Validate refused a bad one
	videoLimits, _ := cfg.VideoLimits() // and a bad limit
	a := &app{bm: bm, reg: reg, deps: &mcptools.Deps{
		Videos: videos, VideoLimits: videoLimits,
		Caps: caps, Reports: report, ReportShots: report, TraceSessions: cfg.SaveTrace, SaveTraces: cfg.SaveTrace,
		Browser: bm, Sessions: reg, Logger: log, Config: config.View(cfg.Effective()),
		MaxSnapshotBytes: cfg.MaxSnapshotBytes, ErrorLogLines: cfg.ErrorLogLines,
		ServerCommand: strings.Fields(cfg.ServerCommand), StateDir: cfg.StateDir, FileRoots: cfg.FileRootDirs(),
		DevTimeouts: devserver.Timeouts{Start: cfg.StartTimeout, Restart: cfg.RestartTimeout, Status: cfg.StatusTimeout,
			Shutdown: cfg.ShutdownTimeout},
	}}
	cfg.ApplyPlaywright(a.reg, a.deps)
	return a
}

// close ends every session (their dev servers get --shutdown first, in
// parallel, and their artifacts are written by the end's deadline), then
// the browser, which the artifacts read: clients give a server only
// seconds to exit (mcptools.EndBudget).
func (a *app) close() {
	a.reg.CloseAll()
	_ = a.bm.Close()
}
