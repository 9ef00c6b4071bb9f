package mcptools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/mark3labs/mcp-go/mcp"
)

// What serve takes from Playwright MCP's command line
// (cmd/e2e-mcp/internal/config/pwcompat.go) and the tools carry out: secrets named in arguments, the
// images and snapshots an answer holds, the Playwright code of an action
// (a profile kept across runs is profile.go's).

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
