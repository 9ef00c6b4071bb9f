package runner

import (
	"context"
	"fmt"
	"io"
	"sync"
)

// A reporter hears how the run goes: each flow's result as the flow ends
// (one call at a time, in the order the flows end), then the whole run.
// Each reporter --reporter names (reporterlist.go) is a file of its own
// with a line in reporters.
type reporter interface {
	flowEnded(r flowResult)
	// runEnded is told when every flow has ended; an error (a file that
	// could not be written) fails the run.
	runEnded(s summary) error
}

// reporters are the run's reporters (Options.reporterSet), in the order
// they hear: those that print each flow's result first (list, line, dot),
// so that their summary line comes before any error of another, then the
// files, then GitHub's annotations.
func reporters(o Options, env *runEnv) []reporter {
	set := o.reporterSet()
	summary := &console{w: env.stdout, heal: o.Heal != HealOff, retries: o.Retries > 0}
	var out []reporter
	if set["list"] {
		out = append(out, summary)
	}
	if set["line"] {
		out = append(out, &lineReporter{w: env.stdout, terminal: o.Terminal, total: env.flows, summary: summary})
	}
	if set["dot"] {
		out = append(out, &dots{w: env.stdout, summary: summary})
	}
	if set["junit"] {
		out = append(out, &junitReport{path: o.JUnit, stdout: env.stdout, secrets: env.secrets, healOK: o.HealOK})
	}
	if set["json"] {
		out = append(out, &jsonReport{path: o.JSON, stdout: env.stdout, o: o, secrets: env.secrets})
	}
	if set["html"] {
		out = append(out, &htmlIndex{dir: o.reportsDir(), title: indexTitle(o)})
	}
	if set["blob"] {
		out = append(out, &blobReport{dir: o.blobDir(), o: o, secrets: env.secrets})
	}
	if set["github"] {
		out = append(out, newGitHubReporter(env.stdout, env.secrets))
	}
	if o.Artifacts != "" {
		out = append(out, &lastRunState{dir: o.Artifacts, secrets: env.secrets})
	}
	return out
}

// A flowWriter writes what a flow leaves once its steps are done, in its
// session before the session ends (the session's report, trace and video
// are read from it), and notes on the result where it went. The writers
// run in the order flowWriters makes them, and a later one sees what an
// earlier one noted: the report links the video and the repaired flow.
type flowWriter interface {
	flowDone(ctx context.Context, t test, res *flowResult)
}

// flowWriters are the writers o asks for, each set up (its directory
// made, what it needs of the sessions turned on in env.deps), or an error
// that names the flag whose directory cannot be made.
func flowWriters(o Options, env *runEnv) ([]flowWriter, error) {
	var out []flowWriter
	if o.Heal != HealOff {
		out = append(out, &healWriter{mode: o.Heal, secrets: env.secrets})
	}
	if o.Video != "" {
		out = append(out, newVideoKeeper(o, env))
	}
	reports := o.reportsDir() // --report, or the html and blob reporters'
	if reports != "" || o.Trace != "" {
		// A report keeps a screenshot after each action; a trace starts
		// with its flow's session.
		env.deps.Reports, env.deps.ReportShots = reports != "", reports != ""
		env.deps.TraceSessions = o.Trace != ""
	}
	if reports != "" {
		w, err := newHTMLReports(reports, env)
		if err != nil {
			return nil, fmt.Errorf("--report: %w", err)
		}
		out = append(out, w)
	}
	if o.Trace != "" {
		w, err := newTraces(o, env)
		if err != nil {
			return nil, fmt.Errorf("--trace: %w", err)
		}
		out = append(out, w)
	}
	return out, nil
}

// warnings say on stderr, one line at a time, what a flow writer could
// not write; the run goes on.
type warnings struct {
	mu sync.Mutex
	w  io.Writer
}

// notWritten says that the flow's file (its "report", its "trace") could
// not be written, and returns "" (the path there is not).
func (w *warnings) notWritten(what string, res flowResult, err error) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.w, "e2e-mcp run: the %s of %s: %v\n", what, res.name, err)
	return ""
}
