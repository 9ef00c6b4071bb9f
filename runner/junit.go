package runner

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// JUnit XML, as CI systems read it.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr,omitempty"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	// With --retries, the attempts that failed besides the one the case
	// shows, as Maven Surefire writes reruns and Playwright Test's JUnit
	// reporter follows: a flaky flow's failed attempts (and no failure:
	// it passed), a failed flow's later attempts.
	FlakyFailures []junitRetry `xml:"flakyFailure,omitempty"`
	RerunFailures []junitRetry `xml:"rerunFailure,omitempty"`
	// Skipped says why a flow did not run (--max-failures).
	Skipped *junitSkipped `xml:"skipped,omitempty"`
	// SystemOut links the flow's HTML report, trace and video as
	// attachments ([[ATTACHMENT|path]], relative to the JUnit file).
	SystemOut string `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitRetry is an attempt that failed, beside the one a case shows.
type junitRetry struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	Time       string `xml:"time,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out,omitempty"`
}

// healLines says a flow's healed steps and its repaired flow, for JUnit.
func healLines(r flowResult) string {
	if len(r.heals) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nHealed steps:\n")
	printHeals(&b, r)
	return b.String()
}

// junitReport writes the run's JUnit XML (run --junit FILE, or
// --reporter junit: stdout) when the run ends: a test case a flow, its
// failure masked, its report, trace and video linked as attachments.
type junitReport struct {
	path    string    // "" for stdout
	stdout  io.Writer // where it goes without a path
	secrets *redact.Set
	healOK  bool // --heal-ok: a healed flow is no failure
}

func (j *junitReport) flowEnded(flowResult) {}

func (j *junitReport) runEnded(s summary) error {
	if j.path == "" {
		b, err := junitDoc(".", s.results, s.took, j.secrets, j.healOK)
		if err == nil {
			_, err = j.stdout.Write(b)
		}
		return err
	}
	return writeJUnit(j.path, s.results, s.took, j.secrets, j.healOK)
}

// writeJUnit writes results as a JUnit XML file at path.
func writeJUnit(path string, results []flowResult, took time.Duration, secrets *redact.Set, healOK bool) error {
	b, err := junitDoc(filepath.Dir(path), results, took, secrets, healOK)
	if err != nil {
		return err
	}
	return mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), b)
}

// junitDoc is results as a JUnit XML document, its links relative to dir
// (the file's directory).
func junitDoc(dir string, results []flowResult, took time.Duration, secrets *redact.Set, healOK bool) ([]byte, error) {
	s := junitSuite{Name: "e2e-mcp flows", Tests: len(results), Time: seconds3(took)}
	for _, r := range results {
		// A retried flow's case is one attempt's, as Playwright Test's
		// reporter writes it: a failed flow's first, a flow that passed
		// on a retry its last; the others are reruns.
		own := r
		if r.failed && len(r.earlier) > 0 {
			own = r.earlier[0]
		}
		c := junitCase{Name: r.name, ClassName: r.file, Time: seconds3(own.took)}
		if len(r.earlier) == 0 {
			c.Time = seconds3(r.allTook())
		}
		var links []string
		c.SystemOut, links = attachments(dir, own)
		healed := healLines(r)
		switch {
		case r.skipped != "":
			s.Skipped++
			c.Skipped = &junitSkipped{Message: secrets.String("not run: " + r.skipped)}
		case r.failed:
			s.Failures++
			msg := fmt.Sprintf("step %d, %s: %s", own.failedStep, own.step, own.headline)
			if own.diagnosis != "" {
				msg += "; diagnosis: " + own.diagnosis
			}
			if len(r.earlier) > 0 {
				msg += fmt.Sprintf(" (failed all %d attempts)", r.attempts())
			}
			c.Failure = &junitFailure{Message: secrets.String(msg), Type: own.errType, Text: secrets.String(own.message + healLines(own))}
			if len(links) > 0 {
				c.Failure.Text += "\n\n" + strings.Join(links, "\n")
			}
			if len(r.earlier) > 0 {
				for _, e := range append(append([]flowResult{}, r.earlier[1:]...), r) {
					c.RerunFailures = append(c.RerunFailures, retryEntry(dir, e, secrets))
				}
			}
		case r.healed() && !healOK:
			// Passed only by healing: CI notices unless --heal-ok.
			s.Failures++
			c.Failure = &junitFailure{Message: secrets.String(fmt.Sprintf("HEALED: %s (--heal-ok accepts it)", stepsHealed(len(r.heals)))),
				Type: "healed", Text: secrets.String(healed)}
		case r.healed():
			c.SystemOut += secrets.String(healed)
		}
		if !r.failed {
			for _, e := range r.earlier {
				c.FlakyFailures = append(c.FlakyFailures, retryEntry(dir, e, secrets))
			}
		}
		if r.why != "" {
			c.SystemOut = secrets.String("flaky: "+r.why+"\n") + c.SystemOut
		}
		s.Cases = append(s.Cases, c)
	}
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// attachments links a flow's (or an attempt's) report, trace and video,
// relative to dir: as JUnit attachments, and as lines for a failure's text.
func attachments(dir string, r flowResult) (systemOut string, links []string) {
	for _, f := range []struct{ what, path string }{{"Report", r.report}, {"Trace", r.trace}, {"Video", r.video}} {
		if f.path != "" {
			link := relativeTo(dir, f.path)
			systemOut += "[[ATTACHMENT|" + link + "]]\n"
			links = append(links, f.what+": "+link)
		}
	}
	return systemOut, links
}

// retryEntry is an attempt that failed, as a flakyFailure or rerunFailure:
// its failing step and error, its whole failure answer, its files.
func retryEntry(dir string, e flowResult, secrets *redact.Set) junitRetry {
	out, _ := attachments(dir, e)
	return junitRetry{Message: secrets.String(fmt.Sprintf("step %d, %s: %s", e.failedStep, e.step, e.headline)), Type: e.errType,
		Time: seconds3(e.took), StackTrace: secrets.String(e.message), SystemOut: out}
}

// seconds3 is a duration in seconds as JUnit writes it.
func seconds3(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
