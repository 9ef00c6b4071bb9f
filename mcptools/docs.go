package mcptools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ToolTable renders the inventory as the README's markdown table: one row
// per tool with its arguments (? marks optional ones; sessionId, which every
// tool takes, is left out).
func ToolTable(tools []Tool) string {
	var b strings.Builder
	b.WriteString("| tool | arguments | what it does |\n|---|---|---|\n")
	for _, t := range tools {
		desc := strings.ReplaceAll(t.Def.Description, "|", "\\|")
		if t.Cap != "" {
			desc = "(`--caps " + t.Cap + "`) " + desc
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", t.Def.Name, argList(t), desc)
	}
	return b.String()
}

// ToolFiles is docs/development.md's index of where each tool is defined:
// a row a file of this package, with the tools it defines, files in name
// order.
func ToolFiles(tools []Tool) string {
	byFile := map[string][]string{}
	for _, t := range tools {
		byFile[t.Source] = append(byFile[t.Source], t.Def.Name)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("| file | tools |\n|---|---|\n")
	for _, f := range files {
		names := byFile[f]
		sort.Strings(names)
		fmt.Fprintf(&b, "| `mcptools/%s` | `%s` |\n", f, strings.Join(names, "`, `"))
	}
	return b.String()
}

func argList(t Tool) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	_ = json.Unmarshal(t.Def.RawInputSchema, &s)
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	var names []string
	for n := range s.Properties {
		if n != "sessionId" {
			names = append(names, n)
		}
	}
	// Required first, each group alphabetical.
	sort.Slice(names, func(i, j int) bool {
		if req[names[i]] != req[names[j]] {
			return req[names[i]]
		}
		return names[i] < names[j]
	})
	for i, n := range names {
		if !req[n] {
			n += "?"
		}
		names[i] = "`" + n + "`"
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
