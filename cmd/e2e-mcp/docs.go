package main

import (
	"fmt"
	"strings"
)

// flagTable renders the settings as the README's flags table.
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
