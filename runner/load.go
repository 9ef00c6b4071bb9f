package runner

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// Suite is the flows a run replays, loaded before anything starts.
type Suite struct {
	tests []test
}

// test is one replay of a flow: its file, the flow, the session it runs in
// and the name of the files it leaves.
type test struct {
	file    string
	flow    *flow.Flow
	session string
	// stem is the file name (without extension) of its report, trace and
	// video: the flow's name, numbered when two flows have one (reportNames).
	stem string
	// retry is which retry of the test this is (0: its first attempt;
	// retry.go).
	retry int
}

// Load reads the flow files o names; an error names the file and what is
// wrong in it (a bad command line: nothing has started).
//
// With --shard every file is read (and named: a report's name is the same
// in every shard), sorted by byRoot, and the shard's part of them kept.
func Load(o Options) (*Suite, error) {
	files := o.Files
	if o.Shard.Total > 0 {
		files = byRoot(files)
	}
	flows := make([]*flow.Flow, len(files))
	for i, f := range files {
		fl, err := flow.Load(f)
		if err != nil {
			return nil, err
		}
		flows[i] = fl
	}
	var reserved []string
	if set := o.reporterSet(); set["html"] || set["blob"] {
		reserved = append(reserved, indexStem)
	}
	names := reportNames(flows, reserved...)
	s := &Suite{}
	from, to := o.Shard.span(len(files))
	for i := from; i < to; i++ {
		s.tests = append(s.tests, test{file: files[i], flow: flows[i], session: flowSession(i), stem: names[flowSession(i)]})
	}
	return s, nil
}

// flowSession is the session the i-th flow (from 0) runs in.
func flowSession(i int) string { return fmt.Sprintf("flow-%d", i+1) }

// reportNames names each flow's report, trace and video after the flow,
// numbered when two flows have one name, or a name reserved for another
// file (the HTML index); the writers add their extension.
func reportNames(flows []*flow.Flow, reserved ...string) map[string]string {
	count := map[string]int{}
	for _, r := range reserved {
		count[r]++
	}
	for _, f := range flows {
		count[safeName(f.Name)]++
	}
	names := map[string]string{}
	for i, f := range flows {
		n := safeName(f.Name)
		if count[n] > 1 {
			n = fmt.Sprintf("%s-%d", n, i+1)
		}
		names[flowSession(i)] = n
	}
	return names
}

// baselines is where the test's visual checks keep their baselines: next
// to the flow, FLOW.yaml's in FLOW.snapshots/.
func (t test) baselines() string {
	return strings.TrimSuffix(t.file, filepath.Ext(t.file)) + ".snapshots"
}
