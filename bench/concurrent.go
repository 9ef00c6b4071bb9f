package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The concurrent scenario: one server over Streamable HTTP, N MCP clients at
// once, each with its own HTTP client and so its own MCP session, each
// looping navigate / snapshot / click on pages of its own for a fixed time.
// Only the servers that serve HTTP with a session per client take part:
// e2e-mcp and Playwright MCP (--isolated).

// concOptions shape the concurrent scenario.
type concOptions struct {
	clients int           // MCP clients at once; 0: no concurrent scenario
	dur     time.Duration // how long every client loops
	dump    string        // directory for every answer, or ""
}

// concurrentServer says whether a server takes part in the concurrent
// scenario.
func concurrentServer(key string) bool { return key == e2eMCP || key == playwright }

// httpServer is one server serving MCP over HTTP. Its session holds the
// process (for procs and stop); it has no client of its own.
type httpServer struct {
	*session
	url    string // the MCP endpoint
	exited chan struct{}
}

// lineWatch keeps a server's output and hands each complete line to onLine.
type lineWatch struct {
	tail    *tailBuffer
	onLine  func(string)
	partial []byte
}

func (w *lineWatch) Write(p []byte) (int, error) {
	_, _ = w.tail.Write(p)
	if w.onLine == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := slices.Index(w.partial, '\n')
		if i < 0 {
			break
		}
		w.onLine(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > 1<<20 {
		w.partial = nil // a line this long is not the one we wait for
	}
	return len(p), nil
}

// listenAddr reads the address from e2e-mcp's JSON log line
// {"msg":"serving MCP over HTTP","addr":"127.0.0.1:PORT",...}.
func listenAddr(line string) string {
	var l struct {
		Msg  string `json:"msg"`
		Addr string `json:"addr"`
	}
	if json.Unmarshal([]byte(line), &l) != nil || l.Msg != "serving MCP over HTTP" {
		return ""
	}
	return l.Addr
}

// httpArgs turns e2e-mcp's stdio flags into its HTTP ones: serve on a free
// loopback port, and log at info level, which carries the line saying where
// (extra flags given with -e2e-args come later and still win).
func httpArgs(stdio []string) []string {
	args := []string{"serve", "--http", "127.0.0.1:0"}
	for i := 0; i < len(stdio); i++ {
		if stdio[i] == "--log-level" && i+1 < len(stdio) && stdio[i+1] == "warn" {
			args = append(args, "--log-level", "info")
			i++
			continue
		}
		args = append(args, stdio[i])
	}
	return args
}

// playwrightHTTPArgs adds --port (and --isolated, when missing) to
// Playwright MCP's command line: it then serves Streamable HTTP at
// http://localhost:PORT/mcp with a browser context per client.
func playwrightHTTPArgs(args []string, port int) []string {
	out := append(slices.Clone(args), "--port", strconv.Itoa(port))
	if !slices.Contains(out, "--isolated") {
		out = append(out, "--isolated")
	}
	return out
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startHTTP launches a server in HTTP mode and returns once it accepts
// connections on its MCP endpoint.
func startHTTP(ctx context.Context, sp spec, clients int, mark, dump string) (*httpServer, error) {
	dir, err := os.MkdirTemp("", "e2e-mcp-bench-http-"+sp.Key+"-")
	if err != nil {
		return nil, err
	}
	if dump != "" {
		_ = os.RemoveAll(dump)
	}
	ss := &session{spec: sp, stderr: &tailBuffer{max: 64 << 10}, dir: dir, mark: mark, dump: dump}
	h := &httpServer{session: ss, exited: make(chan struct{})}
	env := append(os.Environ(), sp.Env...)
	env = append(env, "TMPDIR="+dir, mark)
	w := &lineWatch{tail: ss.stderr}
	var args []string
	var ready func() string
	switch sp.Key {
	case e2eMCP:
		args = httpArgs(sp.Args)
		env = append(env, fmt.Sprintf("E2E_MCP_MAX_SESSIONS=%d", max(clients, 1)))
		addr := make(chan string, 1)
		w.onLine = func(line string) {
			if a := listenAddr(line); a != "" {
				select {
				case addr <- a:
				default:
				}
			}
		}
		ready = func() string {
			select {
			case a := <-addr:
				return "http://" + a + "/mcp"
			default:
				return ""
			}
		}
	case playwright:
		port, err := freePort()
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		args = playwrightHTTPArgs(sp.Args, port)
		hostPort := net.JoinHostPort("localhost", strconv.Itoa(port))
		ready = func() string {
			conn, err := net.DialTimeout("tcp", hostPort, time.Second)
			if err != nil {
				return ""
			}
			_ = conn.Close()
			return "http://" + hostPort + "/mcp"
		}
	default:
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%s has no HTTP mode in the bench", sp.Key)
	}
	cmd := exec.Command(sp.Cmd, args...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = env, dir, w, w
	ss.cmd = cmd
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		ss.cmd = nil
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(h.exited) }()
	deadline := time.Now().Add(initTimeout)
	for {
		if u := ready(); u != "" {
			h.url = u
			return h, nil
		}
		select {
		case <-h.exited:
			return h, fmt.Errorf("%s exited before serving HTTP%s", sp.Key, ss.stderrNote())
		case <-ctx.Done():
			return h, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return h, fmt.Errorf("%s did not serve HTTP within %s%s", sp.Key, initTimeout, ss.stderrNote())
		}
	}
}

// stop ends the server with SIGTERM, as a service manager would, gives it
// time to shut down, then ends whatever is left of its tree like the stdio
// runs do.
func (h *httpServer) stop(known []proc) []proc {
	if h.cmd != nil && h.cmd.Process != nil {
		_ = h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.exited:
		case <-time.After(15 * time.Second):
		}
	}
	return h.session.stop(known)
}

// concClient is one MCP client of the concurrent scenario and what it saw.
type concClient struct {
	id      int
	s       *session
	hc      *http.Client
	a       adapter
	version string

	nav, snap, click []float64 // latencies of the calls that succeeded, ms
	calls            int       // tool calls in the loop
	failed           int       // failed calls, the setup's included
	errs             []string  // the first distinct failures
	wrong            int       // snapshots not showing this client's current page
	foreign          int       // ... showing another client's page instead
	wrongExample     string
	clicked          []string // "client-visit" of every click answered without error
	ready            bool     // set up: connected, tools listed, first page open
}

func (c *concClient) failure(what string, err error) {
	c.failed++
	msg := what + ": " + oneLine(err.Error(), 240)
	if len(c.errs) < 5 && !slices.Contains(c.errs, msg) {
		c.errs = append(c.errs, msg)
	}
}

// connect opens this client's own HTTP client and MCP session, learns the
// server's tools and opens its first page.
func (c *concClient) connect(ctx context.Context, srv *httpServer, fx *fixture, dump string) {
	c.hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	mc, err := client.NewStreamableHttpClient(srv.url, transport.WithHTTPBasicClient(c.hc))
	if err != nil {
		c.failure("setup", err)
		return
	}
	c.s = &session{spec: srv.spec, c: mc, stderr: srv.stderr, dump: dump}
	ictx, cancel := context.WithTimeout(ctx, initTimeout)
	defer cancel()
	if err := mc.Start(ictx); err != nil {
		c.failure("setup: start", err)
		return
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("e2e-mcp-bench-%d", c.id), Version: "1"}
	res, err := mc.Initialize(ictx, req)
	if err != nil {
		c.failure("setup: initialize", err)
		return
	}
	c.version = strings.TrimSpace(res.ServerInfo.Name + " " + res.ServerInfo.Version)
	if _, _, err := c.s.listTools(ctx); err != nil {
		c.failure("setup: tools/list", err)
		return
	}
	if c.a, err = newAdapter(c.s.tools); err != nil {
		c.failure("setup", err)
		return
	}
	if _, err := c.s.call(ctx, c.a.navigate, c.a.navArgsFor(fx.url(fmt.Sprintf("/c/%d/0", c.id)))); err != nil {
		c.failure("setup: first navigate", err)
		return
	}
	c.ready = true
}

// loop runs navigate / snapshot / click on fresh pages of this client's
// own until the deadline; the round under way when it passes completes.
func (c *concClient) loop(ctx context.Context, fx *fixture, deadline time.Time) {
	for visit := 1; time.Now().Before(deadline) && ctx.Err() == nil && c.s.hung == ""; visit++ {
		if _, ok := c.do(ctx, &c.nav, c.a.navigate, c.a.navArgsFor(fx.url(fmt.Sprintf("/c/%d/%d", c.id, visit)))); !ok {
			continue
		}
		snap, ok := c.do(ctx, &c.snap, c.a.snapshot, c.a.snapArgs())
		if !ok {
			continue
		}
		if own, other := ownPage(snap.text, c.id, visit); !own {
			c.wrong++
			if other != "" {
				c.foreign++
			}
			if c.wrongExample == "" || other != "" {
				c.wrongExample = fmt.Sprintf("client %d on visit %d saw %q", c.id, visit, firstLabel(snap.text))
			}
			continue
		}
		id := fmt.Sprintf("%d-%d", c.id, visit)
		ref, found := findRef(snap.text, "button", "Ping "+id)
		if !found {
			c.failure("click", fmt.Errorf("no ref for button %q in the client's snapshot", "Ping "+id))
			continue
		}
		if _, ok := c.do(ctx, &c.click, c.a.click, c.a.elementArgs(ref, "Ping button")); ok {
			c.clicked = append(c.clicked, id)
		}
	}
}

// do makes one tool call of the loop and keeps its latency when it succeeds.
func (c *concClient) do(ctx context.Context, into *[]float64, tool string, args map[string]any) (answer, bool) {
	c.calls++
	ans, err := c.s.call(ctx, tool, args)
	if err != nil {
		c.failure(tool, err)
		return ans, false
	}
	*into = append(*into, ms(ans.took))
	return ans, true
}

func (c *concClient) close() {
	if c.s != nil && c.s.c != nil {
		_ = c.s.c.Close() // DELETE: the server ends the session
	}
	if c.hc != nil {
		c.hc.CloseIdleConnections()
	}
}

var clientLabelRE = regexp.MustCompile(`Client \d+ visit \d+`)

// ownPage says whether a snapshot shows this client's page of this visit
// and no other; other is another label it shows instead, if any.
func ownPage(text string, client, visit int) (own bool, other string) {
	want := clientLabel(client, visit)
	for _, m := range clientLabelRE.FindAllString(text, -1) {
		if m != want {
			return false, m
		}
		own = true
	}
	return own, ""
}

func firstLabel(text string) string {
	if m := clientLabelRE.FindString(text); m != "" {
		return m
	}
	return oneLine(text, 80)
}

// percentile is the nearest-rank percentile p (0–100) of v.
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// runConcurrent runs the concurrent scenario once against one server.
func runConcurrent(ctx context.Context, fx *fixture, sp spec, run, pos int, mark string, o concOptions) runResult {
	r := runResult{Server: sp.Key, Run: run, Position: pos, Scenario: "concurrent",
		Samples: map[string][]float64{}, Errors: map[string]string{}, Info: map[string]string{}}
	keys := concurrentKeys()
	dump := ""
	if o.dump != "" {
		dump = filepath.Join(o.dump, fmt.Sprintf("%s-concurrent%d", sp.Key, run))
	}
	srv, err := startHTTP(ctx, sp, o.clients, mark, dump)
	var known []proc
	defer func() {
		if srv == nil {
			return
		}
		for _, p := range srv.stop(known) {
			r.Leftover = append(r.Leftover, fmt.Sprintf("%d %s", p.pid, p.comm))
		}
	}()
	if err != nil {
		r.fail(keys[0], err)
		r.skip("the server did not start in HTTP mode", keys[1:]...)
		return r
	}
	r.Info["conc_url"] = srv.url

	// Setup: every client connects, lists the tools and opens its first page,
	// all at once (for Playwright MCP, each client's browser starts here).
	clients := make([]*concClient, o.clients)
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := range clients {
		c := &concClient{id: i + 1}
		clients[i] = c
		cdump := ""
		if dump != "" {
			cdump = filepath.Join(dump, fmt.Sprintf("client%02d", c.id))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.connect(ctx, srv, fx, cdump)
		}()
	}
	wg.Wait()
	setup := time.Since(t0)
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	ready := 0
	for _, c := range clients {
		if c.ready {
			ready++
		}
		if c.version != "" && r.Version == "" {
			r.Version = c.version
		}
	}
	if ready == len(clients) {
		r.add("conc_setup_ms", ms(setup))
	} else {
		r.fail("conc_setup_ms", fmt.Errorf("%d of %d clients could not start: %s", len(clients)-ready, len(clients), firstErrors(clients)))
	}
	if ready == 0 {
		r.skip("no client could start", keys[1:]...)
		return r
	}

	// The loop: every client that started, for the same fixed time.
	start := time.Now()
	deadline := start.Add(o.dur)
	for _, c := range clients {
		if !c.ready {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.loop(ctx, fx, deadline)
		}()
	}
	wg.Wait()
	r.Info["conc_loop"] = time.Since(start).Round(100 * time.Millisecond).String()

	// Memory at the end of the loop, with every session still open.
	known = srv.procs()
	if ctx.Err() == nil {
		if m, err := measure(known, srv.pid()); err != nil {
			r.fail("conc_tree_pss", err)
		} else {
			r.Memory = &m
			r.add("conc_tree_pss", float64(m.TreeKB))
			r.Info["conc_browsers"] = fmt.Sprintf("%d browser processes", m.Browsers)
		}
	} else {
		r.skip("interrupted", "conc_tree_pss")
	}

	var nav, snap, click []float64
	var calls, failed, wrong, foreign int
	var clicked []string
	example := ""
	for _, c := range clients {
		nav, snap, click = append(nav, c.nav...), append(snap, c.snap...), append(click, c.click...)
		calls, failed, wrong, foreign = calls+c.calls, failed+c.failed, wrong+c.wrong, foreign+c.foreign
		clicked = append(clicked, c.clicked...)
		if example == "" || c.foreign > 0 {
			example = cmpOr(c.wrongExample, example)
		}
	}
	for _, t := range []struct {
		name string
		v    []float64
	}{{"nav", nav}, {"snap", snap}, {"click", click}} {
		if len(t.v) == 0 {
			r.skip("no call succeeded", "conc_"+t.name+"_p50", "conc_"+t.name+"_p95")
			continue
		}
		r.add("conc_"+t.name+"_p50", percentile(t.v, 50))
		r.add("conc_"+t.name+"_p95", percentile(t.v, 95))
		r.Samples["conc_"+t.name+"_calls_ms"] = t.v // every call, for results.json
	}
	r.add("conc_calls", float64(calls))
	r.add("conc_failed", float64(failed))
	if failed > 0 {
		r.fail("conc_failed", fmt.Errorf("%d failed call(s): %s", failed, firstErrors(clients)))
	}
	r.add("conc_wrong_page", float64(wrong))
	r.Info["conc_bleed"] = fmt.Sprintf("another client's page: %d", foreign)
	if wrong > 0 {
		r.fail("conc_wrong_page", fmt.Errorf("%d snapshot(s) not showing the client's own page, %d showing another client's (%s)", wrong, foreign, example))
	}
	// Each click's page posts its id: did the clicks reach the right page?
	seen, until := 0, time.Now().Add(3*time.Second)
	for _, id := range clicked {
		for !fx.pinged(id) && time.Now().Before(until) {
			time.Sleep(20 * time.Millisecond)
		}
		if fx.pinged(id) {
			seen++
		}
	}
	r.Info["conc_clicks_seen"] = fmt.Sprintf("clicks the page received: %d/%d", seen, len(clicked))
	return r
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// firstErrors lists the first distinct failures of the clients.
func firstErrors(clients []*concClient) string {
	var out []string
	for _, c := range clients {
		for _, e := range c.errs {
			if len(out) < 3 && !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return strings.Join(out, "; ")
}

// concurrentPhase runs the concurrent scenario for every server that takes
// part, runs times, alternating which goes first.
func concurrentPhase(ctx context.Context, fx *fixture, specs []spec, runs int, o concOptions, log func(string, ...any)) ([]runResult, string) {
	var srvs []spec
	for _, s := range specs {
		if concurrentServer(s.Key) {
			srvs = append(srvs, s)
		}
	}
	var out []runResult
	for run := 0; run < runs; run++ {
		for i := range srvs {
			if ctx.Err() != nil {
				return out, fmt.Sprintf("The concurrent scenario stopped (budget or signal): %d of %d runs done.", run, runs)
			}
			sp := srvs[(i+run)%len(srvs)]
			t0 := time.Now()
			mark := fmt.Sprintf("E2E_MCP_BENCH_MARK=%d-%s-http-%d", os.Getpid(), sp.Key, run)
			r := runConcurrent(ctx, fx, sp, run+1, i+1, mark, o)
			out = append(out, r)
			status := "ok"
			if len(r.Errors) > 0 {
				status = fmt.Sprintf("%d figure(s) failed", len(r.Errors))
			}
			calls := 0.0
			if v := r.Samples["conc_calls"]; len(v) > 0 {
				calls = v[0]
			}
			log("concurrent %d/%d  %-20s %6s  %d clients, %.0f calls  %s\n", run+1, runs, sp.Key,
				time.Since(t0).Round(100*time.Millisecond), o.clients, calls, status)
		}
	}
	return out, ""
}

// concurrentLabel describes the scenario for the table's first concurrent row.
func concurrentLabel(o concOptions) string {
	return fmt.Sprintf("%d clients over HTTP, %s loop", o.clients, o.dur)
}
