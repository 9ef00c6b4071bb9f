package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// One dev server for the whole run, as Playwright Test's webServer: the
// flows whose dev: is the same (the same command line or contract
// command, the same working directory, the same ready path) share one,
// started when the first of them starts (in a session of its own,
// dev-server-N) and ended when the run ends, whatever happened (and by
// the server's own ending of every session, should the run be cut
// short). Each flow still runs in its own session, its own browser
// context and storage; its steps' relative URLs go to the shared
// server's URL, as a flow's baseURL: does; a failing step's answer gets
// the server's last stderr lines. A retry does not restart it.
//
// What differs from a server per flow (--dev-server-per-flow brings that
// back): the app's state in memory lives through the run (flows must not
// depend on a fresh server), the dev server's log in a failure's answer
// is every flow's, and the flow's session report and trace show no
// session_start or dev server (its session is not the flow's).

// devServers are the run's shared dev servers.
type devServers struct {
	tools *mcptools.Caller
	// serveOnly marks a shared dev server's session as one that opens no
	// browser (mcptools.Deps.ServeOnly).
	serveOnly func(ctx context.Context, id string) error
	mu        sync.Mutex
	byKey     map[string]*sharedDev
	order     []*sharedDev
}

// sharedDev is one shared dev server: started once, by the first flow
// that needs it; the others wait for its start.
type sharedDev struct {
	once    sync.Once
	session string
	url     string
	ans     mcptools.Answer // session_start's, when it failed
	err     error
	started bool
}

func newDevServers(tools *mcptools.Caller, serveOnly func(ctx context.Context, id string) error) *devServers {
	return &devServers{tools: tools, serveOnly: serveOnly, byKey: map[string]*sharedDev{}}
}

// devArgs are session_start's arguments for a flow's dev server (its cwd
// relative to the flow's file).
func devArgs(file string, d *flow.Dev) map[string]any {
	a := map[string]any{}
	if d.Run != "" {
		a["run"] = d.Run
	}
	if len(d.Command) > 0 {
		a["commandPath"], a["args"] = d.Command[0], d.Command[1:]
	}
	if d.Cwd != "" {
		cwd := d.Cwd
		if !filepath.IsAbs(cwd) {
			cwd = filepath.Join(filepath.Dir(file), cwd)
		}
		a["cwd"] = absPath(cwd)
	}
	if d.ReadyPath != "" {
		a["readyPath"] = d.ReadyPath
	}
	return a
}

// devKey says which flows share a dev server: the same arguments (a
// relative cwd resolved, so that flows of one directory share it).
func devKey(args map[string]any) string {
	b, _ := json.Marshal(args) // sorted keys
	return string(b)
}

// get is the shared dev server of these arguments, started (or its start
// failed) by the first caller.
func (ds *devServers) get(ctx context.Context, args map[string]any) *sharedDev {
	key := devKey(args)
	ds.mu.Lock()
	sd := ds.byKey[key]
	if sd == nil {
		sd = &sharedDev{session: fmt.Sprintf("dev-server-%d", len(ds.order)+1)}
		ds.byKey[key] = sd
		ds.order = append(ds.order, sd)
	}
	ds.mu.Unlock()
	sd.once.Do(func() {
		if err := ds.serveOnly(ctx, sd.session); err != nil {
			sd.err, sd.started = err, true
			return
		}
		ans, err := ds.tools.Call(ctx, sd.session, "session_start", args)
		sd.started = true // ended at the run's end, even after a failed start
		if err != nil || ans.Err != nil {
			sd.ans, sd.err = ans, err
			return
		}
		sd.url = devURL(ans)
		if sd.url == "" {
			sd.ans, sd.err = ans, fmt.Errorf("the dev server started but said no URL")
		}
	})
	return sd
}

// devURL is the URL session_start's answer gives its dev server.
func devURL(a mcptools.Answer) string {
	b, err := json.Marshal(a.Structured)
	if err != nil {
		return ""
	}
	var s struct {
		DevServer struct {
			URL string `json:"url"`
		} `json:"devServer"`
	}
	_ = json.Unmarshal(b, &s)
	return s.DevServer.URL
}

// stop ends every shared dev server and its session.
func (ds *devServers) stop(ctx context.Context) {
	if ds == nil {
		return
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	for _, sd := range ds.order {
		if sd.started {
			_, _ = ds.tools.Call(context.WithoutCancel(ctx), sd.session, "session_end", map[string]any{})
		}
	}
}

// sharedDevServer starts the flow on the run's shared dev server for its
// dev: (starting it if it is the first): the flow then runs as if its
// baseURL were the server's URL. It returns false when the server did not
// start (the flow failed, as step 0).
func (r *replay) sharedDevServer() bool {
	f := r.t.flow
	sd := r.devs.get(r.base, devArgs(r.t.file, f.Dev))
	if sd.url == "" {
		return r.fail(0, "start the dev server (shared by the run's flows)", sd.ans, sd.err)
	}
	g := *f
	g.Dev, g.BaseURL = nil, sd.url
	r.t.flow, r.shared = &g, sd
	return true
}

// sharedDevLog is a section of the shared dev server's last stderr lines
// for a failing step's answer, which has none of its own (the server is
// not its session's); "" when the flow runs on no shared server. Every
// flow's requests are in it.
func (r *replay) sharedDevLog() string {
	if r.shared == nil {
		return ""
	}
	a, err := r.tools.Call(r.base, r.shared.session, "server_logs", map[string]any{"stream": "stderr", "lines": 30})
	if err != nil || a.Err != nil {
		return ""
	}
	return fmt.Sprintf("\n### Dev server log (the run's shared dev server: its last stderr lines, of every flow)\n%s\n", strings.TrimSpace(a.Text))
}
