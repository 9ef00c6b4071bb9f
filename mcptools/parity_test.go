package mcptools

import (
	"slices"
	"strings"
	"testing"
)

// playwrightMCPTools are the tools Playwright MCP lists with every
// capability group on (@playwright/mcp on playwright-core 1.65: the tools
// of packages/playwright-core/src/tools/backend that are not skillOnly),
// by its group.
var playwrightMCPTools = map[string][]string{
	"core": {"browser_click", "browser_close", "browser_console_messages", "browser_drag", "browser_drop",
		"browser_emulate_media", "browser_evaluate", "browser_file_upload", "browser_fill_form", "browser_find",
		"browser_handle_dialog", "browser_hover", "browser_network_request", "browser_network_requests",
		"browser_resize", "browser_run_code_unsafe", "browser_select_option", "browser_snapshot",
		"browser_take_screenshot", "browser_wait_for"},
	"core-input":      {"browser_press_key", "browser_type"},
	"core-navigation": {"browser_navigate", "browser_navigate_back"},
	"core-tabs":       {"browser_tabs"},
	"config":          {"browser_get_config"},
	"devtools": {"browser_annotate", "browser_hide_highlight", "browser_highlight", "browser_resume",
		"browser_start_recording", "browser_stop_recording", "browser_start_tracing", "browser_stop_tracing",
		"browser_start_video", "browser_stop_video", "browser_video_chapter", "browser_video_hide_actions",
		"browser_video_show_actions"},
	"network": {"browser_network_state_set", "browser_route", "browser_route_list", "browser_unroute"},
	"pdf":     {"browser_pdf_save"},
	"storage": {"browser_cookie_clear", "browser_cookie_delete", "browser_cookie_get", "browser_cookie_list",
		"browser_cookie_set", "browser_localstorage_clear", "browser_localstorage_delete", "browser_localstorage_get",
		"browser_localstorage_list", "browser_localstorage_set", "browser_sessionstorage_clear",
		"browser_sessionstorage_delete", "browser_sessionstorage_get", "browser_sessionstorage_list",
		"browser_sessionstorage_set", "browser_set_storage_state", "browser_storage_state"},
	"testing": {"browser_generate_locator", "browser_verify_element_visible", "browser_verify_list_visible",
		"browser_verify_text_visible", "browser_verify_value"},
	"vision": {"browser_mouse_click_xy", "browser_mouse_down", "browser_mouse_drag_xy", "browser_mouse_move_xy",
		"browser_mouse_up", "browser_mouse_wheel"},
}

// leftOut are the Playwright MCP tools e2e-mcp does not offer, as the
// docs/tools.md says: Playwright code run as it is, the Playwright Dashboard, and
// Playwright's script debugger.
var leftOut = []string{"browser_run_code_unsafe", "browser_annotate", "browser_resume"}

// TestPlaywrightMCPParity: with --caps all, tools/list holds every tool
// Playwright MCP lists with all its groups on, under the same name, except
// those docs/tools.md names as left out.
func TestPlaywrightMCPParity(t *testing.T) {
	ours := map[string]bool{}
	for _, tool := range Offered(Inventory(nil), CapGroups) {
		ours[tool.Def.Name] = true
	}
	n := 0
	for group, names := range playwrightMCPTools {
		for _, name := range names {
			n++
			switch {
			case slices.Contains(leftOut, name):
				if ours[name] {
					t.Errorf("%s is offered, but docs/tools.md names it as left out", name)
				}
			case !ours[name]:
				t.Errorf("Playwright MCP's %s (its %s group) is not offered with --caps all", name, group)
			}
		}
	}
	if n < 70 {
		t.Errorf("the table has %d tools: it is not Playwright MCP's whole list", n)
	}
}

// coreElsewhere are the tools of Playwright MCP's core groups that are in
// a capability group here, each with why.
var coreElsewhere = map[string]string{
	"browser_emulate_media": "--caps emulation: few sessions need it, and the default tools/list has a byte budget",
}

// TestPlaywrightMCPCore: every tool Playwright MCP offers by default (its
// core groups) is in the default tools/list here too, unless left out or
// named in coreElsewhere: an agent used to theirs finds its tools without
// flags (issue 39: browser_drop was in a group of its own).
func TestPlaywrightMCPCore(t *testing.T) {
	ours := map[string]bool{}
	for _, tool := range Offered(Inventory(nil), nil) {
		ours[tool.Def.Name] = true
	}
	for group, names := range playwrightMCPTools {
		if group != "core" && !strings.HasPrefix(group, "core-") {
			continue
		}
		for _, name := range names {
			_, elsewhere := coreElsewhere[name]
			switch {
			case slices.Contains(leftOut, name):
			case elsewhere && ours[name]:
				t.Errorf("%s is in the default tools/list: take it out of coreElsewhere", name)
			case !elsewhere && !ours[name]:
				t.Errorf("Playwright MCP's %s (its %s group) is not in the default tools/list", name, group)
			}
		}
	}
}
