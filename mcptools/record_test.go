package mcptools

import (
	"reflect"
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
		"e20":  {Role: "iframe", Name: "Ads"}, "e21": {Role: "iframe"}, "e22": {Role: "iframe", Name: "Map"},
	}, true)
	for target, want := range map[string]string{
		"e2":      `role=textbox[name="Name"]`,
		"e1":      `role=button[name="Delete"] >> nth=0`,
		"e3":      `role=button[name="Delete"] >> nth=1`,
		"e12":     `role=button[name="Delete"] >> nth=2`,
		"f1e2":    `role=link[name="Pay"]`,
		"e21":     `role=iframe >> nth=1`, // role=iframe finds the named ones too
		"e22":     `role=iframe[name="Map"]`,
		"text=Go": "text=Go",
		"e99":     "e99",
	} {
		if got := s.locator(target); got != want {
			t.Errorf("locator(%s) = %s, want %s", target, got, want)
		}
	}
	s.record("browser_click", map[string]any{"target": "e3", "element": "the second", "sessionId": "x"}, preLocated{})
	s.record("browser_snapshot", map[string]any{}, preLocated{})
	s.record("browser_hover", map[string]any{"target": "e2"}, preLocated{locators: map[string]string{"e2": `label="Name"`}})
	if len(s.recorded) != 2 || s.recorded[1].Args["target"] != `label="Name"` || s.recorded[0].Action != "click" || s.recorded[0].Args["target"] != `role=button[name="Delete"] >> nth=1` ||
		s.recorded[0].Args["element"] != nil || s.recorded[0].Args["sessionId"] != nil {
		t.Errorf("recorded: %+v", s.recorded)
	}
}

// TestRecordHidesHTTPPassword: an emulation step with HTTP credentials is
// recorded with the password as an environment reference.
func TestRecordHidesHTTPPassword(t *testing.T) {
	s := &Session{}
	s.record("browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": "s3cret"}, preLocated{})
	if len(s.recorded) != 1 || s.recorded[0].Args["httpPassword"] != "${E2E_SECRET_1}" || s.recorded[0].Args["httpUsername"] != "ada" {
		t.Errorf("recorded: %+v", s.recorded)
	}
}

// TestRecordEscapesTexts: every text recorded, at any depth (a fill_form
// field's value, a locator made of an accessible name), replays as it was,
// whatever environment the replay has; only the recorder's own
// ${E2E_SECRET_n} reads the environment.
func TestRecordEscapesTexts(t *testing.T) {
	s := &Session{}
	s.rememberRefs(map[string]browser.RefInfo{"e1": {Role: "button", Name: "Pay $AMOUNT"}}, true)
	s.record("browser_navigate", map[string]any{"url": "/a?ref=$AWS_SECRET_ACCESS_KEY&c=$100"}, preLocated{})
	s.record("browser_type", map[string]any{"target": "#promo", "text": "PROMO-${HOME}$$"}, preLocated{})
	s.record("browser_fill_form", map[string]any{"fields": []any{map[string]any{"target": "#a", "type": "textbox", "value": "$USER"}}}, preLocated{})
	s.record("browser_click", map[string]any{"target": "e1"}, preLocated{})
	s.record("browser_emulate", map[string]any{"httpUsername": "$ada", "httpPassword": "s3cret"}, preLocated{})
	if len(s.recorded) != 5 {
		t.Fatalf("recorded %d steps", len(s.recorded))
	}
	lookup := func(k string) (string, bool) { return "LEAKED-" + k, true }
	want := []map[string]any{
		{"url": "/a?ref=$AWS_SECRET_ACCESS_KEY&c=$100"},
		{"target": "#promo", "text": "PROMO-${HOME}$$"},
		{"fields": []any{map[string]any{"target": "#a", "type": "textbox", "value": "$USER"}}},
		{"target": `role=button[name="Pay $AMOUNT"]`},
		{"httpUsername": "$ada", "httpPassword": "LEAKED-E2E_SECRET_1"},
	}
	for i, st := range s.recorded {
		_, args, err := st.Tool(lookup)
		if err != nil || !reflect.DeepEqual(args, want[i]) {
			t.Errorf("step %d replays as %#v, %v; want %#v", i+1, args, err, want[i])
		}
	}
}
