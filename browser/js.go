package browser

import _ "embed"

// engineJS is the page engine: snapshots, refs and actionability checks. It
// runs in the isolated world [worldName] of every document, where page
// scripts can neither see nor disturb it, and defines globalThis.__e2e.
//
//go:embed js/engine.js
var engineJS string

// worldName names the isolated world the engine runs in.
const worldName = "__e2e_mcp"
