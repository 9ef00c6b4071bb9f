package flow

import (
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"
)

// A flow may have several actors, as a Playwright test opens several
// browser contexts (two users of a chat, an admin and a user):
//
//	steps:
//	  - navigate: /chat
//	  - navigate: /chat
//	    actor: bob
//	  - group: Bob says hello
//	    actor: bob
//	    steps:
//	      - fill: {target: label=Message, text: Hello}
//	      - click: role=button[name="Send"]
//	  - expect: {target: role=log, check: text, expected: 'bob: Hello'}
//
// A step's actor is its own `actor:`, else its group's (the innermost
// that names one), else none: the flow's own session. Each actor is a
// session of its own in e2e-mcp run (its own cookies, storage and tabs;
// relative URLs go to the flow's dev server or baseURL), started at its
// first step and ended with the flow; convert writes each as a context of
// the test's browser. The recorder writes none: an agent's session is one
// actor.

// actorKey is the key of a step's (or group's) actor.
const actorKey = "actor"

// actorRE is what an actor's name looks like: a word, which a spec's
// names (bobContext, bobPage) and a session id hold.
var actorRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,31}$`)

// readActor reads an actor's name.
func readActor(n *yaml.Node, out *string) error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || !actorRE.MatchString(n.Value) {
		return fmt.Errorf("line %d: an actor is a name of letters, digits and _ (up to 32, a letter first), e.g. `actor: bob`", n.Line)
	}
	*out = n.Value
	return nil
}

// Actors are the flow's actors other than its own session, in the order
// they first act.
func (f *Flow) Actors() []string {
	var out []string
	seen := map[string]bool{}
	for _, st := range f.Steps {
		if st.Actor != "" && !seen[st.Actor] {
			seen[st.Actor] = true
			out = append(out, st.Actor)
		}
	}
	return out
}
