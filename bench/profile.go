package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// profileScenario repeats one step of the benchmark against e2e-mcp: setup
// runs once, step runs -iterations times.
type profileScenario struct {
	setup func(ctx context.Context, s *session, a adapter, fx *fixture) (state, error)
	step  func(ctx context.Context, s *session, a adapter, fx *fixture, st state, i int) error
}

type state struct{ ref string }

var profiles = map[string]profileScenario{
	"tools-list": {step: func(ctx context.Context, s *session, _ adapter, _ *fixture, _ state, _ int) error {
		_, _, err := s.listTools(ctx)
		return err
	}},
	"navigate": {step: func(ctx context.Context, s *session, a adapter, fx *fixture, _ state, i int) error {
		_, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url(fmt.Sprintf("/page/%d", i))))
		return err
	}},
	"snapshot-form": {
		setup: navigateTo("/form", "", ""),
		step:  snapshotStep,
	},
	"fill": {
		setup: navigateTo("/form", "textbox", "Email"),
		step: func(ctx context.Context, s *session, a adapter, _ *fixture, st state, i int) error {
			_, err := s.call(ctx, a.fill, a.fillArgs(st.ref, "Email text box", fmt.Sprintf("ada%d@example.com", i)))
			return err
		},
	},
	"click-submit": {step: func(ctx context.Context, s *session, a adapter, fx *fixture, _ state, _ int) error {
		st, err := navigateTo("/form", "button", submitName)(ctx, s, a, fx)
		if err != nil {
			return err
		}
		_, err = s.call(ctx, a.click, a.elementArgs(st.ref, submitName))
		return err
	}},
	"navigate-big": {step: func(ctx context.Context, s *session, a adapter, fx *fixture, _ state, _ int) error {
		_, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url("/table")))
		return err
	}},
	"snapshot-big": {
		setup: navigateTo("/table", "", ""),
		step:  snapshotStep,
	},
	// As the benchmark measures it: the first click after opening the page.
	"click-big": {step: func(ctx context.Context, s *session, a adapter, fx *fixture, _ state, _ int) error {
		st, err := navigateTo("/table", "button", fmt.Sprintf("Ship order %d", bigClickRow))(ctx, s, a, fx)
		if err != nil {
			return err
		}
		_, err = s.call(ctx, a.click, a.elementArgs(st.ref, "Ship button"))
		return err
	}},
}

func profileScenarios() []string {
	var out []string
	for k := range profiles {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func snapshotStep(ctx context.Context, s *session, a adapter, _ *fixture, _ state, _ int) error {
	_, err := s.call(ctx, a.snapshot, a.snapArgs())
	return err
}

// navigateTo opens path and, when role is given, finds that element's ref in
// a snapshot, or with the server's search when the snapshot folded it.
func navigateTo(path, role, name string) func(context.Context, *session, adapter, *fixture) (state, error) {
	return func(ctx context.Context, s *session, a adapter, fx *fixture) (state, error) {
		if _, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url(path))); err != nil {
			return state{}, err
		}
		if role == "" {
			return state{}, nil
		}
		snap, err := s.call(ctx, a.snapshot, a.snapArgs())
		if err != nil {
			return state{}, err
		}
		ref, ok := findRef(snap.text, role, name)
		if !ok && a.find != "" {
			// A folded snapshot: the documented way to a folded element.
			if ans, err := s.call(ctx, a.find, map[string]any{"role": role, "name": name}); err == nil {
				ref, ok = findRef(ans.text, role, name)
			}
		}
		if !ok {
			return state{}, fmt.Errorf("no ref for %s %q", role, name)
		}
		return state{ref: ref}, nil
	}
}

// profileMain runs one scenario many times against e2e-mcp started with
// E2E_MCP_CPUPROFILE, so the profile shows where that scenario's time goes.
func profileMain(ctx context.Context, c config, fx *fixture, stdout, stderr io.Writer) int {
	sc, ok := profiles[c.scenario]
	if !ok {
		fmt.Fprintf(stderr, "bench: -cpuprofile needs -scenario, one of: %v\n", profileScenarios())
		return 2
	}
	path, err := filepath.Abs(c.cpuprofile)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	sp := e2eSpec(c.bin, c.e2eArgs)
	sp.Env = append(sp.Env, "E2E_MCP_CPUPROFILE="+path)
	dump := ""
	if c.dump != "" {
		dump = filepath.Join(c.dump, "e2e-mcp-profile") // start empties it: never the directory given
	}
	s, _, err := start(ctx, sp, fmt.Sprintf("E2E_MCP_BENCH_MARK=%d-profile", os.Getpid()), dump)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "bench: %s: %v\n", c.scenario, err)
		if s != nil {
			s.stop(nil)
		}
		return 1
	}
	if err != nil {
		return fail(err)
	}
	if _, _, err := s.listTools(ctx); err != nil {
		return fail(err)
	}
	a, err := newAdapter(s.tools)
	if err != nil {
		return fail(err)
	}
	// The browser starts outside the measured steps.
	if _, err := firstNavigation(ctx, s, &a, fx.url("/page/0")); err != nil {
		return fail(err)
	}
	var st state
	if sc.setup != nil {
		if st, err = sc.setup(ctx, s, a, fx); err != nil {
			return fail(err)
		}
	}
	var times []float64
	for i := 0; i < c.iterations; i++ {
		t0 := time.Now()
		if err := sc.step(ctx, s, a, fx, st, i); err != nil {
			return fail(err)
		}
		times = append(times, ms(time.Since(t0)))
	}
	// Closing stdin lets e2e-mcp stop the profile and write it.
	if left := s.stop(nil); len(left) > 0 {
		fmt.Fprintf(stderr, "bench: %d process(es) outlived e2e-mcp and were killed\n", len(left))
	}
	st2 := summarize(times)
	fmt.Fprintf(stdout, "%s x%d: median %s ms (%s–%s). The profile covers the whole process (start, browser launch, setup, %d steps).\n",
		c.scenario, c.iterations, value(st2.Median, "ms"), value(st2.Min, "ms"), value(st2.Max, "ms"), c.iterations)
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		fmt.Fprintf(stderr, "bench: no profile at %s: does this e2e-mcp build support E2E_MCP_CPUPROFILE?\n", path)
		return 1
	}
	fmt.Fprintf(stdout, "CPU profile: %s\nRead it with: go tool pprof -top -cum %s %s   (or -http=:8080)\n", path, c.bin, path)
	return 0
}
