package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// suiteFigures are the runner table's figures for each setting. A target
// is the ratio e2e-mcp / Playwright Test; targetArtifacts holds
// only in the settings with artifacts.
var suiteFigures = []struct {
	figure
	targetArtifacts float64
}{
	{figure{"wall_ms", "wall time", "s", 0.7}, 0},
	{figure{"cpu_ms", "CPU time (user+sys of the process tree)", "s", 0}, 0},
	{figure{"rss_kb", "peak memory (RSS sum of the process tree, sampled)", "kB", 0.5}, 0},
	{figure{"pss_kb", "peak memory (PSS sum: a page its processes share counted once)", "kB", 0}, 0},
	{figure{"bytes", "bytes written to the output directory", "bytes", 0}, 1.0},
}

// suiteRow is one figure of one setting: each side's stat over the rounds
// and the stat of the ratios, each from the two runs of one round.
type suiteRow struct {
	Setting string  `json:"setting"`
	Title   string  `json:"title"`
	Figure  string  `json:"figure"`
	Label   string  `json:"label"`
	Unit    string  `json:"unit"`
	Target  float64 `json:"target,omitempty"`
	Ours    stat    `json:"ours"`
	// Other is Playwright Test's runs, or for a row that compares e2e-mcp
	// with itself (--retries) e2e-mcp's runs in the base setting.
	Other stat `json:"other"`
	Ratio stat `json:"ratio"`
	Self  bool `json:"self,omitempty"` // Other is e2e-mcp's base setting
}

// summarizeSuite makes the table's rows from every run, and the notes for
// the runs whose figures do not count (an error, a flow that did not pass).
func summarizeSuite(samples []suiteSample) ([]suiteRow, []string) {
	find := func(runner, setting string, round int) (suiteSample, bool) {
		for _, s := range samples {
			if s.Runner == runner && s.Setting == setting && s.Round == round {
				return s, true
			}
		}
		return suiteSample{}, false
	}
	var notes []string
	for _, s := range samples {
		if !s.ok() {
			why := s.Err
			if why == "" {
				why = fmt.Sprintf("%d of %d flows passed", s.Passed, s.Tests)
			}
			notes = append(notes, fmt.Sprintf("%s, %s, round %d left out: %s", runnerTitle(s.Runner), settingTitle(s.Setting), s.Round, why))
		}
		if len(s.Leftover) > 0 {
			notes = append(notes, fmt.Sprintf("%s, %s, round %d: %d process(es) still running after it exited, killed by the bench: %s",
				runnerTitle(s.Runner), settingTitle(s.Setting), s.Round, len(s.Leftover), strings.Join(s.Leftover, ", ")))
		}
	}
	rounds := 0
	for _, s := range samples {
		rounds = max(rounds, s.Round)
	}
	var rows []suiteRow
	for _, st := range suiteSettings {
		otherRunner, otherSetting := suitePW, st.Key
		if st.OursOnly {
			otherRunner, otherSetting = suiteOurs, st.Base
		}
		for _, f := range suiteFigures {
			if st.OursOnly && f.key != "wall_ms" && f.key != "cpu_ms" {
				continue
			}
			row := suiteRow{Setting: st.Key, Title: st.Title, Figure: f.key, Label: f.title, Unit: f.unit, Target: f.target, Self: st.OursOnly}
			if st.Artifacts && f.targetArtifacts > 0 {
				row.Target = f.targetArtifacts
			}
			if st.OursOnly {
				row.Target = 0
			}
			var ours, other, ratios []float64
			for r := 1; r <= rounds; r++ {
				a, okA := find(suiteOurs, st.Key, r)
				b, okB := find(otherRunner, otherSetting, r)
				okA, okB = okA && a.ok(), okB && b.ok()
				if okA {
					ours = append(ours, a.Figures[f.key])
				}
				if okB {
					other = append(other, b.Figures[f.key])
				}
				if okA && okB && b.Figures[f.key] > 0 {
					ratios = append(ratios, a.Figures[f.key]/b.Figures[f.key])
				}
			}
			row.Ours, row.Other, row.Ratio = summarize(ours), summarize(other), summarize(ratios)
			if len(ours) == 0 && len(other) == 0 {
				continue
			}
			rows = append(rows, row)
		}
	}
	return rows, notes
}

func runnerTitle(r string) string {
	if r == suitePW {
		return "Playwright Test"
	}
	return "e2e-mcp run"
}

func settingTitle(key string) string {
	for _, s := range suiteSettings {
		if s.Key == key {
			return s.Title
		}
	}
	return key
}

// suiteValue formats a figure of the runner table.
func suiteValue(v float64, unit string) string {
	switch unit {
	case "s": // v is in ms
		return strconv.FormatFloat(v/1000, 'f', 1, 64) + " s"
	case "kB":
		return thousands(int64(math.Round(v/1024))) + " MB"
	case "bytes":
		switch {
		case v < 1000:
			return strconv.FormatFloat(v, 'f', 0, 64) + " B"
		case v < 1e6:
			return strconv.FormatFloat(v/1e3, 'f', 1, 64) + " KB"
		}
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// spreadCell is a median and, when the runs differ, its min–max.
func spreadCell(st stat, format func(float64) string) string {
	if st.N == 0 {
		return "—"
	}
	out := format(st.Median)
	if st.N > 1 {
		lo, hi := format(st.Min), format(st.Max)
		if lo != hi {
			// The unit once, after the median: "17.2 s (16.9–18.0)".
			if f := strings.Fields(lo); len(f) == 2 {
				lo, hi = f[0], strings.Fields(hi)[0]
			}
			out += " (" + lo + "–" + hi + ")"
		}
	}
	return out
}

// writeSuiteTable writes the runner table and its notes.
func writeSuiteTable(w io.Writer, rows []suiteRow, notes []string) {
	fmt.Fprintln(w, "| setting | figure | e2e-mcp run | Playwright Test | e2e-mcp / Playwright, each round's (target) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	last := ""
	for _, r := range rows {
		setting := ""
		if r.Setting != last {
			setting, last = r.Title, r.Setting
		}
		format := func(v float64) string { return suiteValue(v, r.Unit) }
		ours, other := spreadCell(r.Ours, format), spreadCell(r.Other, format)
		ratioCell := spreadCell(r.Ratio, ratio)
		if r.Self {
			ratioCell = "with / without `--retries 2`: " + ratioCell
			other = "— (without: " + other + ")"
		} else if r.Target > 0 {
			t := strconv.FormatFloat(r.Target, 'f', -1, 64)
			if r.Ratio.N == 0 {
				ratioCell += " (≤ " + t + ")"
			} else {
				mark := "met"
				if r.Ratio.Median > r.Target {
					mark = "missed"
				}
				ratioCell += fmt.Sprintf(" (≤ %s: %s)", t, mark)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", setting, r.Label, ours, other, ratioCell)
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintf(w, "Note: %s\n", oneLine(n, 600))
		}
	}
}
