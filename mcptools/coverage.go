package mcptools

import (
	"fmt"
	"strings"
)

// What a session's flow (session_export_flow) holds of each tool's calls.
// Every tool of Inventory has a row (TestFlowCoverage holds the table to
// the inventory, both ways): a call that changes the page or checks it is
// a flow step, or is said to be left out, and why, in the export's answer.

// recording says how a tool's successful calls reach the flow.
type recording int

const (
	// recStep: a step of the tool's own action (flow.ActionOf: click for
	// browser_click, evaluate for browser_evaluate).
	recStep recording = iota + 1
	// recChecks: the expect steps of the checks it made.
	recChecks
	// recInner: the steps it ran (a batch's, a person's), each as its own.
	recInner
	// recHeader: the flow's header (the dev server, the storage state it
	// starts in).
	recHeader
	// recReads: nothing, and nothing is lost: it reads the page or the
	// session, or writes a file of what it read, or shows something to a
	// person.
	recReads
	// recSession: nothing: it manages the session, which a replay makes
	// its own.
	recSession
	// recLeftOut: nothing, though it changes what the page shows or how
	// the session behaves: the export names each such call and why.
	recLeftOut
)

// flowRow is a tool's row: how it is recorded, and why not when it is not.
type flowRow struct {
	rec recording
	why string
}

// onlyReads says, by tool, which calls of a recLeftOut tool only read
// (browser_tabs' list): nothing is lost without them.
var onlyReads = map[string]func(args map[string]any) bool{
	"browser_tabs": func(a map[string]any) bool { return a["action"] == "list" },
}

// flowCoverage is the table, by tool name.
var flowCoverage = map[string]flowRow{
	// A step of its own action (flow.Verbs).
	"browser_navigate":            {recStep, ""},
	"browser_navigate_back":       {recStep, ""},
	"browser_navigate_forward":    {recStep, ""},
	"browser_reload":              {recStep, ""},
	"browser_resize":              {recStep, ""},
	"browser_handle_dialog":       {recStep, ""},
	"browser_click":               {recStep, ""},
	"browser_type":                {recStep, ""},
	"browser_hover":               {recStep, ""},
	"browser_drag":                {recStep, ""},
	"browser_press_key":           {recStep, ""},
	"browser_select_option":       {recStep, ""},
	"browser_check":               {recStep, ""},
	"browser_uncheck":             {recStep, ""},
	"browser_fill_form":           {recStep, ""},
	"browser_file_upload":         {recStep, ""},
	"browser_drop":                {recStep, ""},
	"browser_wait_for":            {recStep, ""},
	"browser_expect":              {recStep, ""},
	"browser_evaluate":            {recStep, ""},
	"browser_emulate_media":       {recStep, ""},
	"browser_emulate":             {recStep, ""},
	"browser_add_init_script":     {recStep, ""},
	"browser_route":               {recStep, ""},
	"browser_unroute":             {recStep, ""},
	"browser_network_state_set":   {recStep, ""},
	"browser_request":             {recStep, ""},
	"browser_clock":               {recStep, ""},
	"browser_audit_accessibility": {recStep, ""},
	"browser_set_storage_state":   {recStep, ""},
	"browser_mouse_click_xy":      {recStep, ""},
	"browser_mouse_move_xy":       {recStep, ""},
	"browser_mouse_drag_xy":       {recStep, ""},
	"browser_mouse_down":          {recStep, ""},
	"browser_mouse_up":            {recStep, ""},
	"browser_mouse_wheel":         {recStep, ""},
	// The session.
	"session_start":       {recHeader, "the dev server (dev:) and the storage state (storageState:) the flow starts with"},
	"session_status":      {recReads, "reads the session"},
	"session_restart":     {recLeftOut, "restarts the dev server: a replay starts its own, once"},
	"session_end":         {recSession, "ends the session"},
	"session_list":        {recReads, "reads the sessions"},
	"server_logs":         {recReads, "reads the dev server's log"},
	"session_errors":      {recReads, "reads the session's failures"},
	"session_export_flow": {recSession, "writes the flow"},
	"session_report":      {recReads, "writes the session's report"},
	"session_check_flow":  {recSession, "replays a flow in the session"},
	// Watching and recording the session for people.
	"browser_start_tracing":      {recReads, "records the session's trace, for people"},
	"browser_stop_tracing":       {recReads, "writes the session's trace"},
	"browser_start_video":        {recReads, "records the session's video, for people"},
	"browser_stop_video":         {recReads, "writes the session's video"},
	"browser_video_chapter":      {recReads, "a chapter card in the video"},
	"browser_video_show_actions": {recReads, "overlays in the video"},
	"browser_video_hide_actions": {recReads, "overlays in the video"},
	"browser_highlight":          {recReads, "an overlay for a person watching, which the page does not see"},
	"browser_hide_highlight":     {recReads, "an overlay for a person watching"},
	"browser_start_recording":    {recReads, "listens to a person; browser_stop_recording records their steps"},
	"browser_stop_recording":     {recInner, "the person's actions, each as its step"},
	// Reading the page.
	"browser_snapshot":            {recReads, "reads the page (assertReads turns what it showed into checks)"},
	"browser_take_screenshot":     {recReads, "reads the page"},
	"browser_labeled_screenshot":  {recReads, "reads the page"},
	"browser_get_content":         {recReads, "reads the page"},
	"browser_find":                {recReads, "reads the page"},
	"browser_pdf_save":            {recReads, "writes the page as PDF"},
	"browser_generate_locator":    {recReads, "reads the page"},
	"browser_console_messages":    {recReads, "reads the console"},
	"browser_network_requests":    {recReads, "reads the requests"},
	"browser_network_request":     {recReads, "reads a request"},
	"browser_route_list":          {recReads, "reads the routes"},
	"browser_get_config":          {recReads, "reads the server's settings"},
	"browser_storage_state":       {recReads, "writes the session's cookies and storage to a file (a flow's storageState: may name it)"},
	"browser_cookie_list":         {recReads, "reads cookies"},
	"browser_cookie_get":          {recReads, "reads a cookie"},
	"browser_localstorage_list":   {recReads, "reads localStorage"},
	"browser_localstorage_get":    {recReads, "reads localStorage"},
	"browser_sessionstorage_list": {recReads, "reads sessionStorage"},
	"browser_sessionstorage_get":  {recReads, "reads sessionStorage"},
	// Checks.
	"browser_verify_element_visible": {recChecks, ""},
	"browser_verify_text_visible":    {recChecks, ""},
	"browser_verify_list_visible":    {recChecks, ""},
	"browser_verify_value":           {recChecks, ""},
	"browser_perf":                   {recLeftOut, "measures web vitals (reloading under throttling when asked) and checks nothing; a replay has no step for it"},
	// Steps run by another tool.
	"browser_batch": {recInner, "each step as its own"},
	// What changes the page but has no step.
	"browser_tabs":                  {recLeftOut, "a flow has no step that opens, selects or closes a tab: its steps act in the tab that is current (a popup is not selected)"},
	"browser_close":                 {recLeftOut, "a flow has no step that closes the browser: a replay ends with its session"},
	"browser_cookie_set":            {recLeftOut, "a flow has no step that sets cookies: start it signed in (browser_storage_state, then storageState: in the flow)"},
	"browser_cookie_delete":         {recLeftOut, "a flow has no step that deletes cookies: a replay starts from its storageState: or none"},
	"browser_cookie_clear":          {recLeftOut, "a flow has no step that clears cookies: a replay starts from its storageState: or none"},
	"browser_localstorage_set":      {recLeftOut, "a flow has no step that sets localStorage: start it from a storage state (storageState: in the flow)"},
	"browser_localstorage_delete":   {recLeftOut, "a flow has no step that changes localStorage: a replay starts from its storageState: or none"},
	"browser_localstorage_clear":    {recLeftOut, "a flow has no step that changes localStorage: a replay starts from its storageState: or none"},
	"browser_sessionstorage_set":    {recLeftOut, "a flow has no step that sets sessionStorage"},
	"browser_sessionstorage_delete": {recLeftOut, "a flow has no step that changes sessionStorage"},
	"browser_sessionstorage_clear":  {recLeftOut, "a flow has no step that changes sessionStorage"},
}

// leftOutCall is a tool whose successful calls the flow has no step for,
// though they changed the page or the session, and how many there were.
type leftOutCall struct {
	Tool  string `json:"tool"`
	Calls int    `json:"calls"`
	Why   string `json:"why"`
}

// noteLeftOut counts a successful call of a tool whose calls are left out
// of the flow (recLeftOut), in the order they were first made.
func (s *Session) noteLeftOut(tool string, rawArgs any) {
	row := flowCoverage[tool]
	if row.rec != recLeftOut {
		return
	}
	if args, _ := rawArgs.(map[string]any); onlyReads[tool] != nil && onlyReads[tool](args) {
		return
	}
	for i := range s.leftOut {
		if s.leftOut[i].Tool == tool {
			s.leftOut[i].Calls++
			return
		}
	}
	s.leftOut = append(s.leftOut, leftOutCall{Tool: tool, Calls: 1, Why: flowCoverage[tool].why})
}

// sayLeftOut is what an export says of the calls its flow left out.
func sayLeftOut(calls []leftOutCall) string {
	if len(calls) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Left out of the flow (calls that changed the page or the session but have no step):")
	for _, c := range calls {
		fmt.Fprintf(&b, "\n- %s (%s): %s", c.Tool, plural(c.Calls, "call"), c.Why)
	}
	return b.String()
}
