package snaptext

import (
	"fmt"
	"strings"
)

// Diff compares two snapshots of the same page and renders what
// changed: every line of next that prev did not have, under the chain of
// its ancestor lines (so the change can be read in place), followed by a
// note of how many lines went away. ok is false when nothing changed.
func Diff(prev, next string) (diff string, ok bool) {
	seen := map[string]int{}
	for _, l := range strings.Split(prev, "\n") {
		seen[l]++
	}
	lines := strings.Split(next, "\n")
	changed := make([]bool, len(lines))
	found := false
	for i, l := range lines {
		if seen[l] > 0 {
			seen[l]--
			continue
		}
		if strings.TrimSpace(l) != "" {
			changed[i], found = true, true
		}
	}
	var removed []string
	for l, n := range seen {
		for ; n > 0 && strings.TrimSpace(l) != ""; n-- {
			removed = append(removed, strings.TrimSpace(l))
		}
	}
	if !found && len(removed) == 0 {
		return "", false
	}
	// Keep each changed line and its ancestors: walking back, an ancestor is
	// the nearest earlier line with a smaller indent.
	keep := make([]bool, len(lines))
	for i := range lines {
		if !changed[i] {
			continue
		}
		keep[i] = true
		ind := indent(lines[i])
		for j := i - 1; j >= 0 && ind > 0; j-- {
			if k := indent(lines[j]); k < ind && strings.TrimSpace(lines[j]) != "" {
				keep[j] = true
				ind = k
			}
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if keep[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	if len(removed) > 0 {
		fmt.Fprintf(&b, "# removed %d line(s)", len(removed))
		if len(removed) <= 3 {
			b.WriteString(": " + strings.Join(removed, " | "))
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n"), true
}

// indent is the number of spaces a snapshot line starts with.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
