// Command e2e-mcp is an MCP server that lets AI coding agents run end-to-end
// tests of the web app they are building: it drives Chromium over CDP with
// Playwright-grade tools and keeps every agent's session isolated.
//
// Usage:
//
//	e2e-mcp [serve] [flags]   speak MCP over stdio (the default)
//	e2e-mcp doctor [flags]    check that a browser can be found and started
//	e2e-mcp run FLOW.yaml|DIR...  replay flows in CI
//	e2e-mcp merge-reports DIR...  merge the reports of a run's shards
//	e2e-mcp open URL ...      a browser from the shell (the CLI)
//
// `e2e-mcp --help` lists every command (usage.go), and `e2e-mcp COMMAND
// --help` says more of each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/transport"
	"go.uber.org/zap"
)

func main() {
	startupGC()
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// startupGC keeps the garbage collector off for the process's first second,
// under a memory limit (startupMemoryLimit) as the safety net, then gives
// back the settings it found (GOGC, GOMEMLIMIT). Package init and the
// server's setup allocate about 4 MB, just enough for a collection to start
// while the first initialize is being answered: it cost that answer about
// 5 ms of the 2 cores of a small machine, and collected little.
func startupGC() {
	pct := debug.SetGCPercent(-1)
	if pct < 0 {
		return // GOGC=off: the user's choice stays
	}
	limit := debug.SetMemoryLimit(-1) // reads it
	debug.SetMemoryLimit(min(limit, startupMemoryLimit))
	time.AfterFunc(time.Second, func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	})
}

// startupMemoryLimit bounds the heap while startupGC holds the collector off.
const startupMemoryLimit = 64 << 20

// superviseVerbs has dev-server verbs run under this program as their
// supervisor, so that they die with the server however it ends (Linux),
// and the dev servers sessions start guarded by it, so that they are shut
// down even when the server is killed before its sessions end.
func superviseVerbs(log *zap.Logger) {
	exe, err := os.Executable()
	if err != nil {
		log.Warn("no verb supervisor: a killed server may leave a dev-server verb, or a dev server, running", zap.Error(err))
		return
	}
	devserver.UseSupervisor(exe)
	devserver.UseGuard(exe)
}

// forgetSecrets removes SecretEnv from this process's environment, which
// every process it starts inherits.
func forgetSecrets() {
	for _, k := range config.SecretEnv {
		_ = os.Unsetenv(k)
	}
}

// realMain runs a subcommand and returns the process exit code.
func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == devserver.SupervisorArg {
		// This process supervises one dev-server verb for a server (Linux).
		return devserver.Supervise(args[1:])
	}
	if len(args) > 0 && args[0] == devserver.GuardArg {
		// This process shuts down a server's dev servers once it is gone.
		return devserver.Guard(stdin)
	}
	cmd := "serve"
	if len(args) > 0 && (args[0] == "" || args[0][0] != '-') {
		cmd, args = args[0], args[1:]
	} else if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
		cmd, args = "help", args[1:]
	} else if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		cmd, args = "version", nil // as Playwright MCP's
	}
	if cli.IsCommand(cmd) {
		return cli.Main(Version(), cmd, args, stdout, stderr)
	}
	c, ok := commandNamed(cmd)
	if !ok {
		fmt.Fprintf(stderr, "e2e-mcp: unknown command %q (see e2e-mcp --help)\n", cmd)
		return cli.ExitUsage
	}
	return c.run(args, stdin, stdout, stderr)
}

// configMain runs serve or doctor, which take the server's settings.
func configMain(cmd string) func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		cfg, err := config.Parse(cmd, args, os.Getenv)
		// Read once: no process we start (dev servers, their commands, Chrome)
		// inherits our credentials.
		forgetSecrets()
		var fe *config.FlagError
		switch {
		case errors.Is(err, flag.ErrHelp):
			config.Help(cmd, stdout)
			return cli.ExitOK
		case errors.As(err, &fe):
			return usageError(stderr, cmd, fe.Error())
		case err != nil:
			fmt.Fprintf(stderr, "e2e-mcp: %v\n", err)
			return cli.ExitUsage
		}
		if cmd == "doctor" {
			return doctor(cfg, stdout, stderr)
		}
		if cfg.HTTP == "" {
			hintAtTerminal(stdin, stderr)
		}
		if err := serve(cfg, stdin, stdout); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp: %v\n", err)
			return cli.ExitFailed
		}
		return cli.ExitOK
	}
}

func browserOptions(cfg *config.Config, log *zap.Logger) browser.Options {
	policy, _ := cfg.Policy()                          // checked by Validate
	endpoints, _ := cfg.Endpoints()                    // checked by Validate
	grids, _ := cfg.Grids()                            // checked by Validate
	viewport, _ := devices.ParseSize(cfg.ViewportSize) // checked by Validate
	return browser.Options{ExecPath: cfg.ChannelPath(), Headed: cfg.Headed, NoSandbox: cfg.NoSandbox, ActionTimeout: cfg.ActionTimeout,
		NavigationTimeout: cfg.NavigationTimeout, TestIDAttribute: cfg.TestIDAttribute, Logger: log, Policy: policy, Endpoints: endpoints,
		Grids: grids, SnapshotBudget: cfg.SnapshotBudget, MaxDownloadBytes: cfg.MaxDownloadSize, Viewport: viewport,
		SettleTime: cfg.SettleTimeout, ConnectTimeout: cfg.CDPTimeout, IgnoreHTTPSErrors: cfg.IgnoreHTTPSErrors, SnapshotBoxes: cfg.SnapshotBoxes,
		SharedRemote: !cfg.Isolated, BypassCSP: cfg.BypassCSP, JavaScriptDisabled: cfg.NoJavaScript}
}

// serve speaks MCP over stdio until stdin closes or a signal arrives (or
// over HTTP with --http, until a signal), then ends every session and stops
// the browser before returning.
func serve(cfg *config.Config, stdin io.Reader, stdout io.Writer) error {
	log, err := logs.New(cfg.LogLevel, cfg.LogFormat)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	// E2E_MCP_CPUPROFILE=path writes a CPU profile of the whole run (make
	// bench uses it to find hot spots by measuring).
	if path := os.Getenv("E2E_MCP_CPUPROFILE"); path != "" {
		f, err := os.Create(path) //nolint:gosec // the user names the profile file on purpose
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// Clients often close our stdout and stderr as they end us. Go kills a
	// program that writes to a broken pipe on fd 1 or 2 with SIGPIPE, which
	// would cut the shutdown of dev servers and Chrome short; ignored, such
	// writes just fail.
	signal.Ignore(syscall.SIGPIPE)

	superviseVerbs(log)
	if cfg.HostUnused() {
		// As Playwright MCP: its config files give server.host alone.
		log.Warn("--host (the config's server.host) has no effect without --port: MCP is served over stdio", zap.String("host", cfg.Host))
	}
	if cfg.Channel != "" && cfg.BrowserPath == "" && cfg.ChannelPath() == "" {
		log.Info("no executable of the --browser channel found: any Chromium found stands in", zap.String("browser", cfg.Channel))
	}
	if cfg.BrowserPath != "" {
		// Said at the first browser call too (browser_not_found); the
		// server serves anyway, so that its client can hear it.
		if _, err := launcher.FindExecutable(cfg.BrowserPath); err != nil {
			log.Warn("--browser-path names no browser: browser calls will answer browser_not_found", zap.Error(err))
		}
	}
	// Profiles left by a killed server are removed alongside: the scan of
	// the temp directory need not delay the client's initialize. An exit
	// waits for it, or a sweep cut short leaves half of what it came for.
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		launcher.CleanStaleProfiles("", log)
	}()
	defer func() { <-swept }()
	a := newApp(cfg, log)
	bm, reg := a.bm, a.reg
	if cfg.UserDataDir != "" {
		// Held while a session's browser runs on it, as a browser profile
		// is, not from here: another server may have it until then.
		p, err := mcptools.OpenProfile(cfg.UserDataDir)
		if err != nil {
			a.close()
			return fmt.Errorf("--user-data-dir %s: %w", cfg.UserDataDir, err)
		}
		defer p.Close()
		reg.Profile = p
	}
	reg.MaxSessions = cfg.MaxSessions
	reg.BusyTimeout = cfg.BusyTimeout
	// Over TCP, clients are whoever the network lets through: each
	// principal gets a namespace of sessions of its own.
	reg.Isolate, reg.Shared = cfg.RemoteHTTP(), cfg.SharedSessions
	// A session's end (the server's exit included) fits in the time
	// clients give a server they closed before they kill it (EndBudget).
	reg.SetEndBudget(min(cfg.ShutdownTimeout, mcptools.EndBudget))
	// Over stdio the one connection's end is the server's.
	reg.ExitsWithConnection = cfg.HTTP == ""
	if os.Getenv(cli.DaemonEnv) != "" {
		// The CLI's session daemon: commands come and go as connections;
		// the session stays until close, and the daemon exits when idle.
		reg.KeepOnDisconnect = true
		// Its client is the CLI, not a model: every group is offered
		// (pdf, storage...), whatever the list weighs.
		// Its calls are logged for session_report, without a screenshot
		// after each (a capture a command would wait for).
		a.deps.Caps, reg.Vitals, a.deps.Reports = mcptools.CapGroups, true, true
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go cli.ExitWhenIdle(ctx, cancel, reg, cfg.IdleTimeout, log)
	}
	var allowCall func(context.Context) (bool, time.Duration)
	if cfg.RateSessions > 0 || cfg.RateCalls > 0 {
		rl := httpauth.NewRateLimiter(httpauth.RateLimits{SessionsPerMinute: float64(cfg.RateSessions), CallsPerMinute: float64(cfg.RateCalls)})
		reg.AllowSession = func(ctx context.Context) (bool, time.Duration) {
			return rl.Allow(transport.ClientKey(ctx), httpauth.SessionCreate)
		}
		allowCall = func(ctx context.Context) (bool, time.Duration) {
			return rl.Allow(transport.ClientKey(ctx), httpauth.ToolCall)
		}
	}
	defer func() {
		start := time.Now()
		a.close()
		log.Info("stopped", zap.Duration("cleanup", time.Since(start)))
	}()

	go reg.SweepIdle(ctx, cfg.IdleTimeout)
	outDir := ""
	if cfg.RemoteHTTP() || cfg.OutputDir != "" {
		if outDir, err = cfg.MakeOutputDir(); err != nil {
			return err
		}
	}
	a.deps.AllowCall, a.deps.Remote, a.deps.OutputDir = allowCall, cfg.RemoteHTTP(), outDir
	a.deps.OutputDirNamed = cfg.OutputDir != ""
	srv := mcptools.NewServer(Version(), a.deps)
	if cfg.HTTP != "" {
		err := transport.ServeHTTP(ctx, httpOptions(cfg, bm, reg), log, srv)
		log.Info("shutting down", zap.Bool("signal", ctx.Err() != nil))
		return err
	}
	// No response follows a cancellation; batches for 2025-03-26
	// (transport/stdio.go).
	if err := transport.ServeStdio(ctx, srv, log, Version(), stdin, stdout); err != nil {
		return err
	}
	log.Info("shutting down", zap.Bool("signal", ctx.Err() != nil))
	return nil
}

// doctor checks that a browser can be found and started, and says how to
// fix it when not.
func doctor(cfg *config.Config, stdout, stderr io.Writer) int {
	log, err := logs.New("error", "console")
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp doctor: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "e2e-mcp %s\n", Version())
	opts := browserOptions(cfg, log)
	if len(opts.Grids) > 0 {
		// The browser is the grid's: ask it for one, as a session would.
		fmt.Fprintf(stdout, "browser: from the WebDriver grid %s\n", opts.Grids[0])
	} else {
		path, err := launcher.FindExecutable(cfg.BrowserPath)
		if err != nil {
			fmt.Fprintf(stderr, "browser: NOT FOUND: %v\nhint: %s\n", err, launcher.InstallHint)
			return 1
		}
		fmt.Fprintf(stdout, "browser: %s\n", path)
		opts.ExecPath = path
		if opts.Headed && len(opts.Endpoints) == 0 {
			if be, ok := browser.AsError(launcher.HeadedWithoutDisplay()); ok {
				fmt.Fprintf(stderr, "browser: CANNOT SHOW A WINDOW: %s\nhint: %s\n", be.Message, be.Hint)
				return 1
			}
		}
	}
	bm := browser.NewManager(opts)
	defer func() { _ = bm.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	v, err := bm.Version(ctx)
	if err != nil {
		hint := launcher.InstallHint
		if len(opts.Grids) > 0 {
			hint = "check that the grid runs, has a free slot and offers Chrome with CDP"
		}
		fmt.Fprintf(stderr, "browser: DOES NOT START: %v\nhint: %s\n", err, hint)
		return 1
	}
	fmt.Fprintf(stdout, "browser version: %s (started in %s)\nok\n", v, time.Since(start).Round(time.Millisecond))
	return 0
}
