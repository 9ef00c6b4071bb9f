package mcptools

import "github.com/e2e-mcp/e2e-mcp/browser"

// nextSteps words the next steps the browser package names (browser.Step)
// in terms of this server's tools. The browser knows nothing of MCP; the
// words that name tools live here, in one table.
var nextSteps = map[browser.Step]string{
	browser.StepSnapshot:      "take a new snapshot (browser_snapshot) and use a ref from it",
	browser.StepAnswerDialog:  "answer it with browser_handle_dialog (accept true or false; promptText for a prompt)",
	browser.StepLeaveHungPage: "browser_navigate or browser_reload stops the script and loads a page (cookies are kept); browser_tabs action=close closes the tab",
	browser.StepClickOrKeys:   "use browser_click or browser_press_key on it",
	browser.StepPressKeys:     "press keys with browser_press_key",
	browser.StepOpenChooser:   "click what opens the file chooser first (browser_click), or give target: the <input type=file>",
	browser.StepAnswerChooser: "answer it with browser_file_upload (paths; without paths it is cancelled)",
	browser.StepNavigate:      "navigate to a URL instead (browser_navigate)",
	browser.StepListTabs:      "list the tabs with browser_tabs action=list and use an index from it",
	browser.StepCrashedTab:    "call again: the crashed tab is closed and the call works in the current tab (browser_tabs lists them); navigate back to the page",
	browser.StepTabClosed:     "list the tabs with browser_tabs and select one, or navigate: a blank tab is opened",
}

// nextOf is the Next: text of a browser error: its step in this server's
// words, then its plain hint.
func nextOf(be *browser.Error) string {
	step := nextSteps[be.Step]
	switch {
	case step == "":
		return be.Hint
	case be.Hint == "":
		return step
	}
	return step + "; " + be.Hint
}
