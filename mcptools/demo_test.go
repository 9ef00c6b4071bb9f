package mcptools

import (
	"strings"
	"testing"

	browserrec "github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestKeepDemoSecrets: a person's secret field typed in several parts is
// one step, where its typing ended, reading one variable; the same locator
// in another document (another field id) is another variable; what the
// answer says names the variables the written flow reads, and nothing
// when one is missing from it.
func TestKeepDemoSecrets(t *testing.T) {
	s := &Session{}
	pw := `role=textbox[name="Password"]`
	steps, secrets := s.keepDemo([]browserrec.DemoStep{
		{Action: "type", Target: `role=textbox[name="User"]`, Field: "d1.1", Text: "ada"},
		{Action: "type", Target: pw, Field: "d1.2", Secret: true},
		{Action: "click", Target: `role=button[name="Show password"]`},
		{Action: "press", Key: "End"},
		{Action: "type", Target: pw, Field: "d1.2", Secret: true},
		{Action: "click", Target: `role=button[name="Sign in"]`},
		{Action: "type", Target: pw, Field: "d2.1", Secret: true},
	})
	var got []string
	for _, st := range steps {
		text, _ := st.Args["text"].(string)
		key, _ := st.Args["key"].(string)
		got = append(got, st.Action+" "+text+key)
	}
	want := "type ada|click |press End|type ${E2E_SECRET_1}|click |type ${E2E_SECRET_2}"
	if strings.Join(got, "|") != want {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "|"), want)
	}
	f := &flow.Flow{Name: "demo", Steps: steps}
	said := secrets.say(secretVarsIn(f))
	for _, w := range []string{"E2E_SECRET_1: what the person typed into " + pw + " (its final value: typed in 2 parts, it is one step)",
		"E2E_SECRET_2: what the person typed into " + pw + "\n", "is not in it"} {
		if !strings.Contains(said+"\n", w) {
			t.Errorf("the answer lacks %q:\n%s", w, said)
		}
	}
	f.Steps = f.Steps[:len(f.Steps)-1] // a flow that does not read E2E_SECRET_2
	if said := secrets.say(secretVarsIn(f)); said != "" {
		t.Errorf("a claim about a variable the flow does not read: %s", said)
	}
}
