package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// figure is one row of the table.
type figure struct {
	key, title, unit string
	target           float64 // the ratio target e2e-mcp / Playwright MCP; 0: none
}

// higherIsBetter names the figures whose best peer has the highest median
// (throughput); for every other figure, lowest is best.
var higherIsBetter = map[string]bool{"conc_calls": true}

// stdioFigures are the figures of the scenarios over stdio, in runServer.
var stdioFigures = []figure{
	{"init_ms", "process start to `initialize` answered", "ms", 0.05},
	{"tools_bytes", "`tools/list` size (tools offered)", "bytes", 1.0},
	{"first_nav_ms", "first navigate (includes browser launch)", "ms", 0},
	{"warm_nav_ms", "warm navigate", "ms", 0.7},
	{"form_snap_ms", "snapshot of the sign-up form", "ms", 0},
	{"form_snap_bytes", "… its size (page text in it?)", "bytes", 0},
	{"fill_ms", "fill a text box by ref", "ms", 0.5},
	{"click_ms", "click submit by ref, with the page state returned", "ms", 0.1},
	{"click_bytes", "… its answer (page state in it?)", "bytes", 0},
	{"big_nav_ms", "navigate to the 1,500-row page", "ms", 0},
	{"big_nav_bytes", "… its answer", "bytes", 0},
	{"big_snap_ms", "snapshot of the 1,500-row page", "ms", 0.5},
	{"big_snap_bytes", "… its size (rows with a ref on button and link)", "bytes", 0.5},
	{"big_click_ms", "click a button on the 1,500-row page", "ms", 0},
	{"task_orders", "task bytes: ship order 1400 on a 1,500-row orders table", "bytes", 0},
	{"task_docs", "task bytes: follow \"reference 47\" in a 60-section docs article", "bytes", 0},
	{"task_grid", "task bytes: add product 287 to the cart on a 300-card grid", "bytes", 0},
	{"task_thread", "task bytes: reply to comment 640 in an 800-comment thread", "bytes", 0},
	{"task_settings", "task bytes: save a 150-field settings form", "bytes", 0},
	{"task_total", "task bytes, all five (tasks done; calls made)", "bytes", 0.05},
	{"server_pss", "server PSS (processes that are not the browser)", "kB", 0.25},
	{"tree_pss", "whole process tree PSS (server + browser)", "kB", 0.8},
	{"tree_uss", "whole process tree private memory (USS)", "kB", 0},
}

// concurrentFigures are the figures of the concurrent scenario over HTTP
// (concurrent.go). "{N}" in a title is the scenario's label.
var concurrentFigures = []figure{
	{"conc_setup_ms", "concurrent ({N}): every client connected, first page open", "ms", 0},
	{"conc_nav_p50", "… navigate p50", "ms", 0},
	{"conc_nav_p95", "… navigate p95", "ms", 0},
	{"conc_snap_p50", "… snapshot p50", "ms", 0},
	{"conc_snap_p95", "… snapshot p95", "ms", 0},
	{"conc_click_p50", "… click by ref p50", "ms", 0},
	{"conc_click_p95", "… click by ref p95", "ms", 0.5},
	{"conc_calls", "… tool calls made in the loop, all clients", "count", 0},
	{"conc_failed", "… failed calls", "count", 0},
	{"conc_wrong_page", "… snapshots not showing the client's own page", "count", 0},
	{"conc_tree_pss", "… whole process tree PSS at the end of the loop", "kB", 0.6},
}

// figures is every row of the table, in order.
var figures = slices.Concat(stdioFigures, concurrentFigures)

// figureKeys are the keys of the stdio figures, in order.
func figureKeys() []string {
	out := make([]string, len(stdioFigures))
	for i, f := range stdioFigures {
		out[i] = f.key
	}
	return out
}

func concurrentKeys() []string {
	out := make([]string, len(concurrentFigures))
	for i, f := range concurrentFigures {
		out[i] = f.key
	}
	return out
}

// stat is the summary of one figure for one server over every run.
type stat struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Failed int     `json:"failed_runs,omitempty"`
}

func summarize(v []float64) stat {
	if len(v) == 0 {
		return stat{}
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return stat{N: len(s), Median: m, Min: s[0], Max: s[len(s)-1]}
}

// summary is every figure of every server, plus the notes the table needs.
type summary struct {
	Servers []string                       `json:"servers"`
	Stats   map[string]map[string]stat     `json:"stats"` // server → figure → stat
	Info    map[string]map[string]string   `json:"info"`
	Errors  map[string]map[string][]string `json:"errors"` // server → figure → distinct reasons
	Left    map[string][]string            `json:"left"`   // server → processes left after close
	// Concurrent describes the concurrent scenario ("10 clients over HTTP,
	// 20s loop"); "" when it did not run.
	Concurrent string `json:"concurrent,omitempty"`
}

func summarizeRuns(servers []string, runs []runResult) summary {
	s := summary{Servers: servers, Stats: map[string]map[string]stat{}, Info: map[string]map[string]string{},
		Errors: map[string]map[string][]string{}, Left: map[string][]string{}}
	for _, srv := range servers {
		pooled := map[string][]float64{}
		failed := map[string]int{}
		info := map[string]map[string]bool{}
		s.Errors[srv] = map[string][]string{}
		for _, r := range runs {
			if r.Server != srv {
				continue
			}
			for k, v := range r.Samples {
				pooled[k] = append(pooled[k], v...)
			}
			for k, e := range r.Errors {
				failed[k]++
				if !slices.Contains(s.Errors[srv][k], e) {
					s.Errors[srv][k] = append(s.Errors[srv][k], e)
				}
			}
			for k, v := range r.Info {
				if info[k] == nil {
					info[k] = map[string]bool{}
				}
				info[k][v] = true
			}
			s.Left[srv] = append(s.Left[srv], r.Leftover...)
		}
		s.Stats[srv] = map[string]stat{}
		for k, v := range pooled {
			st := summarize(v)
			st.Failed = failed[k]
			s.Stats[srv][k] = st
		}
		for k, n := range failed {
			if _, ok := s.Stats[srv][k]; !ok {
				s.Stats[srv][k] = stat{Failed: n}
			}
		}
		s.Info[srv] = map[string]string{}
		for k, vs := range info {
			var l []string
			for v := range vs {
				l = append(l, v)
			}
			sort.Strings(l)
			s.Info[srv][k] = strings.Join(l, " / ")
		}
	}
	return s
}

// value formats a number of a unit for the table.
func value(v float64, unit string) string {
	switch unit {
	case "ms":
		if v < 10 {
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return thousands(int64(math.Round(v)))
	case "bytes":
		if v < 1000 {
			return strconv.FormatFloat(v, 'f', 0, 64) + " B"
		}
		return strconv.FormatFloat(v/1000, 'f', 1, 64) + " KB"
	case "kB":
		return thousands(int64(math.Round(v/1000))) + " MB"
	case "count":
		return thousands(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func unitSuffix(unit string) string {
	if unit == "ms" {
		return " ms"
	}
	return ""
}

// cell is one server's figure: the median and, when it varies, the spread.
func (s summary) cell(srv string, f figure, foot func(string) string) string {
	st, ok := s.Stats[srv][f.key]
	if !ok {
		return "—"
	}
	var out string
	if st.N == 0 {
		reasons := s.Errors[srv][f.key]
		out = "n/a" + foot(srv+": "+strings.Join(reasons, "; "))
	} else {
		out = value(st.Median, f.unit)
		if st.N > 1 && value(st.Min, f.unit) != value(st.Max, f.unit) {
			lo, hi := value(st.Min, f.unit), value(st.Max, f.unit)
			if f.unit == "bytes" || f.unit == "kB" {
				lo, hi = strings.Fields(lo)[0], strings.Fields(hi)[0]
			}
			out += " (" + lo + "–" + hi + ")"
		}
		out += unitSuffix(f.unit)
		if st.Failed > 0 {
			out += foot(fmt.Sprintf("%s: failed in %d run(s): %s", srv, st.Failed, strings.Join(s.Errors[srv][f.key], "; ")))
		}
	}
	if v := s.Info[srv][cellNotes[f.key]]; cellNotes[f.key] != "" && v != "" {
		out += " (" + v + ")"
	}
	return out
}

// cellNotes names, per figure, the info item shown in brackets after it.
var cellNotes = map[string]string{
	"tools_bytes":       "tools",
	"form_snap_bytes":   "form_snap_text",
	"click_bytes":       "click_state",
	"big_snap_bytes":    "row_refs",
	"task_total":        "tasks",
	"conc_calls":        "conc_clicks_seen",
	"conc_wrong_page":   "conc_bleed",
	"conc_tree_pss":     "conc_browsers",
	"video_frames":      "video_frames",
	"video_form_frames": "video_form_frames",
}

// writeTable writes the markdown table and its footnotes.
func writeTable(w io.Writer, s summary) {
	var notes []string
	foot := func(text string) string {
		for i, n := range notes {
			if n == text {
				return fmt.Sprintf(" [%d]", i+1)
			}
		}
		notes = append(notes, text)
		return fmt.Sprintf(" [%d]", len(notes))
	}
	head := []string{"figure"}
	for _, srv := range s.Servers {
		head = append(head, columnTitle[srv])
	}
	hasPW := slices.Contains(s.Servers, playwright)
	if hasPW {
		head = append(head, "e2e-mcp / Playwright (target)")
	}
	peers := len(s.Servers) > 1
	if peers {
		head = append(head, "best peer: e2e-mcp / it")
	}
	fmt.Fprintln(w, "| "+strings.Join(head, " | ")+" |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", len(head)))
	for _, f := range figures {
		if strings.HasPrefix(f.key, "conc_") && s.Concurrent == "" {
			continue
		}
		row := []string{strings.ReplaceAll(f.title, "{N}", s.Concurrent)}
		for _, srv := range s.Servers {
			row = append(row, s.cell(srv, f, foot))
		}
		ours, okOurs := s.median(e2eMCP, f.key)
		if hasPW {
			c := "—"
			if pw, ok := s.median(playwright, f.key); ok && okOurs && pw > 0 {
				r := ours / pw
				c = ratio(r)
				if f.target > 0 {
					mark := "met"
					if r > f.target {
						mark = "missed"
					}
					c += fmt.Sprintf(" (≤ %s: %s)", strconv.FormatFloat(f.target, 'f', -1, 64), mark)
				}
			} else if f.target > 0 {
				c = fmt.Sprintf("— (≤ %s)", strconv.FormatFloat(f.target, 'f', -1, 64))
			}
			row = append(row, c)
		}
		if peers {
			best, bestV := "", math.Inf(1)
			if higherIsBetter[f.key] {
				bestV = math.Inf(-1)
			}
			for _, srv := range s.Servers {
				v, ok := s.median(srv, f.key)
				better := v < bestV
				if higherIsBetter[f.key] {
					better = v > bestV
				}
				if ok && srv != e2eMCP && better {
					best, bestV = srv, v
				}
			}
			c := "—"
			if best != "" && okOurs && bestV > 0 {
				c = fmt.Sprintf("%s: %s", columnTitle[best], ratio(ours/bestV))
			}
			row = append(row, c)
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}
	// The viewport a fresh session gets: not a timed figure, but it
	// decides what an agent sees (issue 31).
	row := []string{"viewport of a fresh session (CSS px)"}
	for _, srv := range s.Servers {
		v := s.Info[srv]["viewport"]
		if v == "" {
			v = "—"
		}
		row = append(row, v)
	}
	for len(row) < len(head) {
		row = append(row, "")
	}
	fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	// Processes left running after the client closed (then killed by the bench).
	row = []string{"processes left after the client closed"}
	anyLeft := false
	for _, srv := range s.Servers {
		if n := len(s.Left[srv]); n > 0 {
			anyLeft = true
			row = append(row, fmt.Sprintf("%d (killed by the bench)", n))
		} else {
			row = append(row, "0")
		}
	}
	if anyLeft {
		for len(row) < len(head) {
			row = append(row, "")
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for i, n := range notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, oneLine(n, 600))
		}
	}
}

func ratio(r float64) string {
	switch {
	case r < 0.01:
		return strconv.FormatFloat(r, 'f', 3, 64)
	case r < 10:
		return strconv.FormatFloat(r, 'f', 2, 64)
	}
	return strconv.FormatFloat(r, 'f', 0, 64)
}

func (s summary) median(srv, key string) (float64, bool) {
	st, ok := s.Stats[srv][key]
	if !ok || st.N == 0 {
		return 0, false
	}
	return st.Median, true
}
