package mcptools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// TestExpandSecrets: ${NAME} of a --secrets name is its value in any
// string at any depth, and a typed text or value that is the name whole
// too (as Playwright MCP); other ${...} and names elsewhere stay.
func TestExpandSecrets(t *testing.T) {
	vars := map[string]string{"API_TOKEN": "tok-1", "X-PASSWORD": "pw-2"}
	in := map[string]any{
		"url":   "https://u:${X-PASSWORD}@app.example.com/?t=${API_TOKEN}",
		"text":  "X-PASSWORD",
		"title": "X-PASSWORD",
		"fields": []any{
			map[string]any{"target": "e3", "value": "API_TOKEN"},
			map[string]any{"target": "e4", "value": "${HOME} and ${API_TOKEN}"},
		},
		"function": "() => `${API_TOKEN_2} ${x}`",
		"n":        3,
	}
	want := map[string]any{
		"url":   "https://u:pw-2@app.example.com/?t=tok-1",
		"text":  "pw-2",
		"title": "X-PASSWORD",
		"fields": []any{
			map[string]any{"target": "e3", "value": "tok-1"},
			map[string]any{"target": "e4", "value": "${HOME} and tok-1"},
		},
		"function": "() => `${API_TOKEN_2} ${x}`",
		"n":        3,
	}
	if got := expandSecrets(vars, in, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("expandSecrets =\n%v\nwant\n%v", got, want)
	}
	if in["text"] != "X-PASSWORD" {
		t.Error("expandSecrets changed the call's own arguments")
	}
}

// TestSecretRefNames: a --secrets value is recorded as ${NAME} when a flow
// can read that name, else as an E2E_SECRET_n, like any secret.
func TestSecretRefNames(t *testing.T) {
	server := redact.NewSet(nil)
	server.Add("tok-12345678", "pw-87654321")
	s := newSession(sessionKey{id: "s"}, "", server)
	s.secretNames = map[string]string{"tok-12345678": "API_TOKEN", "pw-87654321": "X-PASSWORD"}
	got := s.flowArgs(map[string]any{"text": "Bearer tok-12345678", "value": "pw-87654321"}, func(s string) string { return s })
	if got["text"] != "Bearer ${API_TOKEN}" || got["value"] != "${E2E_SECRET_1}" {
		t.Errorf("flowArgs = %v", got)
	}
}

// TestShapeImages: --image-responses omit drops images and says so; only
// keeps the images alone when there are some; allow changes nothing.
func TestShapeImages(t *testing.T) {
	mk := func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("### Result\nTook a screenshot"), mcp.NewImageContent("AAAA", "image/png")}}
	}
	r := mk()
	shapeImages(ImagesAllow, r)
	if len(r.Content) != 2 {
		t.Errorf("allow: %d parts", len(r.Content))
	}
	r = mk()
	shapeImages(ImagesOmit, r)
	if len(r.Content) != 2 || !strings.Contains(r.Content[1].(mcp.TextContent).Text, "--image-responses omit") {
		t.Errorf("omit: %v", r.Content)
	}
	r = mk()
	shapeImages(ImagesOnly, r)
	if _, ok := r.Content[0].(mcp.ImageContent); len(r.Content) != 1 || !ok {
		t.Errorf("only: %v", r.Content)
	}
	r = &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("no image")}}
	shapeImages(ImagesOnly, r)
	if len(r.Content) != 1 {
		t.Errorf("only, no image: %v", r.Content)
	}
}

// TestSharedBrowserContext: with SharedDefault every principal's default
// session is the one shared session, which their own named sessions are
// not, and which no client's end takes away; without it a call with no
// connection and no sessionId is refused.
func TestSharedBrowserContext(t *testing.T) {
	r := NewRegistry(nil, zap.NewNop())
	r.Isolate = true
	a, b := WithPrincipal(context.Background(), "a"), WithPrincipal(context.Background(), "b")
	var te *ToolError
	if _, _, err := r.acquire(a, "", "browser_snapshot"); !errors.As(err, &te) || te.Type != ErrSessionRequired {
		t.Fatalf("no default session without a connection: %v", err)
	}
	r.SharedDefault = true
	sa, _, err := r.acquire(a, "", "browser_snapshot")
	if err != nil {
		t.Fatal(err)
	}
	sa.release()
	sb, _, err := r.acquire(b, "", "browser_snapshot")
	if err != nil {
		t.Fatal(err)
	}
	sb.release()
	if sa != sb {
		t.Error("two principals' default sessions differ under --shared-browser-context")
	}
	na, _, _ := r.acquire(a, "mine", "browser_snapshot")
	na.release()
	nb, _, _ := r.acquire(b, "mine", "browser_snapshot")
	nb.release()
	if na == nb {
		t.Error("named sessions are shared too")
	}
	r.CloseOwnedBy("")
	sc, _, err := r.acquire(b, "", "browser_snapshot")
	if err != nil || sc != sa {
		t.Errorf("the shared session after a client's end: %v (same %v)", err, sc == sa)
	}
	sc.release()
}

// TestOutputMaxSize: files a call does not name go to --output-dir over
// stdio, and past --output-max-size the oldest of them go; a file a call
// named, and any other file of the directory, stays.
func TestOutputMaxSize(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte(strings.Repeat("n", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &Deps{OutputDir: dir, OutputMaxSize: 250, FileRoots: []string{dir}}
	var written []string
	for i := range 4 {
		o, err := d.outputPath(context.Background(), "filename", "", "shot-*.png")
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(o.path) != dir {
			t.Fatalf("an unnamed file went to %s, not --output-dir", o.path)
		}
		if _, err := o.create(strings.NewReader(strings.Repeat("x", 100))); err != nil {
			t.Fatal(err)
		}
		written = append(written, o.path)
		// A later file is newer to the second (mtimes can be coarse).
		old := time.Now().Add(time.Duration(i-10) * time.Second)
		_ = os.Chtimes(o.path, old, old)
	}
	var kept []string
	for _, p := range written {
		if _, err := os.Stat(p); err == nil {
			kept = append(kept, filepath.Base(p))
		}
	}
	if len(kept) != 2 || kept[0] != filepath.Base(written[2]) || kept[1] != filepath.Base(written[3]) {
		t.Errorf("kept %v of %v, want the newest two (250 bytes)", kept, written)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file the server did not name was evicted: %v", err)
	}
}

// TestOutputDirFile: what Playwright MCP saves unasked in the output
// directory goes there only when the operator named one; a name taken
// already is numbered, never written over; --output-max-size evicts such
// files with the other files tools name, and nothing else.
func TestOutputDirFile(t *testing.T) {
	ctx := context.Background()
	for _, d := range []*Deps{{}, {OutputDir: t.TempDir(), Remote: true}} {
		if o, err := d.outputDirFile(ctx, "filename", "", "page-x.png"); o != nil || err != nil {
			t.Errorf("no output directory named (remote %v): %v, %v", d.Remote, o, err)
		}
	}
	dir := t.TempDir()
	keep := filepath.Join(dir, "page-notes.png") // not a name tools give
	if err := os.WriteFile(keep, []byte(strings.Repeat("n", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &Deps{OutputDir: dir, OutputMaxSize: 250, FileRoots: []string{dir}}
	name := "page-" + fileStamp(time.Date(2025, 1, 31, 9, 5, 0, 123e6, time.UTC)) + ".png"
	if name != "page-2025-01-31T09-05-00-123Z.png" {
		t.Fatalf("stamped name %q", name)
	}
	var written []string
	for i := range 3 {
		var o *outputFile
		var err error
		if i == 0 {
			o, err = d.outputPath(ctx, "filename", "", "shot-*.png")
		} else {
			o, err = d.outputDirFile(ctx, "filename", "", name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := o.write([]byte(strings.Repeat("x", 100))); err != nil {
			t.Fatal(err)
		}
		written = append(written, o.path)
		old := time.Now().Add(time.Duration(i-10) * time.Second)
		_ = os.Chtimes(o.path, old, old)
	}
	if want := filepath.Join(dir, "page-2025-01-31T09-05-00-123Z (2).png"); written[2] != want {
		t.Errorf("the second file of one name: %s, want %s", written[2], want)
	}
	// 300 bytes of named files: the oldest (outputPath's) went.
	if _, err := os.Stat(written[0]); err == nil {
		t.Errorf("the oldest file tools named stayed past --output-max-size")
	}
	for _, p := range append(written[1:], keep) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	// In a directory of its own, made for it.
	o, err := d.outputDirFile(ctx, "path", "traces", "trace-1738314300123.zip")
	if err != nil || o.path != filepath.Join(dir, "traces", "trace-1738314300123.zip") {
		t.Fatalf("a trace: %v, %v", o, err)
	}
	o.discard()
	if _, err := os.Stat(o.path); err == nil {
		t.Errorf("a name taken and not written stayed after discard")
	}
}
