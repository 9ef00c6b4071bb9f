package mcptools

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAuditDocs: docs/audit.md's table of rules is the tool's, row for
// row (id, criterion, level, advisory), and it gives each measure's
// thresholds as browser_perf rates them.
func TestAuditDocs(t *testing.T) {
	b, err := os.ReadFile("../docs/audit.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| ([^|]+) \\| ([^|]+) \\|")
	var ids []string
	for _, m := range row.FindAllStringSubmatch(doc, -1) {
		ids = append(ids, m[1])
		r, ok := a11yRuleOf(m[1])
		if !ok {
			t.Errorf("docs/audit.md lists a rule %s the tool does not have", m[1])
			continue
		}
		level := r.Level
		if r.Advisory {
			level += ", advisory"
		}
		if strings.TrimSpace(m[2]) != r.Criterion || strings.TrimSpace(m[3]) != level {
			t.Errorf("docs/audit.md has %s as %q (%s), the tool as %q (%s)", r.ID, strings.TrimSpace(m[2]), strings.TrimSpace(m[3]), r.Criterion, level)
		}
	}
	if len(ids) != len(a11yRules) {
		t.Errorf("docs/audit.md lists %d rules %v, the tool has %d", len(ids), ids, len(a11yRules))
	}
	for name, th := range vitalThresholds {
		unit := " ms"
		if name == "CLS" {
			unit = ""
		}
		label := name
		if name == "TBT" {
			label = "long tasks"
		}
		want := regexp.MustCompile("(?m)^\\| " + regexp.QuoteMeta(label) + " \\|[^\n]*\\| " +
			regexp.QuoteMeta(num(th[0])+unit) + "[^|]*\\| " + regexp.QuoteMeta(num(th[1])+unit))
		if !want.MatchString(doc) {
			t.Errorf("docs/audit.md does not give %s's thresholds as %g and %g", name, th[0], th[1])
		}
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestAuditLevels: failOn A fails on level-A findings only, AA on A and
// AA; advisory rules on neither. Ratings follow the thresholds, bounds
// included in the better band.
func TestAuditLevels(t *testing.T) {
	for _, c := range []struct {
		rule  string
		a, aa bool
	}{{"control-name", true, true}, {"contrast", false, true}, {"page-h1", false, false}, {"region", false, false}} {
		r, _ := a11yRuleOf(c.rule)
		if r.atLevel("A") != c.a || r.atLevel("AA") != c.aa {
			t.Errorf("%s fails A: %v, AA: %v; want %v, %v", c.rule, r.atLevel("A"), r.atLevel("AA"), c.a, c.aa)
		}
	}
	for _, c := range []struct {
		measure string
		v       float64
		want    string
	}{{"LCP", 2500, "good"}, {"LCP", 2501, "needs-improvement"}, {"LCP", 4001, "poor"}, {"CLS", 0.05, "good"},
		{"CLS", 0.25, "needs-improvement"}, {"CLS", 0.3, "poor"}, {"INP", 208, "needs-improvement"}, {"TBT", 700, "poor"}} {
		if got := rating(c.measure, c.v); got != c.want {
			t.Errorf("rating(%s, %g) = %s, want %s", c.measure, c.v, got, c.want)
		}
	}
}
