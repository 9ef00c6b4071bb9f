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
	// notes say what of the directories named was skipped, and why;
	// none why no flow is left (--last-failed when none failed).
	notes []string
	none  string
}

// test is one replay of a flow: its file, the flow, the name it is
// reported by, the session it runs in and the name of the files it
// leaves.
type test struct {
	file string
	flow *flow.Flow
	// name is the flow's name, numbered in the later runs of
	// --repeat-each: "sign-up (2)".
	name    string
	session string
	// stem is the file name (without extension) of its report, trace and
	// video: its name, numbered when two tests have one (reportNames).
	stem string
	// retry is which retry of the test this is (0: its first attempt;
	// retry.go).
	retry int
	// setup is its run as a setup flow when others need it (nil when
	// none does), and needs the runs of the setup flows it needs
	// (setup.go).
	setup *setupRun
	needs []*setupRun
	// project is the project it runs in (project.go), or nil.
	project *project
}

// Load reads the flow files o names (directories searched, select.go),
// keeps those its filters select, each as often as --repeat-each says,
// with the setup flows they need (setup.go); an error names the file and
// what is wrong in it (a bad command line: nothing has started).
//
// With --shard the files are sorted by byRoot, every test is named (a
// report's name is the same in every shard) and the shard's part of the
// selected files kept, as Playwright Test shards after --grep, with the
// setup flows they need.
func Load(o Options) (*Suite, error) {
	files, notes, err := flowFiles(o.Files)
	if err != nil {
		return nil, err
	}
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
	keep, none, err := selected(o, files, flows)
	if err != nil {
		return nil, err
	}
	p, err := plan(files, flows, keep) // and the setup flows they need
	if err != nil {
		return nil, err
	}
	projects, err := o.projects() // project.go: the tests once in each
	if err != nil {
		return nil, err
	}
	if len(projects) == 0 {
		projects = []*project{nil}
	}
	var tests []test
	for _, pr := range projects {
		some, err := planTests(p, o.RepeatEach) // a flow with data: once a row
		if err != nil {
			return nil, err
		}
		for _, t := range some {
			tests = append(tests, t.inProject(pr))
		}
	}
	for i := range tests {
		tests[i].session = flowSession(i)
	}
	s := &Suite{notes: notes, none: none, tests: tests}
	names := make([]string, len(s.tests))
	for i, t := range s.tests {
		names[i] = t.name
	}
	var reserved []string
	if set := o.reporterSet(); set["html"] || set["blob"] {
		reserved = append(reserved, indexStem)
	}
	stems := reportNames(names, reserved...)
	for i := range s.tests {
		s.tests[i].stem = stems[flowSession(i)]
	}
	if o.Shard.Total > 0 {
		mine := shardPlan(p, o.Shard)
		all := s.tests
		s.tests = nil
		for _, t := range all {
			if mine[t.file] {
				s.tests = append(s.tests, t)
			}
		}
	}
	return s, nil
}

// flowSession is the session the i-th flow (from 0) runs in.
func flowSession(i int) string { return fmt.Sprintf("flow-%d", i+1) }

// reportNames names each test's report, trace and video after its name,
// numbered when two tests have one name, or a name reserved for another
// file (the HTML index); the writers add their extension.
func reportNames(names []string, reserved ...string) map[string]string {
	count := map[string]int{}
	for _, r := range reserved {
		count[r]++
	}
	for _, n := range names {
		count[safeName(n)]++
	}
	out := map[string]string{}
	for i, name := range names {
		n := safeName(name)
		if count[n] > 1 {
			n = fmt.Sprintf("%s-%d", n, i+1)
		}
		out[flowSession(i)] = n
	}
	return out
}

// baselines is where the test's visual checks keep their baselines: next
// to the flow, FLOW.yaml's in FLOW.snapshots/.
func (t test) baselines() string {
	return strings.TrimSuffix(t.file, filepath.Ext(t.file)) + ".snapshots"
}
