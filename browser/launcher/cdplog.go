package launcher

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"go.uber.org/zap"
)

// CDPDebugf is chromedp's debug log of the DevTools traffic ("-> {...}"
// sent, "<- {...}" received), at debug level, masked: the protocol carries
// what the agent types (Input.insertText, one key event per character when
// typing slowly), HTTP credentials (Fetch.continueWithAuth), headers and
// cookies. The log's sink masks every marked secret as well (logs.New);
// this masks what no mark could: a password typed one key at a time, a
// credential header before anyone marked it.
func CDPDebugf(log *zap.Logger) func(string, ...any) {
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

// secretMarkers are what a message that may carry what maskCDP masks (a
// typed text, a credential, a cookie) holds, lower-cased. Most of the
// traffic (console messages, snapshots, network events without
// credentials) holds none and is logged as it is: the log is written on
// the connection's read loop, where parsing every message of a page that
// floods its console stalled it (a case-insensitive regular expression
// took 100 µs a message; this takes 6).
var secretMarkers = []string{"input.", "__e2edemostep", "passw", "passphrase", "secret", "token", "apikey", "api-key", "api_key",
	"authoriz", "cookie", "credential", "privatekey", "private-key", "private_key", "x-csrf", "x-xsrf"}

func mayHoldSecret(msg string) bool {
	lower := strings.ToLower(msg)
	for _, m := range secretMarkers {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

// maskCDP masks one line of the DevTools traffic.
func maskCDP(line string) string {
	dir, msg, ok := strings.Cut(line, " ")
	if !ok || (dir != "->" && dir != "<-") || !strings.HasPrefix(msg, "{") {
		return line
	}
	if !mayHoldSecret(msg) {
		return redact.Process.String(line)
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
	if method, _ := m["method"].(string); method == "Runtime.bindingCalled" {
		maskDemoStep(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return dir + " (a message that did not encode, not logged)"
	}
	return dir + " " + string(redact.Process.JSON(b))
}

// maskDemoStep masks the text of a person's step (js/58_demo.js) in the
// binding message that carries it: what the person typed is logged no more
// than what the agent types, and a field may turn out secret after its text
// was sent (a password shown while typed, then hidden).
func maskDemoStep(m map[string]any) {
	p, ok := m["params"].(map[string]any)
	if !ok || p["name"] != recording.DemoBinding {
		return
	}
	payload, _ := p["payload"].(string)
	var step map[string]any
	if json.Unmarshal([]byte(payload), &step) != nil {
		p["payload"] = redact.Mask
		return
	}
	if _, ok := step["text"]; ok {
		step["text"] = redact.Mask
		b, _ := json.Marshal(step)
		p["payload"] = string(b)
	}
}
