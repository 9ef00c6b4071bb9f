package browser

import (
	"embed"
	"io/fs"
	"strings"
	"sync"
)

// engineFiles are the page engine's parts. They are concatenated in name
// order into one script (00_prologue.js opens an IIFE that the others share,
// 99_epilogue.js exports globalThis.__e2e and closes it), so each concern
// (ARIA roles and names, snapshots, selectors, actions) has its own file
// without a bundler.
//
//go:embed js/*.js
var engineFiles embed.FS

// engineJS returns the page engine: snapshots, refs, selectors and
// actionability checks. It runs in the isolated world [worldName] of every
// document, where page scripts can neither see nor disturb it, and defines
// globalThis.__e2e. It is joined on first use, not at package init: every
// process start (and so every client's initialize) would pay for it.
var engineJS = sync.OnceValue(mustJoinEngine)

// worldName names the isolated world the engine runs in.
const worldName = "__e2e_mcp"

func mustJoinEngine() string {
	names, err := fs.Glob(engineFiles, "js/*.js")
	if err != nil || len(names) == 0 {
		panic("browser: no page engine files embedded")
	}
	var b strings.Builder
	for _, n := range names { // fs.Glob returns names sorted
		src, err := engineFiles.ReadFile(n)
		if err != nil {
			panic(err)
		}
		b.WriteString("// ---- " + n + " ----\n")
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
}
