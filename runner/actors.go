package runner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// A flow's actors (flow.Step.Actor, `actor: bob`): each is a session of
// its own beside the flow's (FLOWSESSION.bob: its own browser context,
// cookies, storage and tabs, as a Playwright test's second context),
// made by its first call and ended with the flow's. A relative URL of an
// actor's step goes to the flow's dev server (which the flow's session
// started; session_status says where) or baseURL. Every step is named
// with its actor in the output, JUnit and the JSON report ("bob: click
// ..."); each actor's steps have a report and a trace of their own
// (STEM.ACTOR.html, .zip: report.go, trace.go), which the flow's report
// names; the video is the flow's own session's.

// actorSession is the session of actor's steps in test t.
func actorSession(t test, actor string) string {
	if actor == "" {
		return t.session
	}
	return t.session + "." + actor
}

// as makes the replay's calls go to the session of st's actor until the
// function it returns is called. On the actor's first step (step n) its
// session is put in the state the flow starts in (startState); ok is
// false when that failed, the failure noted as step n's.
func (r *replay) as(st flow.Step, n int) (restore func(), ok bool) {
	if st.Actor == "" {
		return func() {}, true
	}
	if r.actors == nil {
		r.actors = map[string]bool{}
	}
	first := !r.actors[st.Actor]
	r.actors[st.Actor] = true
	r.actor = st.Actor
	restore = func() { r.actor = "" }
	if first && !r.startState(n) {
		return restore, false
	}
	return restore, true
}

// session is the session the replay's calls go to now.
func (r *replay) session() string { return actorSession(r.t, r.actor) }

// actorURL resolves a relative URL (/chat) of an actor's step against
// the flow's dev server, as the flow's own session resolves it; "" when
// there is none.
func (r *replay) actorURL(u string) (string, error) {
	if r.actor == "" || !strings.HasPrefix(u, "/") || r.t.flow.Dev == nil {
		return u, nil
	}
	if r.devURL == "" {
		ans, err := r.tools.Call(r.ctx, r.t.session, "session_status", map[string]any{})
		if err != nil {
			return "", fmt.Errorf("find the dev server for actor %s: %w", r.actor, err)
		}
		var st struct {
			DevServer struct {
				URL string `json:"url"`
			} `json:"devServer"`
		}
		b, _ := json.Marshal(ans.Structured)
		if json.Unmarshal(b, &st) != nil || st.DevServer.URL == "" {
			return "", fmt.Errorf("actor %s: the flow's session says no dev server URL to resolve %s against", r.actor, u)
		}
		r.devURL = st.DevServer.URL
	}
	return strings.TrimRight(r.devURL, "/") + u, nil
}

// endActors ends the sessions of the flow's actors.
func (r *replay) endActors() {
	for a := range r.actors {
		_, _ = r.tools.Call(r.base, actorSession(r.t, a), "session_end", map[string]any{})
	}
}

// actorsActed are the actors of t's flow that took a step in the attempt
// res is the result of: all of them, or those before the failing step.
func actorsActed(t test, res *flowResult) []string {
	var out []string
	seen := map[string]bool{}
	for j, st := range t.flow.Steps {
		if res.failed && j+1 > res.failedStep {
			break
		}
		if st.Actor != "" && !seen[st.Actor] {
			seen[st.Actor] = true
			out = append(out, st.Actor)
		}
	}
	return out
}

// actorFiles are an actor's report and trace (paths, "" when not
// written).
type actorFiles struct{ actor, report, trace string }

// actorFile notes one of actor's files on res: set it on the actor's
// entry, made when it has none.
func (res *flowResult) actorFile(actor string, set func(*actorFiles)) {
	for i := range res.actorFiles {
		if res.actorFiles[i].actor == actor {
			set(&res.actorFiles[i])
			return
		}
	}
	res.actorFiles = append(res.actorFiles, actorFiles{actor: actor})
	set(&res.actorFiles[len(res.actorFiles)-1])
}

// actorStem is the file name (without extension) of an actor's report
// and trace, beside the flow's: STEM.ACTOR.
func actorStem(t test, actor string) string { return t.stem + "." + actor }
