package runner

import (
	"fmt"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// Suite is the flows a run replays, loaded before anything starts.
type Suite struct {
	files []string
	flows []*flow.Flow
}

// Load reads the flow files o names; an error names the file and what is
// wrong in it (a bad command line: nothing has started).
func Load(o Options) (*Suite, error) {
	s := &Suite{files: o.Files, flows: make([]*flow.Flow, len(o.Files))}
	for i, f := range o.Files {
		fl, err := flow.Load(f)
		if err != nil {
			return nil, err
		}
		s.flows[i] = fl
	}
	return s, nil
}

// flowSession is the session the i-th flow (from 0) runs in.
func flowSession(i int) string { return fmt.Sprintf("flow-%d", i+1) }
