package main

import (
	"slices"
	"strings"
	"testing"
)

func TestOwnPage(t *testing.T) {
	cases := []struct {
		snap      string
		own       bool
		other     string
		wantOther bool
	}{
		{"- heading \"Client 3 visit 7\" [level=1] [ref=e2]\n- button \"Ping 3-7\" [ref=e4]", true, "", false},
		{"Page Title: Client 3 visit 7\n- heading \"Client 3 visit 7\" [level=1]", true, "", false},
		{"- heading \"Client 4 visit 7\" [level=1]", false, "Client 4 visit 7", true},
		{"- heading \"Client 3 visit 70\" [level=1]", false, "Client 3 visit 70", true},
		{"- heading \"Client 3 visit 6\" [level=1]", false, "Client 3 visit 6", true},
		{"- heading \"Page 1\" [level=1]", false, "", false},
	}
	for _, c := range cases {
		own, other := ownPage(c.snap, 3, 7)
		if own != c.own || other != c.other {
			t.Errorf("ownPage(%q) = %v, %q; want %v, %q", c.snap, own, other, c.own, c.other)
		}
	}
	if ref, ok := findRef("- button \"Ping 3-7\" [ref=e4]\n", "button", "Ping 3-7"); !ok || ref != "e4" {
		t.Errorf("findRef on a client page = %q, %v", ref, ok)
	}
}

func TestPercentile(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	if got := percentile(v, 50); got != 5 {
		t.Errorf("p50 = %v, want 5", got)
	}
	if got := percentile(v, 95); got != 10 {
		t.Errorf("p95 = %v, want 10", got)
	}
	if got := percentile([]float64{42}, 95); got != 42 {
		t.Errorf("p95 of one = %v", got)
	}
}

func TestListenAddr(t *testing.T) {
	line := `{"level":"info","time":"2026-11-22T08:43:08.254Z","caller":"e2e-mcp/http.go:74","msg":"serving MCP over HTTP","version":"dev","addr":"127.0.0.1:41129","mcp":"http://127.0.0.1:41129/mcp"}`
	if got := listenAddr(line); got != "127.0.0.1:41129" {
		t.Errorf("listenAddr = %q", got)
	}
	if got := listenAddr(`{"msg":"browser launched","addr":"x"}`); got != "" {
		t.Errorf("listenAddr on another line = %q", got)
	}
}

func TestHTTPArgs(t *testing.T) {
	got := httpArgs(e2eSpec("/bin/e2e-mcp", "--log-level debug").Args)
	want := []string{"serve", "--http", "127.0.0.1:0", "--max-snapshot-bytes", "0", "--log-level", "info", "--log-level", "debug"}
	if !slices.Equal(got, want) {
		t.Errorf("httpArgs = %q, want %q", got, want)
	}
	pw := playwrightHTTPArgs([]string{"--headless", "--no-sandbox"}, 8931)
	if !slices.Equal(pw, []string{"--headless", "--no-sandbox", "--port", "8931", "--isolated"}) {
		t.Errorf("playwrightHTTPArgs = %q", pw)
	}
}

// TestConcurrentRows: the concurrent rows appear only when the scenario ran,
// titled with its label, with their targets.
func TestConcurrentRows(t *testing.T) {
	s := summary{
		Servers: []string{e2eMCP, playwright},
		Stats: map[string]map[string]stat{
			e2eMCP:     {"conc_click_p95": {N: 1, Median: 100, Min: 100, Max: 100}, "conc_tree_pss": {N: 1, Median: 700e3, Min: 700e3, Max: 700e3}},
			playwright: {"conc_click_p95": {N: 1, Median: 400, Min: 400, Max: 400}, "conc_tree_pss": {N: 1, Median: 1000e3, Min: 1000e3, Max: 1000e3}},
		},
	}
	var b strings.Builder
	writeTable(&b, s)
	if strings.Contains(b.String(), "click by ref p95") {
		t.Errorf("concurrent rows without the scenario:\n%s", b.String())
	}
	s.Concurrent = "10 clients over HTTP, 20s loop"
	b.Reset()
	writeTable(&b, s)
	out := b.String()
	for _, want := range []string{"concurrent (10 clients over HTTP, 20s loop)", "| … click by ref p95 | 100 ms | 400 ms | 0.25 (≤ 0.5: met) |",
		"| … whole process tree PSS at the end of the loop | 700 MB | 1,000 MB | 0.70 (≤ 0.6: missed) |"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
