package main

import (
	"strings"
	"testing"
)

// TestCellNotes: the figures that carry a note show it in brackets, the
// others do not.
func TestCellNotes(t *testing.T) {
	s := summary{
		Stats: map[string]map[string]stat{"x": {
			"tools_bytes": {N: 1, Median: 8728, Min: 8728, Max: 8728},
			"click_bytes": {N: 1, Median: 288, Min: 288, Max: 288},
			"fill_ms":     {N: 1, Median: 32, Min: 32, Max: 32},
		}},
		Info: map[string]map[string]string{"x": {"tools": "13", "click_state": "yes"}},
	}
	noFoot := func(string) string { return "" }
	byKey := map[string]figure{}
	for _, f := range figures {
		byKey[f.key] = f
	}
	if got := s.cell("x", byKey["tools_bytes"], noFoot); !strings.HasSuffix(got, "(13)") {
		t.Errorf("tools_bytes cell = %q, want the tool count in brackets", got)
	}
	if got := s.cell("x", byKey["click_bytes"], noFoot); !strings.HasSuffix(got, "(yes)") {
		t.Errorf("click_bytes cell = %q, want the page-state note", got)
	}
	if got := s.cell("x", byKey["fill_ms"], noFoot); strings.Contains(got, "(yes)") || strings.Contains(got, "(13)") {
		t.Errorf("fill_ms cell = %q carries another figure's note", got)
	}
}
