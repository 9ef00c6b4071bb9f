package browser

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"go.uber.org/zap"
)

// cdpDebugf is chromedp's debug log of the DevTools traffic ("-> {...}"
// sent, "<- {...}" received), at debug level, masked: the protocol carries
// what the agent types (Input.insertText, one key event per character when
// typing slowly), HTTP credentials (Fetch.continueWithAuth), headers and
// cookies. The log's sink masks every marked secret as well (logs.New);
// this masks what no mark could: a password typed one key at a time, a
// credential header before anyone marked it.
func cdpDebugf(log *zap.Logger) func(string, ...any) {
	sugar := log.Sugar()
	return func(format string, args ...any) {
		if !log.Core().Enabled(zap.DebugLevel) {
			return
		}
		sugar.Debug(maskCDP(fmt.Sprintf(format, args...)))
	}
}

// inputMethods are the DevTools commands whose text is what was typed.
var inputMethods = map[string]bool{"Input.insertText": true, "Input.dispatchKeyEvent": true, "Input.imeSetComposition": true}

// maskCDP masks one line of the DevTools traffic.
func maskCDP(line string) string {
	dir, msg, ok := strings.Cut(line, " ")
	if !ok || (dir != "->" && dir != "<-") || !strings.HasPrefix(msg, "{") {
		return line
	}
	var m map[string]any
	if json.Unmarshal([]byte(msg), &m) != nil {
		return dir + " (a message that did not parse, not logged)"
	}
	if method, _ := m["method"].(string); inputMethods[method] {
		if p, ok := m["params"].(map[string]any); ok {
			for _, k := range []string{"text", "unmodifiedText", "key", "code", "keyIdentifier"} {
				if _, ok := p[k]; ok {
					p[k] = redact.Mask
				}
			}
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return dir + " (a message that did not encode, not logged)"
	}
	return dir + " " + string(redact.Process.JSON(b))
}
