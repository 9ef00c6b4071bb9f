// Package config is every setting of e2e-mcp's server and its subcommands,
// read once into one Config: the flags and their E2E_MCP_* variables (one
// table, config.go, of kinds settingkinds.go binds), Playwright MCP's flags
// and PLAYWRIGHT_MCP_* variables, mapped onto ours or refused with what to
// use instead (pwcompat.go), its --config file, JSON or INI (pwconfig.go,
// pwconfig_ini.go), and the --secrets dotenv file (secretsfile.go); which
// of them are credentials (credentials.go: the variables cmd removes from
// its environment once read, the values every writer masks). Parse
// reads and checks them (Validate); a mistake in the flags themselves is a
// *FlagError. The subcommands make their own flag sets with NewFlagSet, so
// every command words a mistake alike (FlagMistake).
//
// It owns how the settings are shown back too: the flags tables of
// docs/flags.md and docs/playwright-mcp.md (docs.go, checked by
// TestReadmeFlagTable and TestReadmePlaywrightTable; 'make docs' rewrites
// them), server.json's variables (TestServerJSON), and browser_get_config's
// view of the effective settings in Playwright MCP's config shape, its
// credentials masked (pwconfig_view.go: View).
//
// cmd/e2e-mcp is its only importer: it parses, then maps the Config onto
// the browser's, the tools' and the transports' options. It may import the
// packages whose values it checks and builds (browser, devserver, logs,
// mcptools, netpolicy, redact, transport, webdriver); it speaks no MCP
// (no mcp-go) and drives no browser (no chromedp: depguard's rule for
// cmd/**, .golangci.yml), and imports no other package of cmd/e2e-mcp.
package config
