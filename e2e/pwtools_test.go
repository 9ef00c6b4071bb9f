package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTestingGroupAndDrop: browser_generate_locator gives the locator the
// flow recorder writes (and as Playwright code); the verify tools pass and
// fail on what the page shows, and each pass is an expect step; browser_drop
// hands files and data to a drop zone as the browser's own drag events, is
// refused by an element that does not accept drops and for a file outside
// the roots, and records a drop step. The session's flow replays green.
func TestTestingGroupAndDrop(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	roots := t.TempDir()
	note := filepath.Join(roots, "note.txt")
	if err := os.WriteFile(note, []byte("hello note\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("no"), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "E2E_MCP_FILE_ROOTS="+roots)
	c := startClient(t, append(env, "E2E_MCP_CAPS=testing"))
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})

	save := refOf(t, snap, "button", "Save")
	out := mustCall(t, c, "browser_generate_locator", map[string]any{"target": save, "element": "Save button"})
	mustContain(t, "the locator of a ref", out, `role=button[name="Save"]`, `page.getByRole('button', { name: 'Save', exact: true })`)
	out = mustCall(t, c, "browser_generate_locator", map[string]any{"target": "#save"})
	mustContain(t, "a selector stays as written", out, "#save", `page.locator('#save')`)
	mustFail(t, c, "browser_generate_locator", map[string]any{"target": "e9999"}, "ref_not_found")

	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Ada"})
	mustCall(t, c, "browser_click", map[string]any{"target": save})

	out = mustCall(t, c, "browser_verify_element_visible", map[string]any{"role": "button", "accessibleName": "Save"})
	mustContain(t, "a visible button", out, "PASS")
	mustFail(t, c, "browser_verify_element_visible", map[string]any{"role": "button", "accessibleName": "Delete"}, "expect_failed")
	out = mustCall(t, c, "browser_verify_text_visible", map[string]any{"text": "Saved Ada"})
	mustContain(t, "a visible text", out, "PASS")
	mustFail(t, c, "browser_verify_text_visible", map[string]any{"text": "Saved Grace"}, "expect_failed")
	list := `role=list[name="Fruits"]` // lists and regions have no refs
	out = mustCall(t, c, "browser_verify_list_visible", map[string]any{"target": list, "element": "fruits", "items": []string{"Apple", "Cherry"}})
	mustContain(t, "a list's items", out, "PASS")
	mustFail(t, c, "browser_verify_list_visible", map[string]any{"target": list, "items": []string{"Apple", "Durian"}}, "expect_failed")
	name := refOf(t, snap, "textbox", "Name")
	mustCall(t, c, "browser_verify_value", map[string]any{"type": "textbox", "target": name, "element": "name", "value": "Ada"})
	mustFail(t, c, "browser_verify_value", map[string]any{"type": "textbox", "target": name, "value": "Grace"}, "expect_failed")
	terms := refOf(t, snap, "checkbox", "Accept terms")
	mustCall(t, c, "browser_verify_value", map[string]any{"type": "checkbox", "target": terms, "value": "false"})
	mustFail(t, c, "browser_verify_value", map[string]any{"type": "checkbox", "target": terms, "value": "yes"}, "invalid_input")

	// Files alone, and texts alone, come as the browser's own drag; both
	// together as events made in the page (Chromium's drag carries one or
	// the other).
	zone := `role=region[name="Drop zone"]`
	out = mustCall(t, c, "browser_drop", map[string]any{"target": zone, "paths": []string{note}})
	mustContain(t, "a file dropped", out, `Dropped: file note.txt (hello note) trusted=true`)
	out = mustCall(t, c, "browser_drop", map[string]any{"target": zone, "data": map[string]string{"text/plain": "only data", "text/uri-list": "https://example.com/"}})
	mustContain(t, "texts dropped", out, `Dropped: text/plain=only data; text/uri-list=https://example.com/ trusted=true`)
	out = mustCall(t, c, "browser_drop", map[string]any{"target": zone, "paths": []string{note}, "data": map[string]string{"text/plain": "hi there"}})
	mustContain(t, "a file and a text dropped", out, `Dropped: file note.txt (hello note); text/plain=hi there trusted=false`)
	mustFail(t, c, "browser_drop", map[string]any{"target": "#plain", "data": map[string]string{"text/plain": "x"}}, "not_actionable")
	mustFail(t, c, "browser_drop", map[string]any{"target": "#zone", "paths": []string{outside}}, "not_allowed")
	mustFail(t, c, "browser_drop", map[string]any{"target": "#zone"}, "invalid_input")

	flows := filepath.Join(roots, "flows")
	if err := os.Mkdir(flows, 0o700); err != nil {
		t.Fatal(err)
	}
	_, flow := exportAndReplay(t, c, env, flows, "pwtools")
	for _, want := range []string{
		"- expect:\n      check: visible\n      target: role=button[name=\"Save\"]\n",
		"- expect:\n      check: visible\n      target: text=Saved Ada >> visible=true\n",
		"- expect:\n      check: text\n      expected: Apple\n      target: role=list[name=\"Fruits\"]\n",
		"- expect:\n      check: text\n      expected: Cherry\n      target: role=list[name=\"Fruits\"]\n",
		"- expect:\n      check: value\n      expected: Ada\n      target: role=textbox[name=\"Name\"]\n",
		"- expect:\n      check: unchecked\n      target: role=checkbox[name=\"Accept terms\"]\n",
		// The file lay outside the flow's directory: copied beside it.
		"- drop:\n      data:\n        text/plain: hi there\n      paths:\n        - pwtools.files/note.txt\n      target: role=region[name=\"Drop zone\"]\n",
	} {
		if !strings.Contains(flow, want) {
			t.Errorf("the flow lacks %q:\n%s", want, flow)
		}
	}
	if strings.Contains(flow, "Durian") || strings.Contains(flow, "Grace") {
		t.Errorf("a failed check was recorded:\n%s", flow)
	}
	spec := mustCall(t, c, "session_export_flow", map[string]any{"format": "playwright"})
	mustContain(t, "the drop in Playwright", spec, "await page.getByRole('region', { name: 'Drop zone', exact: true }).drop({ files: ['"+note+"'], data: { 'text/plain': 'hi there' } });")
}

// TestHighlightMouseButtonsAndConfig: a highlight is an overlay over the
// element that snapshots and visual checks do not see, and hiding removes it; the mouse
// pressed, moved and released at coordinates reaches the page as a drag
// with its buttons; browser_get_config shows the effective settings (in
// Playwright MCP's config object, ours under "e2e-mcp") with the
// credentials masked.
func TestHighlightMouseButtonsAndConfig(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=devtools,vision,config", "E2E_MCP_AUTH_TOKEN=tok-secret-31", "E2E_MCP_ACTION_TIMEOUT=7s",
		"E2E_MCP_FILE_ROOTS="+t.TempDir()))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})
	// A visual check's baseline, before any highlight.
	shot := map[string]any{"check": "screenshot", "target": "#save", "expected": "save-button"}
	mustCall(t, c, "browser_expect", shot)

	overlays := `JSON.stringify([...document.querySelectorAll('div[aria-hidden=true]')].map((d) => { const r = d.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }))`
	mustCall(t, c, "browser_highlight", map[string]any{"target": "#save", "element": "Save", "style": "background: black"})
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => " + overlays})
	mustContain(t, "an overlay over the button", out, "[[20,110,100,40]]")
	// A highlight is for the person watching: a visual check does not see it.
	mustContain(t, "the visual check under a highlight", mustCall(t, c, "browser_expect", shot), "PASS")
	mustCall(t, c, "browser_highlight", map[string]any{"target": "#name"})
	snap := mustCall(t, c, "browser_snapshot", nil)
	if strings.Count(snap, "[ref=") != strings.Count(mustCall(t, c, "browser_snapshot", nil), "[ref=") || strings.Contains(snap, "generic [ref") {
		t.Errorf("the overlays show in the snapshot:\n%s", snap)
	}
	out = mustCall(t, c, "browser_hide_highlight", map[string]any{"target": "#save"})
	mustContain(t, "one highlight gone", out, "Removed 1 highlight.")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => " + overlays})
	mustContain(t, "the name's overlay stays", out, "[[20,20,")
	out = mustCall(t, c, "browser_hide_highlight", nil)
	mustContain(t, "every highlight gone", out, "Removed 1 highlight.")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => " + overlays})
	mustContain(t, "no overlay left", out, "[]")

	// The pad starts at (300, 20).
	mustCall(t, c, "browser_mouse_move_xy", map[string]any{"x": 350, "y": 60})
	out = mustCall(t, c, "browser_mouse_down", nil)
	mustContain(t, "the left button pressed", out, "down 0 at 50,40")
	out = mustCall(t, c, "browser_mouse_move_xy", map[string]any{"x": 360, "y": 70})
	mustContain(t, "a move with the button held", out, "drag buttons=1 at 60,50")
	out = mustCall(t, c, "browser_mouse_up", nil)
	mustContain(t, "the left button released", out, "up 0 at 60,50")
	out = mustCall(t, c, "browser_mouse_down", map[string]any{"button": "right"})
	mustContain(t, "the right button pressed", out, "down 2 at 60,50")
	mustCall(t, c, "browser_mouse_up", map[string]any{"button": "right"})
	mustFail(t, c, "browser_mouse_down", map[string]any{"button": "thumb"}, "invalid_input")

	out = mustCall(t, c, "browser_get_config", nil)
	cfg := resultJSON(t, out)
	for key, want := range map[string]string{
		"timeouts.action": `7000`, "capabilities": `["devtools","vision","config"]`,
		"e2e-mcp.auth-token": `"•••"`, "e2e-mcp.caps-on": `["config","devtools","vision"]`,
	} {
		if got := configAt(cfg, key); got != want {
			t.Errorf("browser_get_config: %s = %s, want %s", key, got, want)
		}
	}
	if strings.Contains(out, "tok-secret-31") {
		t.Errorf("the config shows the token:\n%s", out)
	}
}

// TestPersonRecording: what a person does in the browser (real input: clicks
// at coordinates, typing, keys) between browser_start_recording and
// browser_stop_recording comes back as flow steps with the locators the
// agent's own recording writes, across a navigation; what the page's
// scripts dispatch is not the person; format playwright gives the code.
func TestPersonRecording(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=devtools,vision,testing"))
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})
	agentName := mustCall(t, c, "browser_generate_locator", map[string]any{"target": refOf(t, snap, "textbox", "Name")})
	mustFail(t, c, "browser_stop_recording", nil, "invalid_input")

	mustCall(t, c, "browser_start_recording", nil)
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 100, "y": 35}) // into the name field
	mustCall(t, c, "browser_type", map[string]any{"target": "#name", "text": "Grace"})
	mustCall(t, c, "browser_press_key", map[string]any{"key": "Enter"})
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 30, "y": 80}) // the checkbox
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => document.getElementById('save').click()"})
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 70, "y": 130}) // Save
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 50, "y": 410}) // the link to the next page
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Done"})
	out := mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 60, "y": 40}) // Done, on the next page
	mustContain(t, "the second page's button", out, "All done")
	out = mustCall(t, c, "browser_stop_recording", nil)

	loc := regexp.MustCompile(`role=textbox\[name="Name"\]`).FindString(agentName)
	if loc == "" {
		t.Fatalf("the agent's locator of the name field: %s", agentName)
	}
	want := "  - type:\n      target: " + loc + "\n      text: Grace\n" +
		"  - press: Enter\n" +
		"  - check: role=checkbox[name=\"Accept terms\"]\n" +
		"  - click: role=button[name=\"Save\"]\n" +
		"  - click: role=link[name=\"Next page\"]\n" +
		"  - click: role=button[name=\"Done\"]\n"
	if !strings.Contains(out, want) {
		t.Fatalf("the person's steps are not these:\n%s\ngot:\n%s", want, out)
	}
	if strings.Count(out, "- click: role=button[name=\"Save\"]") != 1 {
		t.Errorf("the page's own click counts as the person's:\n%s", out)
	}
	flow := mustCall(t, c, "session_export_flow", nil)
	mustContain(t, "the demonstration in the session's flow", flow, "- click: role=button[name=\"Done\"]")

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})
	mustCall(t, c, "browser_start_recording", nil)
	mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 70, "y": 130})
	out = mustCall(t, c, "browser_stop_recording", map[string]any{"format": "playwright"})
	mustContain(t, "the demonstration as Playwright code", out, "await page.getByRole('button', { name: 'Save', exact: true }).click();")
}
