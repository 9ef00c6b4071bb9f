package mcptools

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// writerTable is every place the server writes out what a session holds,
// found by TestRedactionWriters in the code of mcptools, cmd/e2e-mcp and
// runner, with how it masks secrets (secrets.go) and the writer of e2e's
// TestRedactionTable that shows it does. A writer added anywhere else
// fails TestRedactionWriters until it is listed here with its row there.
//
// Answers are not listed one by one: every tool is built by define, whose
// layers mask the answer (held) and any answer before a session is held
// (instrument); TestRedactionWriters holds define to being the only way.
// The server's log is masked at its sink (logs.New), whatever logs.
var writerTable = map[string]string{
	"mcptools.diagnosed: clientLog":                       "client log: the message masked with the session's set",
	"mcptools.storageStateTool: write":                    "not masked on purpose: a storage state file holds the session's cookies (0600, never echoed)",
	"mcptools.Profile.Save: create":                       "not masked on purpose: --user-data-dir's storage state, the session's cookies for the next run (0600, never echoed)",
	"mcptools.Deps.expectScreenshot: write":               "not text: a baseline image",
	"mcptools.attach: write":                              "not text: a visual check's actual and diff images",
	"mcptools.snapshotToFile: write":                      "no secret: a snapshot names password fields, never their values",
	"mcptools.pdfTool: write":                             "not text: the page as PDF",
	"mcptools.screenshotTool: write":                      "not text: a screenshot the agent asked to save (filename)",
	"mcptools.Deps.renderReport: report.Render":           "session report: report.Options.Secrets is the session's set",
	"mcptools.sessionReportTool: write":                   "session report: what renderReport rendered",
	"mcptools.exportFlowTool: Marshal":                    "flow file: the steps were recorded through Session.flowArgs",
	"mcptools.exportFlowTool: write":                      "flow file: what Marshal wrote",
	"mcptools.recordingTools: Marshal":                    "a person's steps: through Session.flowArgs (keepDemo); a password's text never leaves the page",
	"mcptools.networkRequestTool: write":                  "not ours to mask: the response body the agent asked to save",
	"mcptools.stopTracingTool: write":                     "trace: built by buildTrace, every text of it masked with the session's private set",
	"mcptools.Session.endTrace: createNumbered":           "trace (--save-trace): as above",
	"mcptools.Deps.moveDownload: createNumbered":          "not ours to mask: the file the page downloaded",
	"mcptools.exportPlaywright: playwright.Export":        "Playwright spec: made of the recorded steps (flowArgs)",
	"mcptools.exportPlaywright: write":                    "Playwright spec: what Export wrote",
	"mcptools.Deps.copyBeside: create":                    "not ours to mask: a file the agent uploaded, copied beside its flow (a storage state, which holds credentials, never is: placeFile)",
	"mcptools.outputFile.write: create":                   "the one file writer: what each write above hands it",
	"mcptools.WriteUserFile: create":                      "the one file writer: what each WriteUserFile above hands it",
	"mcptools.WriteUserFileFrom: create":                  "the one file writer: what each WriteUserFileFrom above hands it",
	"mcptools.outputFile.createNumbered: create":          "the one file writer: what each createNumbered above hands it",
	"mcptools.consoleLog.flush: write":                    "console log files (--output-dir): each line masked with the session's secrets, as the answer that links it (consoleLine); e2e TestConsoleLogFiles",
	"mcptools.Session.finishVideo: create":                "video: captions and chapter cards masked with the session's private set (Session.caption never holds typed text); password fields as the page shows them",
	"runner.htmlReports.flowDone: mcptools.WriteUserFile": "run report: Deps.SessionReport, rendered by renderReport with the session's set",
	"runner.traces.flowDone: mcptools.WriteUserFile":      "run trace: Deps.SessionTrace, built by buildTrace with the session's private set",
	"runner.saveArtifacts: mcptools.WriteUserFile":        "artifacts: the failure's text masked in runFlow (the run's set), images",
	"runner.writeHealed: mcptools.WriteUserFile":          "repaired flow (run --heal): the file's own bytes but the healed steps' targets and fingerprints (flow.Retarget), never masked (a mask breaks a flow); a step whose new locator or fingerprint holds a secret's value is not written (HoldsSecret)",
	"runner.writeJUnit: mcptools.WriteUserFile":           "JUnit: messages masked with the run's set",
	"runner.junitDoc: xml.MarshalIndent":                  "JUnit (a file, or stdout with --reporter junit): as above",
	"runner.writeJSON: mcptools.WriteUserFile":            "run --reporter json: the results (masked in runFlow), the healed steps' locators masked in flowDocOf",
	"runner.htmlIndex.runEnded: mcptools.WriteUserFile":   "run --reporter html's index: the results' texts (masked in runFlow)",
	"runner.writeBlob: mcptools.WriteUserFileFrom":        "run --reporter blob: the JSON report's document and the files the writers above wrote (reports, traces, videos, artifacts)",
	"runner.extractBlob: mcptools.WriteUserFileFrom":      "merge-reports: the files of blobs, as their writers wrote them",
	"runner.Convert: playwright.Export":                   "not a session's: specs of flow files a person wrote",
	"runner.Convert: write":                               "not a session's: as above",
	"runner.Convert: mcptools.WriteUserFile":              "not a session's: as above",
	"main.serve: os.Create":                               "not a session's: the CPU profile the operator asked for",
	"cli.screenshotShape: mcptools.WriteUserFile":         "the CLI's screenshot file: an image from a masked answer",
	"cli.startDaemon: os.OpenFile":                        "the CLI daemon's own log file: its logger masks at the sink",
	"cli.startDaemon: os.WriteFile":                       "the CLI daemon's pid file",
	"transport.stdioFraming.Write: write":                 "the stdio transport: answers (masked by held) passed on",
	"transport.stdioFraming.writeBatch: write":            "the stdio transport: a batch's answers (masked by held) joined",
	"transport.stdioFraming.inbound: write":               "not an output: what the client sent, passed to mcp-go",
	"mcptools.clientLog: SendLogMessageToClient":          "client log: every caller (diagnosed) is listed here by its clientLog call",
	"mcptools.notifierOf: SendLogMessageToSpecificClient": "client log: session events, their texts masked with the session's private set (Session.event)",
	"mcptools.startProgress: SendNotificationToClient":    "progress: the tool's name, what it does and the time, masked with the session's private set",

	// e2e's table reads it among the artifacts.
	"runner.lastRunState.runEnded: mcptools.WriteUserFile": "the last run's state (DIR/.last-run.json): flow files' paths, names masked with the run's set",
}

// sinks are the calls that write out: a file, a report, a flow, a spec, a
// JUnit document, the client's log. A call counts when its function (or
// method) has one of these names.
var sinks = []string{"clientLog", "write", "create", "createNumbered", "os.WriteFile", "os.OpenFile", "os.Create", "report.Render", "Marshal",
	"playwright.Export", "xml.MarshalIndent", "xml.Marshal", "WriteUserFile", "mcptools.WriteUserFile", "WriteUserFileFrom", "mcptools.WriteUserFileFrom",
	"SendLogMessageToSpecificClient", "SendLogMessageToClient", "SendNotificationToClient", "SendNotificationToSpecificClient"}

// TestRedactionWriters finds every writer of mcptools, cmd/e2e-mcp,
// transport and runner (a call of a sink) and holds the list to writerTable, both ways;
// it also holds define to being the only maker of a tool (so that every
// answer goes through held and instrument), and logs.New to being the
// only maker of a logger.
func TestRedactionWriters(t *testing.T) {
	found := map[string]bool{}
	var loggers, tools []string
	for _, dir := range []string{".", "../cmd/e2e-mcp", "../cmd/e2e-mcp/internal/cli", "../cmd/e2e-mcp/internal/config", "../transport", "../runner"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range af.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				owner := af.Name.Name + "." + funcName(fd)
				imported := importNames(af)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.CallExpr:
						name := callName(x.Fun, imported)
						if slices.Contains(sinks, name) {
							found[owner+": "+name] = true
						}
						if name == "zap.New" || name == "zap.NewProduction" || name == "zap.NewDevelopment" || name == "Build" {
							loggers = append(loggers, fset.Position(x.Pos()).String())
						}
					case *ast.CompositeLit:
						if id, ok := x.Type.(*ast.Ident); ok && id.Name == "Tool" && af.Name.Name == "mcptools" && owner != "mcptools.define" {
							tools = append(tools, fset.Position(x.Pos()).String())
						}
					}
					return true
				})
			}
		}
	}
	for w := range found {
		if _, ok := writerTable[w]; !ok {
			t.Errorf("a writer not in writerTable: %s\n  say how it masks secrets (secrets.go) and give it a row in e2e's TestRedactionTable", w)
		}
	}
	for w := range writerTable {
		if !found[w] {
			t.Errorf("writerTable lists %s, which the code no longer has", w)
		}
	}
	if len(loggers) > 0 {
		t.Errorf("loggers made outside logs.New, whose sink masks secrets: %v", loggers)
	}
	if len(tools) > 0 {
		t.Errorf("tools made outside define, whose answers no layer masks: %v", tools)
	}
}

// funcName is Recv.Name for a method, Name for a function.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// importNames are the names a file's imports go by.
func importNames(af *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, im := range af.Imports {
		p := strings.Trim(im.Path.Value, `"`)
		name := p[strings.LastIndex(p, "/")+1:]
		if strings.HasPrefix(name, "v") && strings.Contains(p, "/") && len(name) <= 3 { // gopkg.in/yaml.v3, .../v2
			name = filepath.Base(strings.TrimSuffix(p, "/"+name))
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		out[strings.TrimSuffix(name, ".v3")] = true
	}
	return out
}

// callName is pkg.Func for a package's function, Method for any method
// (its receiver unknown without types), Func for a local function.
func callName(fun ast.Expr, imported map[string]bool) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok && imported[id.Name] {
			return id.Name + "." + f.Sel.Name
		}
		return f.Sel.Name
	case *ast.IndexExpr:
		return callName(f.X, imported)
	}
	return ""
}

// TestRedactAnswer: an answer shows its agent the page as it is: only the
// secrets the agent never saw (the server's) are masked in its texts and
// structured strings, whatever Go types the structured content is made of;
// what the agent gave (a password argument, a credential header, a stored
// value) is masked when the answer is written for people (e2e-mcp run),
// and by every writer's private set. Nothing is touched when the session
// has no secret.
func TestRedactAnswer(t *testing.T) {
	root := redact.NewSet(nil)
	root.Add("env-secret-1")
	s := newSession(sessionKey{id: "t"}, "", root)
	s.markArgs("browser_emulate", map[string]any{"httpPassword": "pw-123", "headers": []any{"Authorization: Bearer tok-9", "Accept: */*"}})
	s.markArgs("browser_cookie_set", map[string]any{"name": "sid", "value": "cookie-77"})
	type detail struct {
		Headers map[string]string `json:"headers"`
	}
	answer := func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("pw-123 Bearer tok-9 env-secret-1 cookie-77 */*")},
			StructuredContent: map[string]any{"d": detail{Headers: map[string]string{"X": "tok-9", "Y": "env-secret-1"}}}}
	}
	res := answer()
	s.redactAnswer("browser_click", res, false)
	if got := res.Content[0].(mcp.TextContent).Text; got != "pw-123 Bearer tok-9 ••• cookie-77 */*" {
		t.Errorf("the agent's answer: %q", got)
	}
	if h := res.StructuredContent.(map[string]any)["d"].(map[string]any)["headers"].(map[string]any); h["X"] != "tok-9" || h["Y"] != redact.Mask {
		t.Errorf("the agent's structured answer: %v", h)
	}
	res = answer()
	s.redactAnswer("browser_click", res, true)
	if got := res.Content[0].(mcp.TextContent).Text; got != "••• ••• ••• ••• */*" {
		t.Errorf("an answer written for people: %q", got)
	}
	if h := res.StructuredContent.(map[string]any)["d"].(map[string]any)["headers"].(map[string]any); h["X"] != redact.Mask {
		t.Errorf("a structured answer written for people: %v", h)
	}
	if got := s.private.String("pw-123 cookie-77 short"); got != "••• ••• short" {
		t.Errorf("private: %q", got)
	}
	got := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("pw=pw-123 env-secret-1")}}
	s.redactAnswer("browser_localstorage_get", got, false) // what the agent asked to read
	if got.Content[0].(mcp.TextContent).Text != "pw=pw-123 env-secret-1" {
		t.Errorf("localstorage_get: %v", got.Content)
	}
	clean := newSession(sessionKey{id: "c"}, "", nil)
	sc := map[string]any{"n": 1}
	res = &mcp.CallToolResult{StructuredContent: sc}
	clean.redactAnswer("browser_click", res, false)
	if _, same := res.StructuredContent.(map[string]any); !same {
		t.Error("an answer of a session without secrets was rewritten")
	}
}

// TestFlowArgs: what a step records of a secret is its ${E2E_SECRET_n},
// the same n for the same value, inside longer texts too; every other text
// goes through the literal writer.
func TestFlowArgs(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	s.secrets.Add("hunter2", "pw")
	s.private.Add("short") // a word-password the agent typed
	lit := func(x string) string { return strings.ReplaceAll(x, "$", "$$") }
	got := s.flowArgs(map[string]any{
		"text":         "hunter2",
		"url":          "/login?pw=hunter2&cost=$5",
		"httpPassword": "new-one",
		"headers":      []any{"Authorization: Bearer abc", "X-A: 1"},
		"fields":       []any{map[string]any{"value": "pw", "target": "#pw"}},
		"count":        3,
		"zpath":        "/shortcuts, then short",
		"target":       `role=link[name="Where short stands"]`,
	}, lit)
	// Numbered in the order of the arguments' names, so that an export is
	// the same every time.
	want := map[string]any{
		"fields":       []any{map[string]any{"value": "${E2E_SECRET_1}", "target": "#pw"}},
		"headers":      []any{"Authorization: ${E2E_SECRET_2}", "X-A: 1"},
		"httpPassword": "${E2E_SECRET_3}",
		"text":         "${E2E_SECRET_4}",
		"url":          "/login?pw=${E2E_SECRET_4}&cost=$$5",
		"count":        3,
		"zpath":        "/shortcuts, then ${E2E_SECRET_5}",
		"target":       `role=link[name="Where short stands"]`, // the page's words: a spec's locator
	}
	for k, v := range want {
		if g := got[k]; !equalJSON(g, v) {
			t.Errorf("%s: got %v, want %v", k, g, v)
		}
	}
	if n := len(s.secretRefs); n != 5 {
		t.Errorf("%d refs", n)
	}
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestHeaderShapedTexts: a text that only looks like a credential header
// line ("Cookies: accepted", an expect's "text=Token: none") is page text
// the agent checks, not a header: it is neither marked as a secret nor
// recorded as ${E2E_SECRET_n}. Only the header arguments (browser_emulate's
// and browser_route's headers, in a batch too) are read as header lines.
func TestHeaderShapedTexts(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	lit := func(x string) string { return x }
	texts := map[string]any{
		"text":   "Cookies: accepted",
		"target": "text=Token: none >> visible=true",
		"items":  []any{"Password: required", "Authorization: pending"},
	}
	s.markArgs("browser_verify_text_visible", texts)
	if v := s.private.Values(); len(v) != 0 {
		t.Errorf("page texts marked as secrets: %q", v)
	}
	if got := s.flowArgs(texts, lit); !equalJSON(got, texts) {
		t.Errorf("recorded as %v, want the texts as they are", got)
	}
	// The headers of a route inside a batch are still header lines.
	batch := map[string]any{"steps": []any{map[string]any{"route": map[string]any{"pattern": "**/api", "headers": []any{"Cookie: sid=77"}}}}}
	s.markArgs("browser_batch", batch)
	if v := s.private.Values(); len(v) != 1 || v[0] != "sid=77" {
		t.Errorf("the batch's Cookie header: marked %q", v)
	}
	want := map[string]any{"steps": []any{map[string]any{"route": map[string]any{"pattern": "**/api", "headers": []any{"Cookie: ${E2E_SECRET_1}"}}}}}
	if got := s.flowArgs(batch, lit); !equalJSON(got, want) {
		t.Errorf("the batch's Cookie header: recorded as %v", got)
	}
}
