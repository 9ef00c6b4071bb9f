package runner

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// Setup flows, as Playwright Test's setup projects (a project's
// dependencies): a flow that says `needs: login.yaml` (or a list) runs
// after that flow, and starts in the storage state (cookies, each
// origin's local storage) it ended with.
//
//   - Load adds every flow a selected flow needs, at any depth, even one
//     --grep or --last-failed did not select, and orders the tests so
//     that a flow comes after those it needs; a needed flow runs once per
//     run (not again for --repeat-each), and is reported as any flow is.
//     A needs: that names a missing file or makes a cycle stops the run
//     before anything starts, naming the files.
//   - --shard splits the flows no other flow needs; a shard also runs the
//     setup flows its flows need (each shard that needs one runs it).
//   - A flow waits for its setup flows (--parallel: a worker waits; the
//     setup flows come first in the order workers take the tests, so one
//     always runs). When one of them did not pass (failed on its last
//     attempt, or was not run), the flow is not run: SKIP, with why.
//   - The passing attempt's storage state is read from its session before
//     it ends and kept in memory (mcptools.SavedState), never in a file;
//     a flow that needs several starts in their states merged in order.
//     Local storage belongs to an origin (scheme, host and port): a
//     setup flow and the flows that need it reach the app at one origin
//     (a baseURL, or the run's shared dev server), else only the cookies
//     (which do not name a port) carry over.

// setupRun is a setup flow's run, which the flows that need it wait for.
type setupRun struct {
	file, name string
	done       chan struct{}
	// ok and state are set before done closes: the flow passed (flaky
	// and healed too), and the state it ended with.
	ok    bool
	state *mcptools.SavedState
}

// finish notes how the setup flow ended and lets the flows that need it
// start (nil: the test is no setup flow).
func (s *setupRun) finish(r flowResult) {
	if s == nil {
		return
	}
	s.ok = !r.failed && r.skipped == ""
	close(s.done)
}

// awaitSetups waits until the test's setup flows ended, and says why the
// test cannot run when one of them did not pass ("" when it can).
func (t test) awaitSetups() string {
	for _, s := range t.needs {
		<-s.done
		if !s.ok {
			return fmt.Sprintf("its setup flow %s (%s) did not pass", s.name, s.file)
		}
	}
	return ""
}

// planned is a flow of the run with the flows it needs: indices of
// earlier planned flows.
type planned struct {
	file  string
	flow  *flow.Flow
	needs []int
	// needed says another planned flow needs it: a setup flow, run once.
	needed bool
}

// plan is the selected flows (keep, indices of files and flows) with the
// flows they need, at any depth, each once, every flow after those it
// needs and otherwise in the order given. A needed file is read once
// (one of files, or loaded); a missing one, or flows that need each
// other, are an error naming the files.
func plan(files []string, flows []*flow.Flow, keep []int) ([]planned, error) {
	loaded := map[string]*flow.Flow{}
	for i, f := range files {
		loaded[absPath(f)] = flows[i]
	}
	pos := map[string]int{}
	var out []planned
	var visit func(file string, fl *flow.Flow, path []string) (int, error)
	visit = func(file string, fl *flow.Flow, path []string) (int, error) {
		abs := absPath(file)
		if i, ok := pos[abs]; ok {
			return i, nil
		}
		for k, p := range path {
			if absPath(p) == abs {
				return 0, fmt.Errorf("flows that need each other: %s (a setup flow runs before the flows that need it, so none can need itself)",
					strings.Join(append(slices.Clone(path[k:]), file), " needs "))
			}
		}
		path = append(path, file)
		var needs []int
		for _, n := range fl.Needs {
			nf := filepath.Join(filepath.Dir(file), filepath.FromSlash(n))
			nfl := loaded[absPath(nf)]
			if nfl == nil {
				var err error
				if nfl, err = flow.Load(nf); err != nil {
					return 0, fmt.Errorf("%s: needs %s: %w", file, n, err)
				}
				loaded[absPath(nf)] = nfl
			}
			j, err := visit(nf, nfl, path)
			if err != nil {
				return 0, err
			}
			if !slices.Contains(needs, j) {
				needs = append(needs, j)
			}
		}
		for _, j := range needs {
			if len(out[j].flow.Data) > 0 {
				return 0, fmt.Errorf("%s: needs %s, which has data: rows: a setup flow runs once, so it has none", file, out[j].file)
			}
			out[j].needed = true
		}
		pos[abs] = len(out)
		out = append(out, planned{file: file, flow: fl, needs: needs})
		return len(out) - 1, nil
	}
	for _, i := range keep {
		if _, err := visit(files[i], flows[i], nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// planTests are the tests of a plan: each flow once (once for each of its
// data rows, data.go), then again for each later run of --repeat-each but
// the setup flows (once per run); each test's setup run when others need
// it, and those of the flows it needs.
func planTests(p []planned, repeat int) ([]test, error) {
	runs := make([]*setupRun, len(p))
	for i, x := range p {
		if x.needed {
			runs[i] = &setupRun{file: x.file, name: x.flow.Name, done: make(chan struct{})}
		}
	}
	var tests []test
	for r := 1; r <= max(repeat, 1); r++ {
		for i, x := range p {
			if r > 1 && x.needed {
				continue
			}
			flows, err := rowFlows(x.flow)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", x.file, err)
			}
			for _, fl := range flows {
				t := test{file: x.file, flow: fl, name: repeatName(fl.Name, r), session: flowSession(len(tests)), setup: runs[i]}
				for _, j := range x.needs {
					t.needs = append(t.needs, runs[j])
				}
				tests = append(tests, t)
			}
		}
	}
	return tests, nil
}

// rowFlows are the flows a flow runs as: one for each of its data rows
// (`data:`, named "NAME [ada]" or "NAME [row 2]"), itself when it has
// none.
func rowFlows(f *flow.Flow) ([]*flow.Flow, error) {
	if len(f.Data) == 0 {
		return []*flow.Flow{f}, nil
	}
	out := make([]*flow.Flow, len(f.Data))
	for i := range f.Data {
		var err error
		if out[i], err = f.ForRow(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// shardPlan is the files of the plan a shard runs: its part of the flows
// no other needs (in the plan's order, which keeps byRoot's for them),
// and the flows those need, at any depth.
func shardPlan(p []planned, sh Shard) map[string]bool {
	var leaves []int
	for i, x := range p {
		if !x.needed {
			leaves = append(leaves, i)
		}
	}
	from, to := sh.span(len(leaves))
	mine := map[string]bool{}
	var add func(i int)
	add = func(i int) {
		if mine[p[i].file] {
			return
		}
		mine[p[i].file] = true
		for _, j := range p[i].needs {
			add(j)
		}
	}
	for _, i := range leaves[from:to] {
		add(i)
	}
	return mine
}

// needNames are the names of the setup flows a test needs, for --list.
func (t test) needNames() []string {
	var out []string
	for _, s := range t.needs {
		out = append(out, s.name)
	}
	return out
}

// saveState keeps the storage state a setup flow's passing attempt ended
// with, for the flows that need it; a state that cannot be read fails the
// flow (they would start signed out).
func (r *replay) saveState() {
	s := r.t.setup
	if s == nil || r.res.failed {
		return
	}
	st, err := r.deps.SessionStorageState(r.base, r.t.session)
	if err != nil {
		r.fail(0, "save the storage state it ended with, for the flows that need it", mcptools.Answer{}, err)
		return
	}
	s.state = st
}
