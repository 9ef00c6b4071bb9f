package config

import (
	"fmt"
	"strings"
)

// flagTable renders the settings as the flags table of docs/flags.md.
func flagTable() string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | meaning |\n|---|---|---|---|\n")
	for _, s := range settings {
		def := s.def
		if def == "" {
			def = "—"
		}
		fmt.Fprintf(&b, "| `--%s` | `%s` | %s | %s |\n", s.flag, s.env, def, s.help)
	}
	b.WriteString("| | `HEADLESS` | true | `HEADLESS=false` shows the browser, like `--headed` |\n")
	return b.String()
}

// pwFlagTable renders pwFlags as docs/playwright-mcp.md's table of
// Playwright MCP's flags: theirs, ours, and how they differ.
func pwFlagTable() string {
	var b strings.Builder
	b.WriteString("| Playwright MCP | e2e-mcp | difference |\n|---|---|---|\n")
	for _, f := range pwFlags {
		ours := "—"
		switch {
		case f.refused != "" && f.ours == "":
			ours = "refused"
		case f.ours == f.name:
			ours = "same"
		case f.ours != "":
			ours = "`--" + f.ours + "`"
		}
		diff := f.differs
		if f.refused != "" && f.ours == "" {
			diff = f.refused
		}
		if f.to != nil && strings.HasPrefix(f.name, "timeout-") {
			diff = strings.TrimSuffix("milliseconds, as theirs; "+diff, "; ")
		}
		fmt.Fprintf(&b, "| `--%s` | %s | %s |\n", f.name, ours, diff)
	}
	return b.String()
}
