package mcptools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
)

// storeTable is every list and map a session keeps, reached from its
// Session, its browser.Tabs and their browser.Pages (by the types of their
// fields, in browser, mcptools and video), with what bounds it (issue 37:
// a page, a client or a long session must not grow a shared server
// without end). A text a page makes is clipped where it is stored
// (text.Keep, browser/eventlog/bounds.go); a count is bounded by its constant.
// "Not bounded" says so honestly, with why.
var storeTable = map[string]string{
	// The tabs' logs: counted and clipped as stored, and one budget for
	// the session (browser/eventlog/bounds.go).
	"eventlog.Log.console":                "ring of MaxConsoleRecords a tab, texts clipped (keep), within the session's MaxSessionLogBytes",
	"eventlog.Log.network":                "ring of MaxNetworkRecords a tab, URL and headers clipped, within the session's MaxSessionLogBytes",
	"eventlog.Log.open":                   "MaxOpenRequests; points at the network ring's records, dropped with them",
	"eventlog.ring.items":                 "the ring's max",
	"eventlog.Store.logs":                 "one per tab that holds records; a closed tab's is forgotten",
	"eventlog.NetworkRequest.reqHeaders":  "keepHeaders: MaxHeaderKept a value, MaxHeadersKept in all",
	"eventlog.NetworkRequest.respHeaders": "keepHeaders: MaxHeaderKept a value, MaxHeadersKept in all",
	"browser.Page.console":                "maxConsole errors until the next answer, texts clipped to maxConsoleText",
	"eventlog.Waits.waits":                "ring of maxActionWaits a tab, the target clipped to MaxURLKept",
	"eventlog.ActionWait.States":          "maxWaitStates, codes and messages clipped to MaxShortKept",
	"netguard.blockLog.list":              "maxBlocked, URLs and rules clipped (keepURL)",
	"netguard.Browser.unplaced":           "maxUnplaced, URLs clipped",
	"netguard.Downloads.list":             "maxDownloads, URLs clipped, names maxNameKept; the whole URL only while a remote download is fetched",
	"browser.Tabs.infos":                  "one per page target alive in the context, URL and title clipped; deleted when the target goes",
	"browser.Tabs.crashedURLs":            "tabs crashed since the last answer took them, URLs clipped",
	"storage.Origins.set":                 "maxOrigins",
	"browser.Tabs.popups":                 "target IDs of popups opened since the last call took them in",
	"browser.Tabs.tabs":                   "not bounded: the session's tabs (a page opens as many popups as it likes; only those selected or the first eagerPopups of a burst are attached, and their logs share the session's budget)",
	"browser.Tabs.hidden":                 "our own hidden tabs, one per remote download being fetched",
	"recording.Demo.steps":                "maxDemoSteps; only trusted events of a person",
	"recording.DemoStep.Values":           "the options a person selected",
	"browser.netState.inflight":           "IDs of requests in flight, each removed at its end",
	"browser.netState.routed":             "eventlog.MaxOpenRequests, then cleared",
	"netguard.PageGuard.authTried":        "cleared past maxBlocked",
	"netguard.guardQueue.queue":           "the requests Chrome holds paused for an answer from us",
	"recording.TabCast.acks":              "screencast frames to acknowledge: one in flight a session of the tab",
	"browser.frameTable.byNum":            "one per frame alive (IDs), removed when it goes",
	"browser.frameTable.hosts":            "one per out-of-process iframe alive",
	"browser.frameTable.num":              "one per frame alive (IDs), removed when it goes",
	"browser.frameTable.parent":           "one per frame alive (IDs), removed when it goes",
	"browser.frameTable.refSeq":           "one per frame alive (IDs), removed when it goes",
	"browser.Page.mains":                  "one per frame alive (IDs)",
	"browser.Page.worlds":                 "one per frame alive (IDs)",
	"netguard.Browser.iframes":            "one per iframe target alive in the browser",
	"netguard.Browser.wide":               "one per session that needs the browser-level guard",
	"netguard.Context.dev":                "the session's dev-server origins",
	"netguard.routeTable.routes":          "MaxRoutes",
	"netguard.Route.Body":                 "maxRouteBody",
	"netguard.Route.Headers":              "the agent's arguments (checkSizes: 1,000 items)",
	"netguard.Route.RemoveHeaders":        "the agent's arguments (checkSizes: 1,000 items)",
	"devices.Emulation.Headers":           "the agent's arguments (checkSizes: 1,000 items)",
	"devices.Emulation.Permissions":       "the agent's arguments (checkSizes: 1,000 items)",
	"browser.pageSetup.initScripts":       "the operator's --init-script files and the agent's scripts",
	"storage.State.Cookies":               "a storage state read once (--storage-state, session_start) or written to a file at once",
	"storage.State.Origins":               "a storage state read once (--storage-state, session_start) or written to a file at once",
	"storage.OriginState.LocalStorage":    "a storage state read once or written to a file at once",
	"storage.OriginState.SessionStorage":  "a storage state read once or written to a file at once",
	// The server's, reached through a page's manager.
	"browser.Manager.pages":     "every attached tab of every session (--max-sessions), removed when it closes",
	"launcher.Pool.grid":        "one per grid session (--max-sessions)",
	"netguard.Browsers.m":       "one per browser",
	"launcher.Pool.grids":       "the operator's --webdriver-url list",
	"launcher.Pool.remotes":     "the operator's --cdp-endpoint list",
	"browser.Options.Endpoints": "the operator's --cdp-endpoint list",
	"browser.Options.Grids":     "the operator's --webdriver-url list",
	// The session's own (mcptools).
	"mcptools.Session.errors":          "maxErrorHistory, messages maxErrorMessage, arguments maxArgsBytes",
	"mcptools.errorRecord.Carried":     "the names of a failure's diagnostics, a handful",
	"mcptools.stepLog.steps":           "maxLoggedSteps",
	"mcptools.loggedStep.args":         "keepArgs: every text maxLoggedArg, clipped after masking",
	"mcptools.loggedStep.failure":      "whole for the newest maxLoggedFailures, then maxLoggedResult of text",
	"mcptools.shot.img":                "one picture; the newest maxLoggedShots steps keep one, the newest taken is shared with its step (lastShot) and the one being taken (stepLog.pending)",
	"mcptools.loggedStep.targets":      "three at most (target, startTarget, endTarget)",
	"mcptools.loggedStep.groups":       "the stepLog's groups when it was logged (shared, never changed)",
	"mcptools.stepLog.groups":          "maxStepGroups, names clipped to maxStepGroupName (SetStepGroups)",
	"mcptools.Session.recorded":        "maxRecorded steps; their arguments are the agent's, kept whole to replay byte for byte",
	"mcptools.Session.readChecks":      "one per recorded step (addStep trims both), each at most maxPendingReads selectors of texts of at most maxReadText",
	"mcptools.Session.pendingReads":    "maxPendingReads selectors of texts of at most maxReadText",
	"mcptools.Session.leftOut":         "one per tool of the inventory, at most",
	"mcptools.Session.secretRefs":      "one per secret the flow reads from the environment",
	"mcptools.Session.secretNames":     "the server's, shared: one per secret of the operator's --secrets file, never grown by a session",
	"mcptools.Session.refNames":        "the refs of one page, reset by each whole snapshot; not clipped: a name is the page's, as long as it makes it, and the recorder's locator needs it whole",
	"mcptools.Session.pageRefs":        "the refs of the last whole snapshot",
	"mcptools.Session.initScripts":     "the operator's --init-script files",
	"mcptools.Session.untold":          "maxUntold answers of cancelled switches, each text maxUntoldText, told and cleared on the next call",
	"mcptools.SessionStartParams.Args": "the agent's arguments (checkSizes: 1,000 items)",
	"mcptools.consoleLog.queue":        "maxConsoleQueue messages and maxConsoleQueued bytes of their texts (as kept: clipped), no stack; then counted as lost",
	"mcptools.consoleLog.docs":         "one per open tab that logged, removed when it closes",
	"mcptools.consoleLog.unlinked":     "maxConsoleLinks files, then counted",
	"mcptools.consoleFile.buf":         "the lines of one queue's drain (the queue's bound), written at its end",
	// A session's video (package video): frames of at most
	// --max-video-size.
	"video.Recorder.queue":    "maxQueued frames and maxQueuedBytes, maxHeld items while calls run",
	"video.Recorder.overlays": "the actions showing, maxHeld at most",
	"video.decodedFrame.data": "two frames",
	"video.pngRows.cur":       "a row of a frame of at most --max-video-size",
	"video.pngRows.prior":     "a row of a frame of at most --max-video-size",
	"video.pngRows.try":       "a row of a frame of at most --max-video-size",
}

// TestStoresBounded finds every list and map a session keeps (the fields
// of slice, map or ring type of the structs reached from Session,
// browser.Tabs and browser.Page) and holds them to storeTable, which says
// what bounds each: a new store fails this test until its bound is said.
func TestStoresBounded(t *testing.T) {
	structs := map[string]*ast.StructType{}
	for _, dir := range []string{"../browser", ".", "../video"} {
		files, err := gocalls.Sources(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			af, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range af.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gd.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							structs[af.Name.Name+"."+ts.Name.Name] = st
						}
					}
				}
			}
		}
	}
	found := map[string]bool{}
	seen := map[string]bool{}
	var visit func(typ string)
	visit = func(typ string) {
		st := structs[typ]
		if seen[typ] || st == nil {
			return
		}
		seen[typ] = true
		pkg, _, _ := strings.Cut(typ, ".")
		for _, f := range st.Fields.List {
			collection, refs := fieldType(pkg, f.Type)
			for _, n := range f.Names {
				if collection {
					found[typ+"."+n.Name] = true
				}
			}
			for _, r := range refs {
				visit(r)
			}
		}
	}
	for _, root := range []string{"mcptools.Session", "browser.Tabs", "browser.Page"} {
		if structs[root] == nil {
			t.Fatalf("no type %s", root)
		}
		visit(root)
	}
	for s := range found {
		if _, ok := storeTable[s]; !ok {
			t.Errorf("a store not in storeTable: %s\n  bound it (a count, keep for the texts a page makes) and say how", s)
		}
	}
	for s := range storeTable {
		if !found[s] {
			t.Errorf("storeTable lists %s, which a session no longer keeps", s)
		}
	}
}

// fieldType says whether a field's type is a collection (a slice, a map, a
// ring) and which named types of ours it holds.
func fieldType(pkg string, e ast.Expr) (collection bool, refs []string) {
	switch x := e.(type) {
	case *ast.StarExpr:
		return fieldType(pkg, x.X)
	case *ast.ArrayType:
		c, r := fieldType(pkg, x.Elt)
		return c || x.Len == nil, r
	case *ast.MapType:
		_, rk := fieldType(pkg, x.Key)
		_, rv := fieldType(pkg, x.Value)
		return true, append(rk, rv...)
	case *ast.ChanType:
		return fieldType(pkg, x.Value)
	case *ast.IndexExpr: // a generic type: ring[T]
		c, r := fieldType(pkg, x.X)
		_, ri := fieldType(pkg, x.Index)
		if id, ok := x.X.(*ast.Ident); ok && id.Name == "ring" {
			c = true
		}
		return c, append(r, ri...)
	case *ast.Ident:
		return false, []string{pkg + "." + x.Name}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return false, []string{id.Name + "." + x.Sel.Name}
		}
	}
	return false, nil
}
