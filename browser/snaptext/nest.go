package snaptext

import "strings"

// LineLevel is the level (1: a top line) of the first line of yaml that
// holds marker, read from its indentation.
func LineLevel(yaml, marker string) int {
	i := strings.Index(yaml, marker)
	if i < 0 {
		return 1
	}
	start := strings.LastIndexByte(yaml[:i], '\n') + 1
	return indent(yaml[start:i])/2 + 1
}

// InsertUnder nests child (a YAML list) under the line that holds marker.
func InsertUnder(yaml, marker, child string) string {
	if strings.TrimSpace(child) == "" {
		return yaml
	}
	lines := strings.Split(yaml, "\n")
	for i, l := range lines {
		if !strings.Contains(l, marker) {
			continue
		}
		pad := strings.Repeat(" ", indent(l)+2)
		if !strings.HasSuffix(l, ":") {
			lines[i] = l + ":"
		}
		var nested []string
		for _, c := range strings.Split(strings.TrimRight(child, "\n"), "\n") {
			nested = append(nested, pad+c)
		}
		out := append(append(append([]string{}, lines[:i+1]...), nested...), lines[i+1:]...)
		return strings.Join(out, "\n")
	}
	return yaml
}
