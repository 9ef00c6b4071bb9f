package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// githubReporter is run --reporter github: GitHub Actions' workflow
// commands on stdout when the run ends, which the job's log turns into
// annotations: an error on the failing step's line of each failed flow's
// file, a warning on the first healed step of a healed flow and on a
// flaky flow, and a notice with the summary.
type githubReporter struct {
	w       io.Writer
	root    string // the files' paths are relative to it: $GITHUB_WORKSPACE, else the working directory
	secrets *redact.Set
}

// newGitHubReporter is the github reporter, relative to
// $GITHUB_WORKSPACE (the checkout, which GitHub's annotations name files
// from) or else the working directory.
func newGitHubReporter(w io.Writer, secrets *redact.Set) *githubReporter {
	root := os.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root, _ = os.Getwd()
	}
	return &githubReporter{w: w, root: root, secrets: secrets}
}

func (g *githubReporter) flowEnded(flowResult) {}

func (g *githubReporter) runEnded(s summary) error {
	var st runStats
	for _, r := range s.results {
		st.count(r.outcome())
		file := g.path(r.file)
		switch r.outcome() {
		case outcomeFailed:
			msg := fmt.Sprintf("step %d, %s: %s", r.failedStep, r.step, r.headline)
			if r.failedStep == 0 {
				msg = fmt.Sprintf("before the first step (%s): %s", r.step, r.headline)
			}
			if r.diagnosis != "" {
				msg += "\ndiagnosis: " + r.diagnosis
			}
			if r.report != "" {
				msg += "\nreport: " + r.report
			}
			g.command("error", ghProps{file: file, at: r.failedAt(), title: "flow " + r.name + " failed"}, msg)
		case outcomeHealed:
			var lines []string
			for _, h := range r.heals {
				lines = append(lines, fmt.Sprintf("step %d, %s: %s -> %s (%s)", h.step, h.action, g.secrets.String(h.from), g.secrets.String(h.to), g.secrets.String(h.why)))
			}
			p := ghProps{file: file, title: "flow " + r.name + " healed"}
			if n := r.heals[0].step; n >= 1 && n <= len(r.steps) {
				p.at = r.steps[n-1].pos
			}
			g.command("warning", p, stepsHealed(len(r.heals))+"\n"+strings.Join(lines, "\n"))
		case outcomeFlaky:
			g.command("warning", ghProps{file: file, title: "flow " + r.name + " is flaky"}, fmt.Sprintf("passed on attempt %d", r.tries()))
		}
	}
	g.command("notice", ghProps{title: "e2e-mcp run"}, statsLine(st, s))
	return nil
}

// statsLine says how many flows ended how, and how long the run took.
func statsLine(st runStats, s summary) string {
	parts := []string{fmt.Sprintf("%d flow(s)", st.Flows), fmt.Sprintf("%d passed", st.Passed)}
	for _, c := range []struct {
		n    int
		what string
	}{{st.Flaky, "flaky"}, {st.Healed, "healed"}, {st.Skipped, "skipped"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	parts = append(parts, fmt.Sprintf("%d failed", st.Failed))
	return strings.Join(parts, ", ") + fmt.Sprintf(", in %.1fs", s.took.Seconds())
}

// path is file as GitHub names it: relative to the workspace, with /.
func (g *githubReporter) path(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	if g.root != "" && within(g.root, abs) {
		if rel, err := filepath.Rel(g.root, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// ghProps are a workflow command's properties.
type ghProps struct {
	file  string
	at    flow.Pos
	title string
}

// command writes one workflow command: ::KIND file=F,line=L,col=C,title=T::MESSAGE,
// every value escaped as GitHub reads them back.
func (g *githubReporter) command(kind string, p ghProps, msg string) {
	var props []string
	if p.file != "" {
		props = append(props, "file="+ghProperty(p.file))
		if p.at.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", p.at.Line))
			if p.at.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", p.at.Column))
			}
		}
	}
	if p.title != "" {
		props = append(props, "title="+ghProperty(p.title))
	}
	head := kind
	if len(props) > 0 {
		head += " " + strings.Join(props, ",")
	}
	fmt.Fprintf(g.w, "::%s::%s\n", head, ghData(msg))
}

// ghData escapes a workflow command's message: %, CR and LF.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value: as a message,
// and : and , which end it.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
