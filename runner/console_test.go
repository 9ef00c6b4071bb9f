package runner

import (
	"strings"
	"testing"
	"time"
)

// TestConsole: what a run prints, line for line: a PASS, a FAIL with its
// diagnosis and where its files are, a HEALED flow with its steps and
// repaired flow, then the summary (which counts the healed only with
// --heal). CI logs and people's scripts read these lines.
func TestConsole(t *testing.T) {
	pass := flowResult{name: "log-in", file: "log-in.yaml", took: 1200 * time.Millisecond}
	fail := flowResult{name: "pay", file: "f/pay.yaml", took: 3 * time.Second, failed: true, failedStep: 4, step: "click #pay",
		headline: "element_not_found: no element matches #pay (take a snapshot)", diagnosis: `likely role=button[name="Pay"]`,
		artifacts: "art/pay", report: "rep/pay.html", video: "vid/pay.png", trace: "tr/pay.zip"}
	healed := flowResult{name: "sign-up", file: "sign-up.yaml", took: 2 * time.Second, healedFile: "sign-up.healed.yaml",
		heals: []heal{{step: 2, action: "click", from: "#go", to: `role=button[name="Go"]`, why: "same name"}}}
	var b strings.Builder
	c := &console{w: &b, heal: true}
	for _, r := range []flowResult{pass, fail, healed} {
		c.flowEnded(r)
	}
	if err := c.runEnded(summarize([]flowResult{pass, fail, healed}, 6500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	want := `PASS  log-in (log-in.yaml) 1.2s
FAIL  pay (f/pay.yaml) 3.0s: step 4, click #pay: element_not_found: no element matches #pay (take a snapshot)
      diagnosis: likely role=button[name="Pay"]
      artifacts: art/pay
      report: rep/pay.html
      video: vid/pay.png
      trace: tr/pay.zip (npx playwright show-trace tr/pay.zip)
HEALED  sign-up (sign-up.yaml) 2.0s: 1 step healed
      HEALED step 2, click: #go -> role=button[name="Go"] (same name)
      repaired flow: sign-up.healed.yaml
3 flow(s), 1 passed, 1 healed, 1 failed, in 6.5s
`
	if b.String() != want {
		t.Errorf("the console:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	c = &console{w: &b}
	_ = c.runEnded(summarize([]flowResult{pass, fail}, 4*time.Second))
	if b.String() != "2 flow(s), 1 passed, 1 failed, in 4.0s\n" {
		t.Errorf("the summary without --heal: %q", b.String())
	}
}
