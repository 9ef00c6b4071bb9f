package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/e2e-mcp/e2e-mcp/internal/dirlock"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// What serve takes from Playwright MCP's command line (cmd/e2e-mcp
// pwcompat.go) and the tools carry out: secrets named in arguments, the
// images and snapshots an answer holds, the Playwright code of an action,
// a profile kept across runs.

// secretVarRE finds ${NAME} in an argument.
var secretVarRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_.-]{0,63})\}`)

// flowNameRE is a name a flow's ${NAME} reads (flow/text.go).
var flowNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// secretWholeKeys are the arguments that hold text typed into the page:
// there, as in Playwright MCP, a value that is a secret's name whole is
// the secret (browser_type's text, browser_fill_form's values).
var secretWholeKeys = map[string]bool{"text": true, "value": true}

// expandSecrets is the arguments with each ${NAME} of a --secrets name
// replaced by its value, and a typed text or value that is such a name
// whole too. Other ${...} stay as they are: only names the operator gave
// are read, never the environment.
func expandSecrets(vars map[string]string, v any, key string) any {
	switch x := v.(type) {
	case string:
		if val, ok := vars[x]; ok && secretWholeKeys[key] {
			return val
		}
		if !strings.Contains(x, "${") {
			return x
		}
		return secretVarRE.ReplaceAllStringFunc(x, func(m string) string {
			if val, ok := vars[m[2:len(m)-1]]; ok {
				return val
			}
			return m
		})
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = expandSecrets(vars, e, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = expandSecrets(vars, e, key)
		}
		return out
	}
	return v
}

// expand replaces the secrets a call names in its arguments by their
// values, before they are checked: the tool, the recorder and every layer
// see the value, which the server's secret set masks wherever it is shown.
func (d *Deps) expand(next handlerFunc) handlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if len(d.SecretVars) > 0 && req.Params.Arguments != nil {
			req.Params.Arguments = expandSecrets(d.SecretVars, req.Params.Arguments, "")
		}
		return next(ctx, req)
	}
}

// secretName is the name a flow records a --secrets value as, when the
// flow can read that name from the environment.
func (s *Session) secretName(v string) (string, bool) {
	n, ok := s.secretNames[v]
	return n, ok && flowNameRE.MatchString(n)
}

// Image responses (--image-responses): allow, omit or only.
const (
	ImagesAllow = "allow"
	ImagesOmit  = "omit"
	ImagesOnly  = "only"
)

// shapeImages applies --image-responses to an answer: omit drops its
// images (saying so), only drops its text when it has an image.
func shapeImages(mode string, res *mcp.CallToolResult) {
	if res == nil || mode == "" || mode == ImagesAllow {
		return
	}
	var images, texts []mcp.Content
	for _, c := range res.Content {
		switch c.(type) {
		case mcp.ImageContent:
			images = append(images, c)
		default:
			texts = append(texts, c)
		}
	}
	if len(images) == 0 {
		return
	}
	switch mode {
	case ImagesOmit:
		res.Content = append(texts, mcp.NewTextContent(fmt.Sprintf("(%d image(s) left out: the server runs with --image-responses omit; browser_take_screenshot with filename saves one)", len(images))))
	case ImagesOnly:
		res.Content = images
	}
}

// codegenTypeScript is --codegen's value for Playwright Test code.
const codegenTypeScript = "typescript"

// ranCode adds the Playwright Test code of the step the call recorded to
// its answer (--codegen typescript), as Playwright MCP's "### Ran
// Playwright code": the flow converter's code for it (flow/playwright),
// secrets as the spec reads them.
func (d *Deps) ranCode(s *Session, res *mcp.CallToolResult) {
	if d.Codegen != codegenTypeScript || res == nil || res.IsError || len(s.recorded) == 0 {
		return
	}
	st := s.recorded[len(s.recorded)-1]
	code, err := playwright.StepCode(st, playwright.Options{TestIDAttribute: d.Browser.TestIDAttribute()})
	if err != nil || code == "" {
		return
	}
	block := "### Ran Playwright code\n```js\n" + code + "\n```"
	for i, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			t.Text = strings.TrimRight(t.Text, "\n") + "\n" + block
			res.Content[i] = t
			return
		}
	}
	res.Content = append([]mcp.Content{mcp.NewTextContent(block)}, res.Content...)
}

// Profile keeps what sessions leave (cookies, local storage) in a
// directory across runs (--user-data-dir): a session starts in the state
// the last one to end saved, and saves its own as it ends. One server at
// a time holds a directory (OpenProfile locks it).
type Profile struct {
	// Dir is the directory.
	Dir    string
	unlock func()
}

// profileState is the file of a profile's state, in its directory.
const profileState = "e2e-mcp-storage-state.json"

// ErrProfileInUse is OpenProfile's error for a directory another server holds.
var ErrProfileInUse = dirlock.ErrInUse

// OpenProfile makes dir if needed and holds it for this process until
// Close; a directory another server holds is ErrProfileInUse.
func OpenProfile(dir string) (*Profile, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	unlock, err := dirlock.Lock(abs)
	if err != nil {
		return nil, err
	}
	return &Profile{Dir: abs, unlock: unlock}, nil
}

// Close lets another server have the directory.
func (p *Profile) Close() {
	if p != nil && p.unlock != nil {
		p.unlock()
	}
}

// Load is the state the last session saved, or nil when none has.
func (p *Profile) Load() (*browser.StorageState, error) {
	path := filepath.Join(p.Dir, profileState)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ReadStorageState(path)
}

// Save writes a session's state for the next one (0600: it holds
// credentials).
func (p *Profile) Save(st *browser.StorageState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	out, err := userDirFile(p.Dir, profileState, "userDataDir")
	if err != nil {
		return err
	}
	out.mode = 0o600
	_, err = out.create(strings.NewReader(string(b)))
	return err
}

// saveProfile leaves the session's cookies and storage in its profile.
func (s *Session) saveProfile(ctx context.Context, log *zap.Logger) {
	if s.profile == nil || s.tabs == nil || s.tabs.Gone() {
		return
	}
	// No tab's session storage: a browser that starts again has none.
	st, err := s.tabs.StorageState(ctx, nil)
	if err == nil {
		err = s.profile.Save(st)
	}
	if err != nil {
		log.Warn("the session's cookies and storage were not saved in --user-data-dir", zap.String("session", s.ID), zap.Error(err))
	}
}

// startProfile puts a new browser context of the session in the state its
// profile holds (over --storage-state, which it replaces once saved).
func (s *Session) startProfile() error {
	if s.profile == nil || s.tabs == nil || s.tabs == s.stateIn {
		return nil
	}
	st, err := s.profile.Load()
	if err != nil {
		return fmt.Errorf("--user-data-dir %s: %w", s.profile.Dir, err)
	}
	if st != nil {
		s.startState = st
	}
	return nil
}
