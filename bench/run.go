package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// callTimeout bounds one tool call; initTimeout the start and initialize.
const (
	callTimeout = 60 * time.Second
	initTimeout = 30 * time.Second
)

// session is one running server with its client.
type session struct {
	spec    spec
	c       *client.Client
	cmd     *exec.Cmd
	stderr  *tailBuffer
	dir     string // its working and temp directory
	mark    string // an environment entry only this server and what it starts carry
	dump    string // when set, every answer is written there
	tools   map[string]mcp.Tool
	seq     int
	version string // name and version from initialize
	hung    string // why the server gets no more calls
}

// start launches the server and returns once initialize is answered.
func start(ctx context.Context, s spec, mark, dump string) (*session, time.Duration, error) {
	dir, err := os.MkdirTemp("", "e2e-mcp-bench-"+s.Key+"-")
	if err != nil {
		return nil, 0, err
	}
	if dump != "" {
		_ = os.RemoveAll(dump) // answers of an earlier bench run
	}
	ss := &session{spec: s, stderr: &tailBuffer{max: 64 << 10}, dir: dir, mark: mark, dump: dump}
	env := append(os.Environ(), s.Env...)
	env = append(env, "TMPDIR="+dir, mark)
	if s.Key == agentBr {
		// Its own socket directory: its daemon is this run's alone (and
		// 'close --all' closes only it), with an idle timeout as a backstop.
		env = append(env, "AGENT_BROWSER_SOCKET_DIR="+filepath.Join(dir, "sock"), "AGENT_BROWSER_IDLE_TIMEOUT_MS=300000")
	}
	cmdFunc := func(_ context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Env, cmd.Dir = env, dir
		ss.cmd = cmd
		return cmd, nil
	}
	t0 := time.Now()
	c, err := client.NewStdioMCPClientWithOptions(s.Cmd, nil, s.Args,
		transport.WithCommandFunc(cmdFunc), transport.WithCommandStderrWriter(ss.stderr))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, 0, err
	}
	ss.c = c
	ictx, cancel := context.WithTimeout(ctx, initTimeout)
	defer cancel()
	if err := c.Start(ictx); err != nil {
		return ss, 0, fmt.Errorf("start client: %w", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e-mcp-bench", Version: "1"}
	res, err := c.Initialize(ictx, req)
	if err != nil {
		return ss, 0, fmt.Errorf("initialize: %w%s", err, ss.stderrNote())
	}
	ss.version = strings.TrimSpace(res.ServerInfo.Name + " " + res.ServerInfo.Version)
	return ss, time.Since(t0), nil
}

func (s *session) pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

func (s *session) stderrNote() string {
	if t := strings.TrimSpace(s.stderr.String()); t != "" {
		return " (stderr: " + oneLine(t, 300) + ")"
	}
	return ""
}

// listTools returns the size of the tools/list answer (re-encoded JSON) and
// the number of tools, and remembers the tools.
func (s *session) listTools(ctx context.Context) (int, int, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return 0, 0, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return 0, 0, err
	}
	s.tools = map[string]mcp.Tool{}
	for _, t := range res.Tools {
		s.tools[t.Name] = t
	}
	s.write("tools_list.json", b)
	return len(b), len(res.Tools), nil
}

// answer is one tool result: its text and size, and its structured
// content when it has one.
type answer struct {
	text       string
	bytes      int
	took       time.Duration
	structured map[string]any
}

// call runs one tool and returns its text; a tool error is an error.
func (s *session) call(ctx context.Context, tool string, args map[string]any) (answer, error) {
	if s.hung != "" {
		return answer{}, fmt.Errorf("%s: not called: %s", tool, s.hung)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	t0 := time.Now()
	res, err := s.c.CallTool(ctx, req)
	took := time.Since(t0)
	if err != nil {
		if ctx.Err() != nil {
			// A server that does not answer gets no more calls in this run.
			s.hung = fmt.Sprintf("%s got no answer within %s", tool, callTimeout)
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				s.hung = fmt.Sprintf("%s interrupted", tool)
			}
			return answer{took: took}, errors.New(s.hung)
		}
		return answer{took: took}, fmt.Errorf("%s: %w%s", tool, err, s.stderrNote())
	}
	var b strings.Builder
	n := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			b.WriteString(c.Text)
			n += len(c.Text)
		case mcp.ImageContent:
			n += len(c.Data)
		case mcp.EmbeddedResource:
			if r, ok := c.Resource.(mcp.TextResourceContents); ok {
				b.WriteString(r.Text)
				n += len(r.Text)
			}
		}
	}
	a := answer{text: b.String(), bytes: n, took: took}
	a.structured, _ = res.StructuredContent.(map[string]any)
	s.seq++
	argJSON, _ := json.Marshal(args)
	s.write(fmt.Sprintf("%02d_%s.txt", s.seq, tool), []byte(fmt.Sprintf("%s %s\n(%d bytes, %s)\n\n%s", tool, argJSON, n, took, a.text)))
	if res.IsError {
		return a, fmt.Errorf("%s answered an error: %s", tool, oneLine(a.text, 200))
	}
	return a, nil
}

func (s *session) write(name string, b []byte) {
	if s.dump == "" {
		return
	}
	_ = os.MkdirAll(s.dump, 0o755)
	_ = os.WriteFile(filepath.Join(s.dump, name), b, 0o644)
}

// procs is every process of this server now: its descendants and whatever
// carries its mark (a daemon that detached, and the browser it started).
func (s *session) procs() []proc {
	all := readProcs()
	roots := withEnv(all, s.mark)
	if pid := s.pid(); pid != 0 {
		roots = append(roots, pid)
	}
	return tree(all, roots)
}

// stop ends the server the way a client does (stdin closed), runs the
// server's own close command when it has one, and waits for every process
// it started to end; what is still running after that is killed and
// returned.
func (s *session) stop(known []proc) []proc {
	seen := map[int]proc{}
	for _, p := range append(known, s.procs()...) {
		seen[p.pid] = p
	}
	if s.c != nil {
		_ = s.c.Close()
	}
	if len(s.spec.Close) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, s.spec.Close[0], s.spec.Close[1:]...)
		cmd.Env = append(append(os.Environ(), s.spec.Env...), "TMPDIR="+s.dir, s.mark,
			"AGENT_BROWSER_SOCKET_DIR="+filepath.Join(s.dir, "sock"))
		cmd.Dir = s.dir
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			s.stderr.WriteString(fmt.Sprintf("\n%s: %v: %s", strings.Join(s.spec.Close, " "), err, oneLine(string(out), 200)))
		}
	}
	for _, p := range s.procs() {
		seen[p.pid] = p
	}
	var list []proc
	for _, p := range seen {
		list = append(list, p)
	}
	left := reap(list, 10*time.Second)
	// Anything started while the server shut down carries the mark too.
	if late := withEnv(readProcs(), s.mark); len(late) > 0 {
		all := readProcs()
		left = append(left, reap(tree(all, late), 2*time.Second)...)
	}
	_ = os.RemoveAll(s.dir)
	s.write("stderr.txt", []byte(s.stderr.String()))
	return left
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) WriteString(s string) { _, _ = t.Write([]byte(s)) }

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
