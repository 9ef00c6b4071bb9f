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
// ..."); the flow's report, trace and video are its own session's, where
// the other actors' steps are not.

// actorSession is the session of actor's steps in test t.
func actorSession(t test, actor string) string {
	if actor == "" {
		return t.session
	}
	return t.session + "." + actor
}

// as makes the replay's calls go to the session of st's actor until the
// function it returns is called.
func (r *replay) as(st flow.Step) func() {
	if st.Actor == "" {
		return func() {}
	}
	if r.actors == nil {
		r.actors = map[string]bool{}
	}
	r.actors[st.Actor] = true
	r.actor = st.Actor
	return func() { r.actor = "" }
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
