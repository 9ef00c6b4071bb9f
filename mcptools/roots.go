package mcptools

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// The file roots of a local client, in order of precedence: --file-roots;
// else the client's workspace roots, when it declared the roots capability
// (asked for with roots/list after notifications/initialized and again on
// notifications/roots/list_changed, kept per MCP connection, only file://
// ones, at most maxClientRoots); else the working directory, unless it is a
// filesystem root or the home directory (where desktop clients start
// servers): then e2e-mcp's own files directory, never the whole disk.

// Where the roots in effect come from, as answers name it.
const (
	fromFlag    = "--file-roots"
	fromClient  = "the client's roots"
	fromWorkDir = "the working directory"
	fromPrivate = "e2e-mcp's files directory, since the working directory is / or the home directory"
)

// maxClientRoots bounds the roots of one client; rootsTimeout one roots/list.
const (
	maxClientRoots = 64
	rootsTimeout   = 10 * time.Second
)

// fileRoots are the directories in effect for a call, where they come
// from, and the directory relative paths start in. Over HTTP, fenced is
// the output directory, whose files a client reads only in own, its
// directory.
type fileRoots struct {
	dirs        []string
	from        string
	base        string
	fenced, own string
}

func (r fileRoots) String() string { return strings.Join(r.dirs, ", ") + " (" + r.from + ")" }

// hint says how to change the roots, for a refused path's next step.
func (r fileRoots) hint() string {
	switch r.from {
	case fromFlag:
		return "or start the server with other --file-roots"
	case fromClient:
		return "or add its directory to the client's workspace roots (the server's --file-roots would replace them)"
	case fromRemote, fromNamespace:
		return "or ask the operator to name its directory in --file-roots"
	default:
		return "or start the server with --file-roots (E2E_MCP_FILE_ROOTS) naming the project's directory"
	}
}

// localRoots are the file roots of the call's client (a local one).
func (d *Deps) localRoots(ctx context.Context) (fileRoots, error) {
	wd, err := os.Getwd()
	if err != nil {
		return fileRoots{}, fmt.Errorf("working directory: %w", err)
	}
	if len(d.FileRoots) > 0 {
		return fileRoots{dirs: d.FileRoots, from: fromFlag, base: wd}, nil
	}
	if dirs := d.clientRoots.get(ctx, d.Logger); len(dirs) > 0 {
		return fileRoots{dirs: dirs, from: fromClient, base: dirs[0]}, nil
	}
	if !unsafeRoot(wd) {
		return fileRoots{dirs: []string{wd}, from: fromWorkDir, base: wd}, nil
	}
	dir, err := privateFilesDir()
	if err != nil {
		return fileRoots{}, &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("the working directory %s is / or the home directory, which this server never writes in, and it has no files directory of its own: %v", wd, err),
			Suggestion: "start the server with --file-roots (E2E_MCP_FILE_ROOTS) naming the project's directory"}
	}
	return fileRoots{dirs: []string{dir}, from: fromPrivate, base: dir}, nil
}

// unsafeRoot reports whether dir is a filesystem root, the home directory
// or above it: not a directory to give a client's files the run of.
func unsafeRoot(dir string) bool {
	if filepath.Dir(dir) == dir {
		return true
	}
	home, err := os.UserHomeDir()
	return err == nil && home != "" && insideAny(filepath.Clean(home), []string{dir})
}

// privateFilesDir is files/ in e2e-mcp's per-user state directory, made
// (0700) if missing.
func privateFilesDir() (string, error) {
	base, err := devserver.StateBase()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "files")
	return dir, os.MkdirAll(dir, 0o700)
}

// clientRoots caches each MCP connection's roots: asked for when the
// client says it is initialized or that they changed, waited for by the
// calls that need them. Its zero value is ready.
type clientRoots struct {
	mu sync.Mutex
	by map[string]*rootsAnswer
}

// rootsAnswer is one roots/list: dirs is set when done is closed (nil
// when the client failed or named no file:// root).
type rootsAnswer struct {
	done chan struct{}
	dirs []string
}

// rootsSession is the connection of ctx when its client declared the roots
// capability.
func rootsSession(ctx context.Context) server.SessionWithRoots {
	cs := server.ClientSessionFromContext(ctx)
	info, ok := cs.(server.SessionWithClientInfo)
	if !ok || info.GetClientCapabilities().Roots == nil {
		return nil
	}
	rs, _ := cs.(server.SessionWithRoots)
	return rs
}

// refresh asks the connection of ctx for its roots again, in the
// background: the answer replaces the cached one, and calls made from now
// on wait for it. Notifications are handled in order before the requests
// that follow them, so a call made after list_changed sees the new roots.
func (c *clientRoots) refresh(ctx context.Context, log *zap.Logger) {
	rs := rootsSession(ctx)
	if rs == nil {
		return
	}
	a := &rootsAnswer{done: make(chan struct{})}
	c.mu.Lock()
	if c.by == nil {
		c.by = map[string]*rootsAnswer{}
	}
	c.by[rs.SessionID()] = a
	c.mu.Unlock()
	go func() {
		defer close(a.done)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rootsTimeout)
		defer cancel()
		res, err := rs.ListRoots(rctx, mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
		if err != nil {
			if log != nil {
				log.Warn("roots/list failed: the default file roots apply until the client's roots change", zap.String("connection", rs.SessionID()), zap.Error(err))
			}
			return
		}
		var skipped int
		a.dirs, skipped = rootDirs(res.Roots, runtime.GOOS == "windows")
		if log != nil {
			log.Info("client roots", zap.String("connection", rs.SessionID()), zap.Strings("roots", a.dirs), zap.Int("ignored", skipped))
		}
	}()
}

// get is the cached roots of the call's connection (nil: none), asking
// for them the first time.
func (c *clientRoots) get(ctx context.Context, log *zap.Logger) []string {
	rs := rootsSession(ctx)
	if rs == nil {
		return nil
	}
	c.mu.Lock()
	a := c.by[rs.SessionID()]
	c.mu.Unlock()
	if a == nil {
		c.refresh(ctx, log)
		c.mu.Lock()
		a = c.by[rs.SessionID()]
		c.mu.Unlock()
	}
	select {
	case <-a.done:
		return a.dirs
	case <-ctx.Done():
		return nil
	}
}

// forget drops a closed connection's roots.
func (c *clientRoots) forget(id string) {
	c.mu.Lock()
	delete(c.by, id)
	c.mu.Unlock()
}

// rootDirs are the directories of the file:// roots (at most
// maxClientRoots), and how many roots were left out.
func rootDirs(roots []mcp.Root, windows bool) (dirs []string, skipped int) {
	for _, r := range roots {
		dir, ok := fileURIPath(r.URI, windows)
		if !ok || len(dirs) == maxClientRoots {
			skipped++
			continue
		}
		dirs = append(dirs, dir)
	}
	return dirs, skipped
}

// fileURIPath is the local path of a file:// URI, percent-escapes decoded
// (file:///C:/x is C:\x on Windows); ok is false for any other URI, one
// naming another host, or one whose path is not absolute.
func fileURIPath(uri string, windows bool) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || (u.Host != "" && !strings.EqualFold(u.Host, "localhost")) {
		return "", false
	}
	p := u.Path
	if windows {
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isASCIILetter(p[1]) {
			p = p[1:]
		}
		p = strings.ReplaceAll(p, "/", `\`)
		if len(p) < 3 || p[1] != ':' || p[2] != '\\' || !isASCIILetter(p[0]) {
			return "", false
		}
		return cleanWindows(p), true
	}
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	return filepath.Clean(p), true
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// cleanWindows cleans a drive path with \ separators whatever the OS
// (filepath.Clean would on Windows).
func cleanWindows(p string) string {
	if runtime.GOOS == "windows" {
		return filepath.Clean(p)
	}
	var parts []string
	for _, s := range strings.Split(p[3:], `\`) {
		switch s {
		case "", ".":
		case "..":
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, s)
		}
	}
	return p[:3] + strings.Join(parts, `\`)
}
