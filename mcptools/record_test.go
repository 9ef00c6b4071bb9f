package mcptools

import (
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser"
)

// TestLocator: a ref becomes role and name, with nth when the page had
// several such elements; selectors stay; a password's text is never kept.
func TestLocator(t *testing.T) {
	s := &Session{}
	s.rememberRefs(map[string]browser.RefInfo{
		"e1": {Role: "button", Name: "Delete"}, "e3": {Role: "button", Name: "Delete"},
		"e2": {Role: "textbox", Name: "Name"}, "e12": {Role: "button", Name: "Delete"},
		"f1e2": {Role: "link", Name: "Pay"},
	}, true)
	for target, want := range map[string]string{
		"e2":      `role=textbox[name="Name"]`,
		"e1":      `role=button[name="Delete"] >> nth=0`,
		"e3":      `role=button[name="Delete"] >> nth=1`,
		"e12":     `role=button[name="Delete"] >> nth=2`,
		"f1e2":    `role=link[name="Pay"]`,
		"text=Go": "text=Go",
		"e99":     "e99",
	} {
		if got := s.locator(target); got != want {
			t.Errorf("locator(%s) = %s, want %s", target, got, want)
		}
	}
	s.record("browser_click", map[string]any{"target": "e3", "element": "the second", "sessionId": "x"}, nil)
	s.record("browser_snapshot", map[string]any{}, nil)
	s.record("browser_hover", map[string]any{"target": "e2"}, map[string]string{"e2": `label="Name"`})
	if len(s.recorded) != 2 || s.recorded[1].Args["target"] != `label="Name"` || s.recorded[0].Action != "click" || s.recorded[0].Args["target"] != `role=button[name="Delete"] >> nth=1` ||
		s.recorded[0].Args["element"] != nil || s.recorded[0].Args["sessionId"] != nil {
		t.Errorf("recorded: %+v", s.recorded)
	}
}

// TestRecordHidesHTTPPassword: an emulation step with HTTP credentials is
// recorded with the password as an environment reference.
func TestRecordHidesHTTPPassword(t *testing.T) {
	s := &Session{}
	s.record("browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": "s3cret"}, nil)
	if len(s.recorded) != 1 || s.recorded[0].Args["httpPassword"] != "${E2E_SECRET_1}" || s.recorded[0].Args["httpUsername"] != "ada" {
		t.Errorf("recorded: %+v", s.recorded)
	}
}
