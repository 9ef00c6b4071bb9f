//go:build widgets

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The agent tasks of make widgets-check (widgets_check_test.go), on the
// widget app of scripts/widgets: each works as an agent does, reading the
// snapshot's text for refs and names, acting, reading the answer, and
// checking the app's own state where the app shows it (browser_expect and
// browser_verify_*, which become the flow's assertions).

// widgetKnown lists the phases of tasks that do not pass today, with the
// reason and a text their failure holds. A listed phase that passes fails
// the test: take it off the list.
var widgetKnown = map[string]map[string]knownFailure{
	// e2e-mcp counts a hit on the target's <label> as a hit on the target;
	// Playwright does not: a visually hidden input under its label's
	// decoration passes in the session and times out in the spec.
	"react-aria-switch-number": {
		phasePW: {reason: "React Aria's Switch: the hidden <input role=switch> is under its indicator; Playwright's check() waits: \"<div class=indicator> intercepts pointer events\"", match: "intercepts pointer events"},
	},
	// The spec presses the next key as soon as the page says the item is
	// picked up; dnd-kit sometimes ignores it (1 run in 30 or so here, under
	// load): the session and the replay, slower, always pass.
	"dndkit-keyboard": {
		phasePW: {reason: "dnd-kit's keyboard sensor now and then ignores the ArrowUp the spec presses right after the pick-up (live region and aria-pressed already say picked up)", match: "was moved over droppable area Write the tests", flaky: true},
	},
	"shoelace-form": {
		phasePW: {reason: "sl-checkbox: the hidden input is under its control span; Playwright's check() waits: \"intercepts pointer events\"", match: "intercepts pointer events"},
	},
}

// open navigates to a page of the app and waits for its heading, as an
// agent does when the answer shows the route still loading (the app splits
// its routes: the navigation ends before the page's code has come).
func (a *agent) open(path, heading string) string {
	out := a.do("browser_navigate", map[string]any{"url": a.app.URL + path})
	if !strings.Contains(out, `heading "`+heading+`"`) {
		a.do("browser_wait_for", map[string]any{"target": `role=heading[name="` + heading + `"]`})
		out = a.snapshot()
	}
	return out
}

// click clicks the element of a role and name in a snapshot and returns
// the answer.
func (a *agent) click(snap, role, name string) string {
	return a.do("browser_click", map[string]any{"target": a.ref(snap, role, name)})
}

// typeInto types text into the element of a role and name.
func (a *agent) typeInto(snap, role, name, text string, more ...map[string]any) string {
	args := map[string]any{"target": a.ref(snap, role, name), "text": text}
	for _, m := range more {
		for k, v := range m {
			args[k] = v
		}
	}
	return a.do("browser_type", args)
}

// press presses a key in the focused element.
func (a *agent) press(key string) string {
	return a.do("browser_press_key", map[string]any{"key": key})
}

// block is the part of a snapshot under the first line matching head whose
// block holds text: a row of a grid, a card.
func (a *agent) block(snap, head, holds string) string {
	lines := strings.Split(snap, "\n")
	re := regexp.MustCompile(head)
	for i, l := range lines {
		if !re.MatchString(l) {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		j := i + 1
		for j < len(lines) && len(lines[j])-len(strings.TrimLeft(lines[j], " ")) > indent {
			j++
		}
		b := strings.Join(lines[i:j], "\n")
		if strings.Contains(b, holds) {
			return b
		}
	}
	a.failf("no block %s holding %q in the snapshot:\n%s", head, holds, clip(snap, 4000))
	return ""
}

// signIn signs in on the sign-in page (signing out first when the session
// already is) and returns the dashboard's snapshot.
func (a *agent) signIn(email, password string) string {
	snap := a.open("/signin", "Sign in")
	if strings.Contains(snap, `button "Sign out"`) {
		a.click(snap, "button", "Sign out")
		snap = a.snapshot()
	}
	a.typeInto(snap, "textbox", "Email", email)
	a.typeInto(snap, "textbox", "Password", password)
	a.click(snap, "button", "Sign in")
	a.do("browser_wait_for", map[string]any{"target": `role=heading[name="Dashboard"]`})
	return a.snapshot()
}

// shortcutsAfterSignIn: sign in with a word for a password, press ? and
// find the dialog by its name in the snapshot (issue 37 item 1: a typed
// word was masked inside the page's words, "Keyboard •••cuts").
func shortcutsAfterSignIn(password string) func(a *agent) {
	return func(a *agent) {
		a.signIn("ada@example.com", password)
		out := a.press("?")
		snap := a.snapshot()
		a.see("the snapshot after ?", snap, `dialog "Keyboard shortcuts"`, `heading "Keyboard shortcuts"`, "Show the keyboard shortcuts")
		_ = out
		a.do("browser_verify_element_visible", map[string]any{"role": "dialog", "accessibleName": "Keyboard shortcuts"})
		a.click(snap, "button", "Close")
		a.do("browser_expect", map[string]any{"target": `role=dialog[name="Keyboard shortcuts"]`, "check": "hidden"})
	}
}

func widgetTasks() []widgetTask {
	return []widgetTask{
		{name: "shortcuts-after-signin-short", lib: "Radix Dialog, shortcut", secret: "short",
			does: "signs in with the password short, presses ?, reads the Keyboard shortcuts dialog in the snapshot, closes it",
			run:  shortcutsAfterSignIn("short")},
		{name: "shortcuts-after-signin-Password1", lib: "Radix Dialog, shortcut", secret: "Password1",
			does: "signs in with Password1, presses ?, reads the Keyboard shortcuts dialog, closes it",
			run:  shortcutsAfterSignIn("Password1")},
		{name: "dashboard-after-signin-test", lib: "react-router, sign-in", secret: "test",
			does: "signs in with the password test and reads that the latest tests passed",
			run: func(a *agent) {
				snap := a.signIn("grace@example.com", "test")
				a.see("the dashboard", snap, "The latest tests passed: 128 of 128")
				a.verifyText("The latest tests passed")
			}},
		{name: "admin-after-signin-admin", lib: "react-router, sign-in", secret: "admin",
			does: "signs in with the password admin, opens the Admin link of the snapshot, reads the admin page",
			run: func(a *agent) {
				snap := a.signIn("ada@example.com", "admin")
				a.see("the dashboard", a.block(snap, `- link "Admin"`, ""), "/url: /admin")
				a.click(snap, "link", "Admin")
				snap = a.snapshot()
				a.see("the admin page", snap, `heading "Admin" [level=1]`, "Admin tools: 3 users", "You are an admin of both teams.")
				a.do("browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "Admin"})
			}},
		{name: "password-page-after-signin-password", lib: "react-router, sign-in", secret: "password",
			does: "signs in with the password password, follows Change your password here, asks for a reset link",
			run: func(a *agent) {
				snap := a.signIn("linus@example.com", "password")
				a.click(snap, "link", "Change your password here")
				snap = a.snapshot()
				a.see("the password page", snap, `heading "Password settings"`, "Change your password here.")
				a.click(snap, "button", "Send me a reset link")
				a.verifyText("A reset link is on its way")
			}},
		{name: "shortcuts-dialog-keyboard", lib: "Radix Dialog, shortcut",
			does: "presses ? on the home page, reads the dialog, closes it with Escape",
			run: func(a *agent) {
				a.open("/", "Widget lab")
				a.press("?")
				snap := a.snapshot()
				a.see("the snapshot after ?", snap, `dialog "Keyboard shortcuts"`, "Show the keyboard shortcuts")
				a.press("Escape")
				a.do("browser_expect", map[string]any{"target": `role=dialog[name="Keyboard shortcuts"]`, "check": "hidden"})
			}},
		{name: "lexical-markdown-slowly", lib: "Lexical (markdown shortcuts)",
			does: "types # heading, a line and - list items with slowly into the editor, which has no focus; reads a heading and a list",
			run: func(a *agent) {
				snap := a.open("/editors/lexical", "Release notes")
				out := a.typeInto(snap, "textbox", "Release notes editor", "# Version 2.1\nFixed the login bug\n- Faster search\nSmaller bundle",
					map[string]any{"slowly": true})
				_ = out
				snap = a.snapshot()
				editor := a.block(snap, `- textbox "Release notes editor"`, "")
				a.see("the editor", editor, `heading "Version 2.1"`, "Fixed the login bug", "listitem", "Faster search", "Smaller bundle")
				a.do("browser_expect", map[string]any{"target": `role=textbox[name="Release notes editor"] >> role=heading[name="Version 2.1"]`, "check": "visible"})
				a.do("browser_expect", map[string]any{"target": `role=textbox[name="Release notes editor"] >> role=listitem`, "check": "count", "expected": "2"})
				a.verifyText("- Faster search")
			}},
		{name: "lexical-bold", lib: "Lexical (toolbar)",
			does: "types a line, selects it with the keyboard, makes it bold with the toolbar; reads the markdown",
			run: func(a *agent) {
				snap := a.open("/editors/lexical", "Release notes")
				a.typeInto(snap, "textbox", "Release notes editor", "Ship it today")
				a.press("ControlOrMeta+a")
				a.click(snap, "button", "Bold")
				a.verifyText("**Ship it today**")
			}},
		{name: "tiptap-heading-list", lib: "TipTap (StarterKit)",
			does: "replaces the text, makes it a heading, adds a bullet item; reads the HTML",
			run: func(a *agent) {
				snap := a.open("/editors/tiptap", "Meeting notes")
				a.typeInto(snap, "textbox", "Meeting notes editor", "Weekly sync")
				a.click(snap, "button", "Heading")
				a.press("End")
				a.press("Enter")
				a.click(snap, "button", "Bullet list")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "textbox", "Meeting notes editor"), "text": "Budget review", "slowly": true})
				a.verifyText("<h2>Weekly sync</h2><ul><li><p>Budget review</p></li></ul>")
				a.verifyText("Words: 4")
			}},
		{name: "tiptap-bold-keys", lib: "TipTap (StarterKit)",
			does: "clicks at the end of the line, types bold text with Control+B",
			run: func(a *agent) {
				snap := a.open("/editors/tiptap", "Meeting notes")
				a.click(snap, "textbox", "Meeting notes editor")
				a.press("ControlOrMeta+End")
				a.press("ControlOrMeta+b")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "textbox", "Meeting notes editor"), "text": " at 10", "slowly": true})
				a.verifyText("<p>Agenda for Monday<strong> at 10</strong></p>")
			}},
		{name: "codemirror-type", lib: "CodeMirror 6",
			does: "clicks into the editor, goes to the end, types a line slowly; reads the script",
			run: func(a *agent) {
				snap := a.open("/editors/codemirror", "Script")
				a.click(snap, "textbox", "Script editor")
				a.press("ControlOrMeta+End")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "textbox", "Script editor"), "text": "total += 42", "slowly": true})
				a.press("Escape") // the completion popup, if any
				a.verifyText("Lines: 2")
				a.expectText(`role=textbox[name="Script editor"]`, "total += 42")
			}},
		{name: "slate-type", lib: "Slate",
			does: "types slowly into the editor without focusing it first (Playwright's pressSequentially: at its start), then at the end of its line",
			run: func(a *agent) {
				snap := a.open("/editors/slate", "Meeting notes")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "textbox", "Meeting notes editor"), "text": "Draft: ", "slowly": true})
				a.verifyText("Draft: Agenda")
				a.press("End")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "textbox", "Meeting notes editor"), "text": " for Monday", "slowly": true})
				a.verifyText("Draft: Agenda for Monday")
				a.verifyText("Words: 4")
			}},
		{name: "quill-type", lib: "Quill",
			does: "replaces the editor's text, selects it all and makes it bold with the keys; reads the text and its bold runs",
			run: func(a *agent) {
				snap := a.open("/editors/quill", "Announcement")
				a.typeInto(snap, "textbox", "Announcement editor", "Launch on Friday")
				a.verifyText("Launch on Friday")
				a.press("ControlOrMeta+A")
				a.press("ControlOrMeta+B")
				a.verifyText("Bold runs: 1")
			}},
		{name: "monaco-type", lib: "Monaco",
			does: "clicks into the editor, goes to the end, types a WHERE clause slowly; reads the query",
			run: func(a *agent) {
				snap := a.open("/editors/monaco", "Query")
				a.see("the page", snap, `textbox "Query editor"`)
				// The snapshot gives the editor's textbox no ref: Monaco's
				// input (an EditContext) has no size. The click says so; the
				// agent clicks the code view that holds it instead.
				if out, isErr := a.call("browser_click", map[string]any{"target": `role=textbox[name="Query editor"]`}); !isErr {
					a.failf("a click on Monaco's zero-size input succeeded: %s", out)
				}
				a.do("browser_click", map[string]any{"target": "role=code"})
				a.press("ControlOrMeta+End")
				a.do("browser_type", map[string]any{"target": `role=textbox[name="Query editor"]`, "text": " WHERE active = 1", "slowly": true})
				a.press("Escape") // the suggestions, if any
				a.verifyText("Query: SELECT name FROM users WHERE active = 1")
			}},
		{name: "radix-dialog-profile", lib: "Radix Dialog",
			does: "opens Edit profile, types a name into the dialog, saves",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.click(snap, "button", "Edit profile")
				snap = a.snapshot()
				a.see("the dialog", snap, `dialog "Edit profile"`)
				a.typeInto(snap, "textbox", "Name", "Ada Lovelace")
				a.click(snap, "button", "Save changes")
				a.verifyText("Profile name: Ada Lovelace")
			}},
		{name: "radix-dropdown-menu", lib: "Radix DropdownMenu",
			does: "opens Options, picks Duplicate; opens it again, ticks Show bookmarks",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.click(snap, "button", "Options")
				menu := a.snapshot()
				a.click(menu, "menuitem", "Duplicate")
				a.verifyText("Last action: Duplicate")
				a.click(snap, "button", "Options")
				menu = a.snapshot()
				a.click(menu, "menuitemcheckbox", "Show bookmarks")
				a.verifyText("Bookmarks bar: shown")
			}},
		{name: "radix-select-fruit", lib: "Radix Select",
			does: "opens the Fruit select and picks Banana",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.click(snap, "combobox", "Fruit")
				list := a.snapshot()
				a.click(list, "option", "Banana")
				a.verifyText("Selected fruit: Banana")
				a.do("browser_expect", map[string]any{"target": `role=combobox[name="Fruit"]`, "check": "text", "expected": "Banana"})
			}},
		{name: "radix-tabs", lib: "Radix Tabs",
			does: "opens the Password tab and reads its panel",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.click(snap, "tab", "Password")
				snap = a.snapshot()
				a.see("the tab panel", snap, `tabpanel "Password"`, "After saving, you will be logged out.")
				a.verifyText("Active tab: password")
			}},
		{name: "radix-tooltip", lib: "Radix Tooltip",
			does: "hovers the + button, reads its tooltip, clicks it",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.do("browser_hover", map[string]any{"target": a.ref(snap, "button", "Add")})
				a.do("browser_wait_for", map[string]any{"target": "role=tooltip"})
				a.see("the snapshot after hovering", a.snapshot(), `tooltip "Add to library"`)
				a.click(snap, "button", "Add")
				a.verifyText("In library: yes")
			}},
		{name: "radix-popover", lib: "Radix Popover",
			does: "opens Dimensions, types a width in the popover, closes it with Escape",
			run: func(a *agent) {
				snap := a.open("/radix", "Radix primitives")
				a.click(snap, "button", "Dimensions")
				pop := a.snapshot()
				a.typeInto(pop, "textbox", "Width", "300px")
				a.press("Escape")
				a.verifyText("Width: 300px")
			}},
		{name: "mui-autocomplete", lib: "MUI Autocomplete",
			does: "types part of a film's name, picks the option from the list",
			run: func(a *agent) {
				snap := a.open("/mui", "MUI pickers")
				a.typeInto(snap, "combobox", "Movie", "Inc", map[string]any{"slowly": true})
				list := a.snapshot()
				a.click(list, "option", "Inception")
				a.verifyText("Selected movie: Inception (2010)")
			}},
		{name: "mui-datepicker-calendar", lib: "MUI X DatePicker (dayjs)",
			does: "opens the calendar with Choose date, picks the 15th",
			run: func(a *agent) {
				snap := a.open("/mui", "MUI pickers")
				a.click(snap, "button", "Choose date")
				cal := a.snapshot()
				a.see("the calendar", cal, "March 2025")
				a.click(cal, "gridcell", "15")
				a.verifyText("Start date: 2025-03-15")
			}},
		{name: "mui-datepicker-typed", lib: "MUI X DatePicker (dayjs)",
			does: "types a date into the month, day and year sections",
			run: func(a *agent) {
				snap := a.open("/mui", "MUI pickers")
				a.click(snap, "spinbutton", "Month")
				a.do("browser_type", map[string]any{"target": a.ref(snap, "spinbutton", "Month"), "text": "04172025", "slowly": true})
				a.verifyText("Start date: 2025-04-17")
			}},
		{name: "headless-combobox", lib: "Headless UI Combobox",
			does: "types part of a name into Assignee, picks the option",
			run: func(a *agent) {
				snap := a.open("/headless", "Headless UI")
				a.typeInto(snap, "combobox", "Assignee", "wa", map[string]any{"slowly": true})
				list := a.snapshot()
				a.click(list, "option", "Wade Cooper")
				a.verifyText("Assignee: Wade Cooper")
			}},
		{name: "headless-listbox", lib: "Headless UI Listbox",
			does: "opens the Status listbox by its button and picks In review",
			run: func(a *agent) {
				snap := a.open("/headless", "Headless UI")
				a.do("browser_click", map[string]any{"target": a.refMatch(snap, `- button "Status[^"]*"`)})
				list := a.snapshot()
				a.click(list, "option", "In review")
				a.verifyText("Status: In review")
			}},
		{name: "react-aria-select", lib: "React Aria Select",
			does: "opens Favorite animal and picks Kangaroo",
			run: func(a *agent) {
				snap := a.open("/aria", "React Aria")
				a.do("browser_click", map[string]any{"target": a.refMatch(snap, `- button "[^"]*Favorite animal"`)})
				list := a.snapshot()
				a.click(list, "option", "Kangaroo")
				a.verifyText("Animal: kangaroo")
			}},
		{name: "react-aria-switch-number", lib: "React Aria Switch, NumberField",
			does: "turns on Low power mode, adds two tickets with the + button",
			run: func(a *agent) {
				snap := a.open("/aria", "React Aria")
				a.do("browser_check", map[string]any{"target": a.ref(snap, "switch", "Low power mode")})
				a.verifyText("Low power: on")
				a.click(snap, "button", "Increase Tickets")
				a.click(snap, "button", "Increase Tickets")
				a.verifyText("Tickets: 3")
				a.do("browser_verify_value", map[string]any{"target": a.ref(snap, "textbox", "Tickets"), "type": "textbox", "value": "3"})
			}},
		{name: "react-select-single", lib: "react-select",
			does: "types part of a flavour, presses Enter",
			run: func(a *agent) {
				snap := a.open("/react-select", "Ice cream")
				a.typeInto(snap, "combobox", "Flavour", "choc", map[string]any{"slowly": true})
				a.see("the menu", a.snapshot(), `option "Chocolate"`)
				a.press("Enter")
				a.verifyText("Flavour: Chocolate")
			}},
		{name: "react-select-multi", lib: "react-select (multi)",
			does: "removes a topping with its x, adds one from the menu",
			run: func(a *agent) {
				snap := a.open("/react-select", "Ice cream")
				a.click(snap, "button", "Remove Nuts")
				snap = a.snapshot()
				a.click(snap, "combobox", "Toppings")
				list := a.snapshot()
				a.click(list, "option", "Whipped cream")
				a.verifyText("Toppings: Sprinkles, Whipped cream")
			}},
		{name: "aggrid-sort-edit-save", lib: "AG Grid",
			does: "sorts by Price, edits a price by double click, saves",
			run: func(a *agent) {
				snap := a.open("/grid", "Cars")
				a.click(snap, "columnheader", "Price")
				a.verifyText("Sorted by: price asc")
				snap = a.snapshot()
				a.do("browser_click", map[string]any{"target": a.ref(snap, "gridcell", "15774"), "doubleClick": true})
				snap = a.snapshot()
				cell := a.block(snap, `- gridcell "15774"`, "textbox")
				a.do("browser_type", map[string]any{"target": a.refMatch(cell, `- textbox`), "text": "16500", "submit": true})
				snap = a.snapshot()
				a.see("the grid", snap, `gridcell "16500"`)
				a.click(snap, "button", "Save changes")
				a.verifyText("Saved: 1 row (500 16500)")
			}},
		{name: "aggrid-select-rows", lib: "AG Grid",
			does: "ticks the checkboxes of two rows it finds by their cells",
			run: func(a *agent) {
				snap := a.open("/grid", "Cars")
				// The lower row first: the recorded index of the upper one
				// does not depend on whether the lower is ticked yet.
				for _, car := range []string{"EQA", "Model Y"} {
					row := a.block(snap, `^\s*- row \[ref=`, `gridcell "`+car+`"`)
					a.do("browser_check", map[string]any{"target": a.refMatch(row, `- checkbox "Press Space to toggle row selection`)})
				}
				a.verifyText("Selected: EQA, Model Y")
			}},
		{name: "tanstack-table-filter-sort", lib: "TanStack Table",
			does: "filters by a word, sorts by Age twice (descending), reads the first row",
			run: func(a *agent) {
				snap := a.open("/table", "People")
				a.typeInto(snap, "textbox", "Search people", "Orbits")
				// A click on a header cycles its sort: the agent clicks until
				// the table says it is sorted the way it wants.
				for i := 0; ; i++ {
					a.click(snap, "button", "Age")
					if strings.Contains(a.snapshot(), "sorted by age descending") {
						break
					}
					if i == 2 {
						a.failf("three clicks on Age did not sort it descending")
					}
				}
				a.verifyText("Showing 2 of 8 people, sorted by age descending")
				a.verifyText("First row: Katherine Johnson")
			}},
		{name: "tanstack-virtual-end", lib: "TanStack Virtual",
			does: "focuses the long list, presses End, picks the last part now rendered",
			run: func(a *agent) {
				snap := a.open("/virtual", "Parts inventory")
				a.click(snap, "button", "Part 1")
				a.press("End")
				// The list scrolls smoothly and renders the rows it reaches.
				a.do("browser_wait_for", map[string]any{"target": `role=button[name="Part 10000"]`})
				snap = a.snapshot()
				a.click(snap, "button", "Part 10000")
				a.verifyText("Picked: Part 10000")
			}},
		{name: "dndkit-drag", lib: "dnd-kit sortable",
			does: "drags Ship it onto Plan the release",
			run: func(a *agent) {
				snap := a.open("/sortable", "Release checklist")
				a.do("browser_drag", map[string]any{"startTarget": a.ref(snap, "button", "Ship it"), "endTarget": a.ref(snap, "button", "Plan the release")})
				a.verifyText("Order: Ship it, Plan the release, Write the tests, Fix the bugs")
			}},
		{name: "dndkit-keyboard", lib: "dnd-kit sortable",
			does: "moves Fix the bugs up one place with Space, ArrowUp, Space",
			run: func(a *agent) {
				snap := a.open("/sortable", "Release checklist")
				a.press("Tab") // from the page into its links and items, as a keyboard user
				a.do("browser_click", map[string]any{"target": a.ref(snap, "button", "Fix the bugs")})
				// dnd-kit says each move in its live region: the agent reads it
				// before the next key, as the library's keyboard sensor needs
				// the item measured before it moves it.
				a.press("Space")
				a.expectText("role=status", "Fix the bugs was moved over droppable area Fix the bugs")
				a.refMatch(a.snapshot(), `- button "Fix the bugs"[^\n]*\[pressed\]`) // picked up
				a.do("browser_expect", map[string]any{"target": `role=button[name="Fix the bugs"][pressed]`, "check": "visible"})
				a.press("ArrowUp")
				a.expectText("role=status", "Fix the bugs was moved over droppable area Write the tests")
				a.press("Space")
				a.expectText("role=status", "Fix the bugs was dropped over droppable area Write the tests")
				a.verifyText("Order: Plan the release, Fix the bugs, Write the tests, Ship it")
			}},
		{name: "rhf-validation", lib: "react-hook-form",
			does: "submits empty, reads the errors, fixes a bad email, selects a plan, accepts, submits",
			run: func(a *agent) {
				snap := a.open("/form", "Create your account")
				a.click(snap, "button", "Create account")
				errs := a.snapshot()
				a.see("the errors", errs, "Full name is required", "Email is required", "Accept the terms to continue")
				a.typeInto(snap, "textbox", "Full name", "Ada Lovelace")
				a.typeInto(snap, "textbox", "Work email", "ada@")
				a.click(snap, "button", "Create account")
				a.see("the email error", a.snapshot(), "Enter a valid email address")
				a.typeInto(snap, "textbox", "Work email", "ada@example.com")
				a.do("browser_select_option", map[string]any{"target": a.ref(snap, "combobox", "Plan"), "values": []string{"Team"}})
				a.do("browser_check", map[string]any{"target": a.ref(snap, "checkbox", "I accept the terms")})
				a.click(snap, "button", "Create account")
				a.verifyText("Submitted: Ada Lovelace <ada@example.com>, team")
			}},
		{name: "router-orders", lib: "react-router",
			does: "follows links to an order, goes back, opens a route that does not exist",
			run: func(a *agent) {
				snap := a.open("/", "Widget lab")
				a.click(snap, "link", "Orders")
				snap = a.snapshot()
				a.click(snap, "link", "Order #1002")
				a.do("browser_expect", map[string]any{"target": "role=heading[level=1]", "check": "text", "expected": "Order #1002"})
				a.verifyText("Status: Processing")
				a.do("browser_navigate_back", nil)
				a.do("browser_expect", map[string]any{"target": "role=heading[level=1]", "check": "text", "expected": "Orders"})
				a.open("/orders/9999", "Page not found")
				a.do("browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "Page not found"})
			}},
		{name: "sonner-undo", lib: "sonner",
			does: "archives a message, reads the toast, undoes it from the toast",
			run: func(a *agent) {
				snap := a.open("/toasts", "Inbox")
				a.click(snap, "button", "Archive Invoice #2231")
				a.verifyText("Inbox: 2 messages")
				toast := a.snapshot()
				a.see("the toast", toast, "Message archived")
				a.click(toast, "button", "Undo")
				a.verifyText("Inbox: 3 messages")
			}},
		{name: "sonner-promise", lib: "sonner",
			does: "saves settings and waits for the success toast",
			run: func(a *agent) {
				snap := a.open("/toasts", "Inbox")
				a.click(snap, "button", "Save settings")
				a.do("browser_wait_for", map[string]any{"text": "Settings saved"})
				a.verifyText("Settings saved: yes")
			}},
		{name: "cookie-banner", lib: "cookie banner",
			does: "clicks Buy under the banner, reads why it failed, accepts the cookies, buys",
			run: func(a *agent) {
				snap := a.open("/pricing", "Pricing")
				out, isErr := a.call("browser_click", map[string]any{"target": a.ref(snap, "button", "Buy the Pro plan")})
				if !isErr {
					a.failf("the click on Buy under the cookie banner succeeded:\n%s", out)
				}
				a.see("the refused click", out, `in dialog "Cookie consent"`)
				snap = a.snapshot()
				banner := a.block(snap, `- dialog "Cookie consent"`, "Accept all")
				a.click(banner, "button", "Accept all")
				a.click(snap, "button", "Buy the Pro plan")
				a.verifyText("Cart: 1 item")
				a.verifyText("Cookies: accepted")
			}},
		{name: "shoelace-form", lib: "Shoelace (web components)",
			does: "types into a shadow-DOM input, picks an sl-select option, ticks the checkbox, joins",
			run: func(a *agent) {
				snap := a.open("/web-components", "Join the beta")
				a.typeInto(snap, "textbox", "Nickname", "ada")
				a.click(snap, "combobox", "Plan")
				list := a.snapshot()
				a.click(list, "option", "Team")
				// The list closes with an animation over the checkbox below:
				// the agent lets it go before the next click.
				a.do("browser_expect", map[string]any{"target": "role=listbox", "check": "hidden"})
				a.do("browser_check", map[string]any{"target": `role=checkbox[name="Send me product updates"]`})
				a.click(snap, "button", "Join")
				a.verifyText("Registered: ada on the team plan, with updates")
			}},
		{name: "iframe-same-origin", lib: "iframe (same origin)",
			does: "fills and sends the form inside a same-origin iframe",
			run:  iframeTask("Our newsletter"),
		},
		{name: "iframe-cross-origin", lib: "iframe (cross origin)",
			does: "fills and sends the form inside a cross-origin iframe",
			run:  iframeTask("Partner newsletter"),
		},
		{name: "canvas-hover-click", lib: "canvas chart",
			does: "hovers the chart, reads the tooltip of the bar under the pointer, clicks it",
			run: func(a *agent) {
				a.open("/chart", "Sales")
				a.do("browser_hover", map[string]any{"target": `role=img[name="Monthly sales chart"]`})
				a.see("the snapshot after hovering", a.snapshot(), `tooltip`, "March: 42 sales")
				a.verifyText("March: 42 sales")
				a.do("browser_click", map[string]any{"target": `role=img[name="Monthly sales chart"]`})
				a.verifyText("Selected month: March")
			}},
		{name: "canvas-xy", lib: "canvas chart (vision)",
			does: "reads the chart's box, moves the mouse over the May bar, reads the tooltip, clicks there",
			run: func(a *agent) {
				a.open("/chart", "Sales")
				out := a.do("browser_evaluate", map[string]any{"target": `role=img[name="Monthly sales chart"]`,
					"function": "(el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} }"})
				var box struct{ X, Y, W, H float64 }
				if m := regexp.MustCompile(`\{[^{}]*"x"[^{}]*\}`).FindString(out); m == "" || json.Unmarshal([]byte(m), &box) != nil {
					a.failf("no box in the answer:\n%s", out)
				}
				// Five bars on 600x300 with a 40px margin: May's is the last.
				x, y := box.X+40+4*104+52, box.Y+200
				a.do("browser_mouse_move_xy", map[string]any{"x": x, "y": y})
				a.see("the snapshot after moving", a.snapshot(), "May: 57 sales")
				a.do("browser_mouse_click_xy", map[string]any{"x": x, "y": y})
				a.verifyText("Selected month: May")
			}},
	}
}

// iframeTask fills the newsletter form inside the iframe of a title: its
// refs are the frame's (f1e2), as the snapshot shows them.
func iframeTask(title string) func(a *agent) {
	return func(a *agent) {
		snap := a.open("/frames", "Embedded forms")
		if !strings.Contains(snap, `iframe "`+title+`"`) || !strings.Contains(a.block(snap, `- iframe "`+title+`"`, ""), "Subscribe") {
			a.do("browser_wait_for", map[string]any{"target": `iframe[title="` + title + `"] >> role=button[name="Subscribe"]`})
			snap = a.snapshot()
		}
		frame := a.block(snap, `- iframe "`+title+`"`, "Subscribe")
		email := fmt.Sprintf("ada+%s@example.com", strings.ToLower(strings.Fields(title)[0]))
		a.typeInto(frame, "textbox", "Email address", email)
		a.click(frame, "button", "Subscribe")
		a.verifyText(title + ": " + email)
		a.see("the frame after sending", a.snapshot(), "Subscribed: "+email)
	}
}
