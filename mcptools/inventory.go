package mcptools

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// Toolsets group the tools; the table of docs/tools.md is ordered by them.
const (
	ToolsetSession    = "session"
	ToolsetNavigation = "navigation"
	ToolsetReading    = "reading"
	ToolsetInput      = "input"
	ToolsetWaiting    = "waiting"
	ToolsetDiagnosis  = "diagnostics"
)

// Tool is one entry of the inventory: its definition, handler and grouping.
// Registration, the table of docs/tools.md, schema snapshots and the invariant tests
// all read [Inventory], so a tool exists in exactly one place.
type Tool struct {
	Def     mcp.Tool
	Handler server.ToolHandlerFunc
	Toolset string
	// Cap is the capability group that offers the tool (caps.go); empty
	// for a tool always offered.
	Cap      string
	ReadOnly bool
	// TypeSchema derives the input schema from the arguments' Go type. Def
	// carries the schema recorded in __toolsnaps__ instead (see
	// [recordedSchema]); the snapshot test holds the two equal.
	TypeSchema func() json.RawMessage
	// Check runs the argument checks of a call without the call: what a
	// call with these arguments would refuse as invalid_input, or nil.
	Check func(args any) error
	// Step runs the tool on a session its caller already holds (a step of
	// browser_batch): the arguments checked, the call recorded, but no
	// session taken and no failure diagnosed.
	Step func(ctx context.Context, s *Session, args map[string]any) (*mcp.CallToolResult, error)
	// Source is the file of this package that defines the tool (the one
	// that calls define), for docs/development.md's index of them.
	Source string
}

// toolSnaps are the recorded tool definitions (TestToolSnapshots writes and
// checks them).
//
//go:embed __toolsnaps__/*.snap
var toolSnaps embed.FS

// recordedSchemas are the input schemas of toolSnaps, compact, by tool name.
//
// Deriving 36 schemas from Go types by reflection (and encoding them) took
// 4 to 8 ms of every process start, before the first initialize could be
// answered; reading the recorded ones takes a tenth of that.
var recordedSchemas = sync.OnceValue(func() map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	names, _ := fs.Glob(toolSnaps, "__toolsnaps__/*.snap")
	for _, n := range names {
		b, err := toolSnaps.ReadFile(n)
		if err != nil {
			continue
		}
		var snap struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		var c bytes.Buffer
		if json.Unmarshal(b, &snap) != nil || json.Compact(&c, snap.InputSchema) != nil {
			continue
		}
		m[snap.Name] = c.Bytes()
	}
	return m
})

// typeSchema derives a tool's input schema from its arguments' type, in
// the form strict clients accept (portableSchema).
func typeSchema[T any]() json.RawMessage {
	return portableSchema(mcp.NewTool("", mcp.WithInputSchema[T]()).RawInputSchema)
}

// inputSchema is the recorded schema of the tool, or (for a tool not yet
// recorded) the one derived from T.
func inputSchema[T any](name string) json.RawMessage {
	if raw, ok := recordedSchemas()[name]; ok {
		return raw
	}
	return typeSchema[T]()
}

// Deps are what the handlers work with.
type Deps struct {
	// Caps are the capability groups whose tools the server offers
	// besides the core ones (caps.go).
	Caps     []string
	Browser  *browser.Manager
	Sessions *Registry
	Logger   *zap.Logger
	// MaxSnapshotBytes caps the snapshot text of one response (0: no cap).
	MaxSnapshotBytes int
	// ServerCommand is the default dev-server command and its arguments.
	ServerCommand []string
	// DevTimeouts bound the dev-server command's verbs.
	DevTimeouts devserver.Timeouts
	// StateDir is where managed dev servers keep their logs and state.
	StateDir string
	// ErrorLogLines is how many dev-server stderr lines a failure
	// response carries (0: 100).
	ErrorLogLines int
	// Remote is set when calls come from remote clients (HTTP): then
	// session_start runs only the configured dev-server command.
	Remote bool
	// AllowCall, when set, applies a per-client rate limit to tool calls:
	// it says whether the call may go on, or how long to wait.
	AllowCall func(ctx context.Context) (ok bool, retryAfter time.Duration)
	// FileRoots are the directories browser_file_upload may read files
	// from (and, for a local client, tools may write in); empty means the
	// client's roots or the working directory locally (roots.go), and
	// none over HTTP (files.go).
	FileRoots []string
	// clientRoots are the roots each client declared (roots.go).
	clientRoots clientRoots
	// OutputDir is the one directory tools write files to for a remote
	// client (files.go); locally, where the files a call does not name go
	// (--output-dir; "" the temp directory).
	OutputDir string
	// OutputDirNamed: the operator named OutputDir (--output-dir, the
	// config's outputDir), rather than a remote client's files taking the
	// default; tools then also save there what Playwright MCP saves there
	// unasked (outputDirFile: a screenshot without filename, a trace).
	OutputDirNamed bool
	// OutputMaxSize, when not 0, bounds the bytes of the files tools name
	// themselves in a directory: the oldest go (--output-max-size).
	OutputMaxSize int64
	// Baselines, when set (e2e-mcp run), says where a session's visual
	// checks keep their baselines and whether they rewrite them
	// (--update-snapshots); "" keeps the default (visual.go).
	Baselines func(session string) (dir string, update bool)
	// Reports: sessions log their calls for a report (steplog.go): the
	// report group is on, or `run --report` asks. ReportShots: they keep
	// a small screenshot after each action too.
	Reports, ReportShots bool
	// Config is the server's effective settings as browser_get_config
	// answers them, before it masks their credentials: Playwright MCP's
	// config object, with ours that theirs has no key for under one key
	// (cmd/e2e-mcp/internal/config/pwconfig_view.go).
	Config map[string]any
	// Videos, when set, has every session record a video (--save-video,
	// `run --video`; video.go).
	Videos *VideoDefaults
	// VideoLimits bound each session's video (--max-video-size,
	// --max-video-bytes); zero fields take DefaultVideoLimits'.
	VideoLimits VideoLimits
	// TraceSessions: every session traces from its first call (tracing.go;
	// --save-trace, `run --trace`). SaveTraces: a session that ends while
	// tracing writes its trace to its files' traces directory
	// (--save-trace).
	TraceSessions, SaveTraces bool
	// RecordSession, when set (e2e-mcp run's on-first-retry modes), says
	// whether session id traces (TraceSessions) and records a video
	// (Videos); nil: every session does what those say.
	RecordSession func(id string) (trace, video bool)
	// AnswersForPeople: nobody reads the answers but people and CI (e2e-mcp
	// run writes them into JUnit and artifacts), so they are masked as the
	// writers mask, a typed password included (secrets.go).
	AnswersForPeople bool
	// SecretVars are the secrets of --secrets by name: ${NAME} in a call's
	// arguments is the value (pwcompat.go).
	SecretVars map[string]string
	// Codegen is typescript when each action's answer carries its
	// Playwright code (--codegen).
	Codegen string
	// ConsoleLevel is browser_console_messages' level when a call names
	// none (--console-level; "" info).
	ConsoleLevel string
	// ImageResponses is allow, omit or only (--image-responses; "" allow).
	ImageResponses string
}

// browserDefaults are the options of a whole-page snapshot.
var browserDefaults = browser.SnapshotOptions{}

// Inventory returns every tool. With nil deps the handlers must not be
// called; the definitions are still complete (for docs and tests).
func Inventory(d *Deps) []Tool {
	tools := []Tool{
		sessionStartTool(d),
		sessionStatusTool(d),
		sessionRestartTool(d),
		sessionEndTool(d),
		sessionListTool(d),
		serverLogsTool(d),
		sessionErrorsTool(d),
		exportFlowTool(d),
		inCap(CapReport, sessionReportTool(d)), inCap(CapReport, flowCheckTool(d)),
		inCap(CapDevtools, startTracingTool(d)), inCap(CapDevtools, stopTracingTool(d)),
		navigateTool(d),
		backTool(d),
		forwardTool(d),
		reloadTool(d),
		tabsTool(d),
		resizeTool(d),
		closeTool(d),
		handleDialogTool(d),
		snapshotTool(d),
		screenshotTool(d),
		getContentTool(d), findTool(d), inCap(CapPDF, pdfTool(d)),
		clickTool(d),
		typeTool(d),
		hoverTool(d), dragTool(d), dropTool(d), pressKeyTool(d), selectOptionTool(d), checkTool(d, true), checkTool(d, false), fillFormTool(d), fileUploadTool(d),
		waitForTool(d), expectTool(d),
		evaluateTool(d),
		consoleMessagesTool(d), networkRequestsTool(d), networkRequestTool(d),
		batchTool(d),
		inCap(CapEmulation, emulateMediaTool(d)), inCap(CapEmulation, emulateTool(d)), inCap(CapEmulation, initScriptTool(d)),
		inCap(CapNetwork, routeTool(d)), inCap(CapNetwork, routeListTool(d)), inCap(CapNetwork, unrouteTool(d)),
		inCap(CapNetwork, networkStateTool(d)), inCap(CapNetwork, requestTool(d)),
		inCap(CapTime, clockTool(d)),
		inCap(CapAudit, auditA11yTool(d)), inCap(CapAudit, perfTool(d)),
	}
	for _, t := range storageTools(d) {
		tools = append(tools, inCap(CapStorage, t))
	}
	for _, t := range visionTools(d) {
		tools = append(tools, inCap(CapVision, t))
	}
	for _, t := range testingTools(d) {
		tools = append(tools, inCap(CapTesting, t))
	}
	for _, t := range append(highlightTools(d), recordingTools(d)...) {
		tools = append(tools, inCap(CapDevtools, t))
	}
	tools = append(tools, inCap(CapConfig, configTool(d)))
	for _, t := range videoTools(d) {
		tools = append(tools, inCap(CapVideo, t))
	}
	return tools
}

// SessionArg is the optional sessionId every tool takes.
//
// Its schema carries no description: the server's instructions explain it
// once, and session_start's sessionId (DevSessionArg) says it again; a
// description on every tool would cost 2 KB of every request.
type SessionArg struct {
	SessionID string `json:"sessionId,omitempty"`
}

func (a SessionArg) session() string { return a.SessionID }

// DevSessionArg is SessionArg with its description, for session_start.
type DevSessionArg struct {
	SessionID string `json:"sessionId,omitempty" jsonschema:"Isolated session; omit for yours"`
}

func (a DevSessionArg) session() string { return a.SessionID }

// sessionArgs is what every params struct satisfies by embedding SessionArg.
type sessionArgs interface{ session() string }

// annotations says what a tool does to the world; every tool decides all
// four, and tools/list carries those that differ from the spec's defaults.
type annotations struct {
	title                                        string
	readOnly, destructive, idempotent, openWorld bool
}

// define builds a tool whose handler runs fn on the caller's session, locked
// for the call, through the layers in handler.go. Failures become typed
// isError results; a panic in fn becomes an internal_error result, never a
// dead server or a protocol error.
func define[T sessionArgs](d *Deps, name, toolset, desc string, a annotations,
	fn func(ctx context.Context, s *Session, args T) (*mcp.CallToolResult, error)) Tool {
	def := mcp.NewTool(name,
		mcp.WithDescription(desc),
		mcp.WithRawInputSchema(inputSchema[T](name)),
		mcp.WithTitleAnnotation(a.title),
		mcp.WithReadOnlyHintAnnotation(a.readOnly),
		mcp.WithDestructiveHintAnnotation(a.destructive),
		mcp.WithIdempotentHintAnnotation(a.idempotent),
		mcp.WithOpenWorldHintAnnotation(a.openWorld),
	)
	def.InputSchema.Type = "" // NewTool's default; the raw schema replaces it
	omitDefaultHints(&def.Annotations)
	// Compiled on the tool's first call: compiling 35 schemas at start
	// would cost every client's initialize a few milliseconds.
	var schemaOnce sync.Once
	var schema *jsonschema.Schema
	compiled := func() *jsonschema.Schema {
		schemaOnce.Do(func() { schema = compileSchema(name, def.RawInputSchema) })
		return schema
	}
	// validate checks a call's arguments (sizes, then the schema) and
	// binds them to T; every failure is an invalid_input naming the field.
	validate := func(raw any) (T, error) {
		var args T
		if err := checkSizes(raw); err != nil {
			return args, err
		}
		if err := checkArgs(compiled(), raw); err != nil {
			return args, err
		}
		b, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(b, &args)
		}
		if err != nil {
			return args, invalidInput("arguments", "%v", err)
		}
		return args, nil
	}
	handler := d.instrument(name, d.limit(name, d.expand(bind(name, validate, onSession(d, name, toolset, fn)))))
	check := func(raw any) error { _, err := validate(raw); return err }
	step := func(ctx context.Context, s *Session, raw map[string]any) (*mcp.CallToolResult, error) {
		args, err := validate(raw)
		if err != nil {
			return nil, err
		}
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = name, raw
		return filmed(d, name, toolset, recorded(d, name, fn))(ctx, s, req, args)
	}
	_, source, _, _ := runtime.Caller(1)
	return Tool{Def: def, Handler: handler, Toolset: toolset, ReadOnly: a.readOnly, TypeSchema: typeSchema[T], Check: check, Step: step,
		Source: filepath.Base(source)}
}

// omitDefaultHints drops the hints that say what the MCP specification
// assumes when a hint is absent (readOnly false, destructive true,
// idempotent false, openWorld true): every byte of tools/list is sent to the
// model on every request.
func omitDefaultHints(a *mcp.ToolAnnotation) {
	if a.ReadOnlyHint != nil && !*a.ReadOnlyHint {
		a.ReadOnlyHint = nil
	}
	if a.DestructiveHint != nil && *a.DestructiveHint || a.ReadOnlyHint != nil {
		// A read-only tool is not destructive by definition.
		a.DestructiveHint = nil
	}
	if a.IdempotentHint != nil && !*a.IdempotentHint || a.ReadOnlyHint != nil {
		// Nor does repeating it change anything: the spec gives the hint
		// meaning only when readOnlyHint is false.
		a.IdempotentHint = nil
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		a.OpenWorldHint = nil
	}
}

// Register adds the inventory's tools to srv.
func Register(srv *server.MCPServer, tools []Tool) {
	// One AddTools call: each call copies the server's whole tool map.
	st := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		st[i] = server.ServerTool{Tool: t.Def, Handler: t.Handler}
	}
	srv.AddTools(st...)
}
