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

// TestFloorNote: the initialize floor's note gives each program's median and
// e2e-mcp's own share; with a program missing it says why instead.
func TestFloorNote(t *testing.T) {
	f := &floorResult{Starts: 3, Stats: map[string]stat{
		e2eMCP:     {N: 3, Median: 19, Min: 14, Max: 25},
		floorMCPGo: {N: 3, Median: 13, Min: 10, Max: 17},
		floorBare:  {N: 3, Median: 3, Min: 2.4, Max: 5.3},
	}}
	got := f.note()
	for _, want := range []string{"3 starts of each", "3.0 ms (2.4–5.3)", "13 ms (10–17)", "e2e-mcp 19 ms (14–25)", "difference, 6.0 ms"} {
		if !strings.Contains(got, want) {
			t.Errorf("note lacks %q:\n%s", want, got)
		}
	}
	f = &floorResult{Starts: 3, Stats: map[string]stat{e2eMCP: {N: 3, Median: 19}}, Errors: []string{"floor-bare: exec: no such file"}}
	if got := f.note(); !strings.Contains(got, "not measured (floor-bare: exec: no such file)") {
		t.Errorf("note without the floor programs = %q", got)
	}
}
