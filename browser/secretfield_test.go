package browser

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestOneSecretFieldTest: the page engine asks whether a field is secret
// (a password input, a text masked by CSS) in one place, secretField
// (js/15_secret.js): the recorder of a person, the agent's typing and the
// snapshot's values all call it, and none of them may test the type or
// the mask on its own (the recorder once did, per input event, and wrote
// a revealed password in clear). The only other mention of the password
// type is the list of the types that are text inputs.
func TestOneSecretFieldTest(t *testing.T) {
	asks := regexp.MustCompile(`(?i)'password'|"password"|text-?security`)
	allowed := map[string]string{"js/10_aria.js": "const TEXT_INPUT_TYPES"}
	names, err := fs.Glob(engineFiles, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	callers := map[string]bool{}
	for _, n := range names {
		src, _ := engineFiles.ReadFile(n)
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "secretField(") && !strings.Contains(line, "function secretField") {
				callers[n] = true
			}
			if n == "js/15_secret.js" || !asks.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if a, ok := allowed[n]; ok && strings.Contains(line, a) {
				continue
			}
			t.Errorf("%s:%d asks whether a field is secret on its own (call secretField): %s", n, i+1, strings.TrimSpace(line))
		}
	}
	for _, n := range []string{"js/20_snapshot.js", "js/40_actions.js", "js/58_demo.js"} {
		if !callers[n] {
			t.Errorf("%s does not call secretField", n)
		}
	}
}
