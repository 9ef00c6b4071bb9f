package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Reference programs for the initialize figure, in bench/floor.
const (
	floorBare  = "floor-bare"   // Go with no dependencies, answering by hand
	floorMCPGo = "floor-mcp-go" // an mcp-go server with no tools
)

// floorResult is the initialize phase: e2e-mcp and the reference programs
// started one after the other, n times each.
type floorResult struct {
	Starts int             `json:"starts"`
	Stats  map[string]stat `json:"stats"` // program → ms from process start to the initialize answer
	Errors []string        `json:"errors,omitempty"`
}

// initFloor tells e2e-mcp's own start time from what the Go runtime and
// mcp-go cost on this machine: it builds the reference programs like
// e2e-mcp (static, stripped) and starts each of them and e2e-mcp in turn,
// n times, with the same client.
func initFloor(ctx context.Context, e2e spec, n int) (*floorResult, error) {
	dir, err := os.MkdirTemp("", "e2e-mcp-bench-floor-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	specs := []spec{e2e}
	for key, pkg := range map[string]string{floorBare: "./bench/floor/bare", floorMCPGo: "./bench/floor/mcpgo"} {
		bin := filepath.Join(dir, key)
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build %s: %v: %s", pkg, err, oneLine(string(out), 300))
		}
		specs = append(specs, spec{Key: key, Cmd: bin})
	}
	samples := map[string][]float64{}
	res := &floorResult{Starts: n, Stats: map[string]stat{}}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		for j := range specs {
			sp := specs[(i+j)%len(specs)] // rotate: none always first
			mark := fmt.Sprintf("E2E_MCP_BENCH_MARK=%d-floor-%s-%d", os.Getpid(), sp.Key, i)
			s, took, err := start(ctx, sp, mark, "")
			if err != nil {
				res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", sp.Key, err))
			} else {
				samples[sp.Key] = append(samples[sp.Key], ms(took))
			}
			if s != nil {
				if left := s.stop(nil); len(left) > 0 {
					res.Errors = append(res.Errors, fmt.Sprintf("%s left %d process(es)", sp.Key, len(left)))
				}
			}
		}
	}
	for k, v := range samples {
		res.Stats[k] = summarize(v)
	}
	return res, nil
}

// note says what the phase found, for the notes under the table.
func (f *floorResult) note() string {
	e, m, b := f.Stats[e2eMCP], f.Stats[floorMCPGo], f.Stats[floorBare]
	if e.N == 0 || m.N == 0 || b.N == 0 {
		return fmt.Sprintf("Initialize floor: not measured (%s).", strings.Join(f.Errors, "; "))
	}
	s := fmt.Sprintf("Initialize floor (%d starts of each, in turn, same client; median, min–max): "+
		"a Go program with no dependencies that answers by hand (bench/floor/bare) %s ms (%s–%s); "+
		"an mcp-go server with no tools (bench/floor/mcpgo) %s ms (%s–%s); e2e-mcp %s ms (%s–%s). "+
		"Every server built on mcp-go pays the second figure before it can answer; e2e-mcp's own start is the difference, %s ms.",
		f.Starts, ms3(b.Median), ms3(b.Min), ms3(b.Max), ms3(m.Median), ms3(m.Min), ms3(m.Max),
		ms3(e.Median), ms3(e.Min), ms3(e.Max), ms3(e.Median-m.Median))
	if len(f.Errors) > 0 {
		s += " Errors: " + strings.Join(f.Errors, "; ") + "."
	}
	return s
}

func ms3(v float64) string { return value(v, "ms") }
