package launcher

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// TestMaskCDP: what is typed, HTTP credentials and credential headers are
// masked in the debug log of the DevTools traffic, whatever was marked; a
// message that can hold none of them is logged as it is.
func TestMaskCDP(t *testing.T) {
	redact.Process.Add("marked-secret-9")
	for line, leak := range map[string]string{
		`-> {"id":3,"method":"Input.insertText","params":{"text":"typed-pw-1"}}`:                                                                               "typed-pw-1",
		`-> {"id":4,"method":"Input.dispatchKeyEvent","params":{"type":"keyDown","text":"q","key":"q","code":"KeyQ"}}`:                                         `"q"`,
		`-> {"id":5,"method":"Fetch.continueWithAuth","params":{"authChallengeResponse":{"response":"ProvideCredentials","username":"u","password":"pw-2"}}}`:  "pw-2",
		`<- {"method":"Network.requestWillBeSentExtraInfo","params":{"headers":{"Authorization":"Bearer tok-3","Accept":"*/*"}}}`:                              "tok-3",
		`-> {"id":6,"method":"Storage.setCookies","params":{"cookies":[{"name":"sid","value":"ck-4","domain":"a.test"}]}}`:                                     "ck-4",
		`<- {"method":"Runtime.consoleAPICalled","params":{"args":[{"value":"marked-secret-9"}]}}`:                                                             "marked-secret-9",
		`<- {"method":"Runtime.bindingCalled","params":{"name":"__e2eDemoStep","payload":"{\"action\":\"type\",\"target\":\"#pw\",\"text\":\"shown-pw-5\"}"}}`: "shown-pw-5",
	} {
		if got := maskCDP(line); strings.Contains(got, leak) {
			t.Errorf("%s\n  logged as %s", line, got)
		}
	}
	plain := `<- {"method":"Runtime.consoleAPICalled","params":{"type":"log","args":[{"type":"string","value":"hello"}]}}`
	if got := maskCDP(plain); got != plain {
		t.Errorf("a message with nothing to mask was rewritten: %s", got)
	}
}
