package runner

import (
	"encoding/xml"
	"fmt"
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

// junitReport writes the run's JUnit XML file (run --junit) when the run
// ends: a test case a flow, its failure masked, its report, trace and
// video linked as attachments.
type junitReport struct {
	path    string
	secrets *redact.Set
	healOK  bool // --heal-ok: a healed flow is no failure
}

func (j *junitReport) flowEnded(flowResult) {}

func (j *junitReport) runEnded(s summary) error {
	return writeJUnit(j.path, s.results, s.took, j.secrets, j.healOK)
}

// writeJUnit writes results as a JUnit XML file at path.
func writeJUnit(path string, results []flowResult, took time.Duration, secrets *redact.Set, healOK bool) error {
	s := junitSuite{Name: "e2e-mcp flows", Tests: len(results), Time: fmt.Sprintf("%.3f", took.Seconds())}
	for _, r := range results {
		c := junitCase{Name: r.name, ClassName: r.file, Time: fmt.Sprintf("%.3f", r.took.Seconds())}
		var links []string
		for _, f := range []struct{ what, path string }{{"Report", r.report}, {"Trace", r.trace}, {"Video", r.video}} {
			if f.path != "" {
				link := relativeTo(filepath.Dir(path), f.path)
				c.SystemOut += "[[ATTACHMENT|" + link + "]]\n"
				links = append(links, f.what+": "+link)
			}
		}
		healed := healLines(r)
		switch {
		case r.notRun != "":
			s.Skipped++
			c.Skipped = &junitSkipped{Message: secrets.String("not run: " + r.notRun)}
		case r.failed:
			s.Failures++
			msg := fmt.Sprintf("step %d, %s: %s", r.failedStep, r.step, r.headline)
			if r.diagnosis != "" {
				msg += "; diagnosis: " + r.diagnosis
			}
			c.Failure = &junitFailure{Message: secrets.String(msg), Type: r.errType, Text: secrets.String(r.message + healed)}
			if len(links) > 0 {
				c.Failure.Text += "\n\n" + strings.Join(links, "\n")
			}
		case r.healed() && !healOK:
			// Passed only by healing: CI notices unless --heal-ok.
			s.Failures++
			c.Failure = &junitFailure{Message: secrets.String(fmt.Sprintf("HEALED: %s (--heal-ok accepts it)", stepsHealed(len(r.heals)))),
				Type: "healed", Text: secrets.String(healed)}
		case r.healed():
			c.SystemOut += secrets.String(healed)
		}
		s.Cases = append(s.Cases, c)
	}
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return err
	}
	return mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), append([]byte(xml.Header), append(b, '\n')...))
}

// parseFiles parses a subcommand's flags, which may come before, between
// or after its file arguments (run a.yaml --junit r.xml b.yaml), and
