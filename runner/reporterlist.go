package runner

import "strings"

// reporterNames are the reporters --reporter takes, Playwright Test's
// names: list (each flow's line, the default), line, dot, json, junit,
// html, github, blob.
var reporterNames = []string{"list", "line", "dot", "json", "junit", "html", "github", "blob"}

// isReporter says whether name is one of reporterNames.
func isReporter(name string) bool {
	for _, n := range reporterNames {
		if n == name {
			return true
		}
	}
	return false
}

// ReporterList is --reporter: names, comma-separated or the flag given
// again (--reporter dot,junit --reporter html).
type ReporterList []string

// String is the list as --reporter takes it.
func (l *ReporterList) String() string { return strings.Join(*l, ",") }

// Set adds the names of one --reporter; Options.Check says which is not
// a reporter.
func (l *ReporterList) Set(v string) error {
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			*l = append(*l, n)
		}
	}
	return nil
}

// The output places reporters use when no flag names one: Playwright
// Test's, with our name.
const (
	defaultReportDir = "e2e-mcp-report" // html (and blob's reports)
	defaultBlobDir   = "blob-report"
)

// reporterSet is the reporters the run has: those --reporter names, or
// list alone, and junit, json and blob when --junit, --json or --blob
// names their file.
func (o Options) reporterSet() map[string]bool {
	set := map[string]bool{}
	for _, n := range o.Reporters {
		set[n] = true
	}
	if len(set) == 0 {
		set["list"] = true
	}
	set["junit"] = set["junit"] || o.JUnit != ""
	set["json"] = set["json"] || o.JSON != ""
	set["blob"] = set["blob"] || o.Blob != ""
	return set
}

// reportsDir is where each flow's HTML report goes: --report, or, when
// the html or blob reporter needs them, e2e-mcp-report; "" for none.
func (o Options) reportsDir() string {
	if o.Report != "" {
		return o.Report
	}
	if set := o.reporterSet(); set["html"] || set["blob"] {
		return defaultReportDir
	}
	return ""
}

// blobDir is where the blob reporter writes its zip.
func (o Options) blobDir() string {
	if o.Blob != "" {
		return o.Blob
	}
	return defaultBlobDir
}

// indexStem is the name the HTML index takes in the reports' directory
// (index.html), which no flow's report may have.
const indexStem = "index"
