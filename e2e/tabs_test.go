package e2e

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// mustContain fails the test when out lacks any of want.
func mustContain(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// mustFail calls a tool that must fail with an isError result of type typ,
// and returns its text.
func mustFail(t *testing.T, c *client.Client, tool string, args map[string]any, typ string) string {
	t.Helper()
	res := call(t, c, tool, args)
	out := text(res)
	if !res.IsError || !strings.Contains(out, typ+":") {
		t.Fatalf("%s(%v): want a %s error, got (isError=%v):\n%s", tool, args, typ, res.IsError, out)
	}
	return out
}

// TestTabsAndPopups: popups from window.open and target=_blank join the tab
// list without taking over; a selected popup can be driven, and talks to
// its opener; tabs close by index or by themselves.
func TestTabsAndPopups(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tabs/opener.html"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Open popup")})
	mustContain(t, "click that opens a popup", out, "New tabs opened: 1", "### Open tabs", "- 0: (current) [Opener]", "- 1: [Popup]", "popup.html?via=open")

	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustContain(t, "select the popup", out, "Tab 1 is current.", `heading "Popup"`, "- 1: (current) [Popup]")
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Greeting", "text": "hi there"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Send]"})
	mustContain(t, "click in the popup", out, "Popup says hi there")

	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
	mustContain(t, "back to the opener", out, "- 0: (current) [Opener]")
	// postMessage is delivered to the opener asynchronously.
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Message: hi there", "timeout": 10})

	// target=_blank: a second popup, then one that closes itself.
	snap = mustCall(t, c, "browser_snapshot", nil)
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "New tab link")})
	mustContain(t, "click on a target=_blank link", out, "New tabs opened: 1", "- 2: [Popup]", "via=blank")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 2})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "text=Close me"})
	if strings.Contains(out, "via=blank") {
		t.Errorf("the tab that closed itself is still listed:\n%s", out)
	}
	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "list"})
	mustContain(t, "list after the popup closed itself", out, "- 0: [Opener]", "- 1: (current) [Popup]")

	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "close", "index": 1})
	mustContain(t, "close the popup", out, "Closed tab 1.", `heading "Opener"`)
	if strings.Contains(out, "### Open tabs\n- 0") && strings.Contains(out, "- 1:") {
		t.Errorf("closed tab still listed:\n%s", out)
	}

	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "new", "url": f.URL + "/tabs/history2.html"})
	mustContain(t, "new tab", out, "Opened tab 1.", "- 1: (current) [History two]", `heading "Page two"`)

	mustFail(t, c, "browser_tabs", map[string]any{"action": "select", "index": 7}, "invalid_input")
	out = mustFail(t, c, "browser_tabs", map[string]any{"action": "jump"}, "invalid_input")
	mustContain(t, "unknown action", out, `action: "jump" is not one of`)
}

// TestDialogs: a dialog an action opens is reported in that action's
// response, blocks other tools with dialog_open, and its answer reaches the
// page (the prompt's text too).
func TestDialogs(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tabs/dialogs.html"})
	mustFail(t, c, "browser_handle_dialog", map[string]any{"accept": true}, "invalid_input")

	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Alert]"})
	mustContain(t, "click that opens an alert", out, "### Dialog", `alert dialog is open: "Hello from alert"`, "browser_handle_dialog")
	out = mustFail(t, c, "browser_snapshot", nil, "dialog_open")
	mustContain(t, "snapshot while the alert is open", out, "Hello from alert")
	mustFail(t, c, "browser_click", map[string]any{"target": "role=button[name=Confirm]"}, "dialog_open")
	out = mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": true})
	mustContain(t, "accept the alert", out, `Accepted the alert dialog "Hello from alert"`, "alert done")

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Confirm]"})
	mustContain(t, "confirm", out, `confirm dialog is open: "Delete the item?"`)
	out = mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": false})
	mustContain(t, "dismiss the confirm", out, "Dismissed the confirm dialog", "cancelled")

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Prompt]"})
	mustContain(t, "prompt", out, `prompt dialog is open: "Your name?"`, `default answer "Bob"`)
	out = mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": true, "promptText": "Ada"})
	mustContain(t, "answer the prompt", out, "name=Ada")

	// beforeunload: the page asks before the link leaves it.
	mustCall(t, c, "browser_click", map[string]any{"target": "role=checkbox[name='Unsaved changes']"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name=Leave]"})
	mustContain(t, "leaving with unsaved changes", out, "beforeunload dialog is open")
	mustFail(t, c, "browser_handle_dialog", map[string]any{"accept": true, "promptText": "x"}, "invalid_input")
	out = mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": true})
	mustContain(t, "confirm leaving", out, "- Page Title: History one", `heading "Page one"`)
}

// TestHistoryReloadResize: back and forward through the tab's history,
// reload runs the page again, and resize changes what the page measures.
func TestHistoryReloadResize(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tabs/history1.html"})
	mustContain(t, "first page", out, "Loaded 1 times")
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Next page']"})
	mustContain(t, "click on a link", out, "- Page Title: History two", `heading "Page two"`)
	out = mustCall(t, c, "browser_navigate_back", nil)
	mustContain(t, "back", out, "Went back.", "- Page Title: History one", "Loaded 2 times")
	out = mustCall(t, c, "browser_navigate_forward", nil)
	mustContain(t, "forward", out, "Went forward.", "- Page Title: History two")
	mustFail(t, c, "browser_navigate_forward", nil, "navigation_failed")

	mustCall(t, c, "browser_navigate_back", nil)
	out = mustCall(t, c, "browser_reload", nil)
	mustContain(t, "reload", out, "Reloaded.", "Loaded 4 times")

	out = mustCall(t, c, "browser_resize", map[string]any{"width": 400, "height": 300})
	mustContain(t, "resize", out, "Viewport is 400x300.", "Viewport 400x300")
	mustFail(t, c, "browser_resize", map[string]any{"width": 0, "height": 300}, "invalid_input")
}
