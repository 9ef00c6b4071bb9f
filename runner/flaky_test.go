package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// t0 is when the attempts of the comparison tests start.
var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// at is t0 plus ms milliseconds.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// cartAttempt is an attempt of a flow that opens the cart page and clicks
// Save at step 2, from the dev server at origin; the step fails when
// failed (it waits 1 s), else it passes at once. Its requests are the
// page's, then those given.
func cartAttempt(origin string, failed bool, reqs ...mcptools.TimelineRequest) *attemptLog {
	a := &attemptLog{steps: []stepTime{{n: 1, what: "navigate /cart.html", start: at(0), end: at(100), ok: true}}}
	page := mcptools.TimelineRequest{Method: "GET", URL: origin + "/cart.html", Status: 200, Start: at(10), Took: ms(20), Done: true}
	icon := mcptools.TimelineRequest{Method: "GET", URL: origin + "/favicon.ico", Status: 404, Start: at(60), Took: ms(2), Done: true}
	a.tl.Requests = append([]mcptools.TimelineRequest{page, icon}, reqs...)
	click := stepTime{n: 2, what: `click role=button[name="Save"]`, target: `role=button[name="Save"]`, start: at(100), ok: !failed}
	if failed {
		click.end = at(1150)
		a.failed, a.failedStep, a.step, a.headline = true, 2, click.what, "timeout: the click waited 1s"
		a.tl.At = at(1160)
	} else {
		click.end = at(200)
		a.steps = append(a.steps, stepTime{n: 3, what: "expect role=status", start: at(200), end: at(250), ok: true})
		a.tl.At = at(260)
	}
	a.steps = append(a.steps, click)
	return a
}

// wait is an action wait at step 2 that went through states (code,
// message pairs, each 100 ms after the last) and took took.
func wait(ready bool, took time.Duration, states ...string) mcptools.TimelineWait {
	w := mcptools.TimelineWait{Target: `role=button[name="Save"]`, Start: at(110), Took: took, Ready: ready}
	for i := 0; i+1 < len(states); i += 2 {
		w.States = append(w.States, mcptools.WaitState{Code: states[i], Message: states[i+1], At: ms(100 * i / 2)})
	}
	return w
}

func kinds(p parting) string {
	var out []string
	for _, f := range p.findings {
		out = append(out, f.kind)
	}
	return strings.Join(out, " ")
}

// TestDiverge: for each cause of a flaky step, the comparison of the failed
// attempt with the passing one names the step where they parted and that
// cause; timing noise, the favicon and the other dev server's port are no
// difference.
func TestDiverge(t *testing.T) {
	const a, b = "http://127.0.0.1:4001", "http://127.0.0.1:4002" // each attempt's dev server
	cart := func(origin string, took time.Duration, done bool, status int64) mcptools.TimelineRequest {
		return mcptools.TimelineRequest{Method: "GET", URL: origin + "/api/cart?user=1", Status: status, Start: at(40), Took: took, Done: done}
	}
	for _, tc := range []struct {
		name       string
		fail, pass func() *attemptLog
		kinds      string
		says       []string
	}{{
		name: "a request still in flight, the button disabled",
		fail: func() *attemptLog {
			f := cartAttempt(a, true, cart(a, 0, false, 0))
			f.tl.Waits = []mcptools.TimelineWait{wait(false, ms(1000), "disabled", "disabled")}
			return f
		},
		pass: func() *attemptLog {
			p := cartAttempt(b, false, cart(b, ms(15), true, 200))
			p.tl.Waits = []mcptools.TimelineWait{wait(true, ms(130), "disabled", "disabled")}
			return p
		},
		kinds: "slow-request disabled",
		says: []string{`step 2, click role=button[name="Save"]: in the failing attempt GET /api/cart?user=1 had not answered 1.1 s after it was sent ` +
			`(it took 15 ms in the passing attempt) and the button "Save" was still disabled when the wait ran out after 1.0 s (it was enabled after 130 ms in the passing attempt)`},
	}, {
		name:  "a request answered later",
		fail:  func() *attemptLog { return cartAttempt(a, true, cart(a, ms(1900), true, 200)) },
		pass:  func() *attemptLog { return cartAttempt(b, false, cart(b, ms(100), true, 200)) },
		kinds: "slow-request",
		says:  []string{"GET /api/cart?user=1 answered 1.8 s later (1.9 s, against 100 ms)"},
	}, {
		name: "a failed request, and its console error said once",
		fail: func() *attemptLog {
			f := cartAttempt(a, true, cart(a, ms(20), true, 500))
			f.tl.Console = []mcptools.TimelineMessage{{Level: "error", Text: "Failed to load resource: the server responded with a status of 500 (Internal Server Error)", Time: at(70)}}
			return f
		},
		pass:  func() *attemptLog { return cartAttempt(b, false, cart(b, ms(20), true, 200)) },
		kinds: "failed-request",
		says:  []string{"GET /api/cart?user=1 failed (500; 200 in the passing attempt)"},
	}, {
		name: "a console error in the failed attempt only",
		fail: func() *attemptLog {
			f := cartAttempt(a, true)
			f.tl.Console = []mcptools.TimelineMessage{
				{Level: "error", Text: "deprecated call at " + a + "/app.js:1", Time: at(50)},
				{Level: "exception", Text: "Uncaught TypeError: cart.items is undefined\n    at " + a + "/app.js:9", Time: at(60)}}
			return f
		},
		pass: func() *attemptLog {
			p := cartAttempt(b, false)
			p.tl.Console = []mcptools.TimelineMessage{{Level: "error", Text: "deprecated call at " + b + "/app.js:1", Time: at(50)}}
			return p
		},
		kinds: "console-error",
		says:  []string{"the console had an error the passing attempt did not: Uncaught TypeError: cart.items is undefined"},
	}, {
		name: "the target appeared after the wait",
		fail: func() *attemptLog {
			f := cartAttempt(a, true)
			f.tl.Waits = []mcptools.TimelineWait{wait(false, ms(1000), "missing", "nothing matches")}
			return f
		},
		pass: func() *attemptLog {
			p := cartAttempt(b, false)
			p.tl.Waits = []mcptools.TimelineWait{wait(true, ms(300), "missing", "nothing matches")}
			return p
		},
		kinds: "late-target",
		says:  []string{`the button "Save" had not appeared when the wait ran out after 1.0 s (it appeared after 300 ms in the passing attempt)`},
	}, {
		name: "another element under the point",
		fail: func() *attemptLog {
			f := cartAttempt(a, true)
			f.tl.Waits = []mcptools.TimelineWait{wait(false, ms(1000), "covered", `covered by div#toast "Draft saved"`)}
			return f
		},
		pass: func() *attemptLog {
			p := cartAttempt(b, false)
			p.tl.Waits = []mcptools.TimelineWait{wait(true, ms(40))}
			return p
		},
		kinds: "covered",
		says:  []string{`another element was under the point: the button "Save" was covered by div#toast "Draft saved" (in the passing attempt the action reached it)`},
	}, {
		name: "an animation still running",
		fail: func() *attemptLog {
			f := cartAttempt(a, true)
			f.tl.Waits = []mcptools.TimelineWait{wait(false, ms(1000), "not_stable", "not stable (it is moving)")}
			return f
		},
		pass: func() *attemptLog {
			p := cartAttempt(b, false)
			p.tl.Waits = []mcptools.TimelineWait{wait(true, ms(40))}
			return p
		},
		kinds: "animation",
		says:  []string{`an animation was still running: the button "Save" was still moving when the wait ran out after 1.0 s (it held still from the first check in the passing attempt)`},
	}, {
		name: "a request the failed attempt never sent",
		fail: func() *attemptLog { return cartAttempt(a, true) },
		pass: func() *attemptLog {
			return cartAttempt(b, false, mcptools.TimelineRequest{Method: "POST", URL: b + "/api/session", Status: 204, Start: at(80), Took: ms(5), Done: true})
		},
		kinds: "missing-request",
		says:  []string{"POST /api/session was never sent (the passing attempt sent it before this step)"},
	}, {
		name: "noise only: a few milliseconds, the favicon, a request after the step",
		fail: func() *attemptLog { return cartAttempt(a, true, cart(a, ms(40), true, 200)) },
		pass: func() *attemptLog {
			return cartAttempt(b, false, cart(b, ms(10), true, 200),
				mcptools.TimelineRequest{Method: "POST", URL: b + "/api/save", Status: 200, Start: at(150), Took: ms(5), Done: true})
		},
		kinds: "nothing-differed",
		says: []string{`step 2, click role=button[name="Save"]: in the failing attempt it failed (timeout: the click waited 1s) and nothing else ` +
			`the two attempts recorded differed before it`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := diverge(tc.fail(), tc.pass())
			if got := kinds(p); got != tc.kinds {
				t.Errorf("kinds %q, want %q: %s", got, tc.kinds, p)
			}
			if p.step != 2 {
				t.Errorf("parted at step %d, want 2", p.step)
			}
			for _, want := range tc.says {
				if !strings.Contains(p.String(), want) {
					t.Errorf("diverge says\n%s\nwant it to say\n%s", p, want)
				}
			}
		})
	}
}

// TestDivergeBeforeTheFirstStep: an attempt that failed while its session
// was prepared parted before the first step, and says what failed there.
func TestDivergeBeforeTheFirstStep(t *testing.T) {
	fail := &attemptLog{failed: true, step: "start the dev server", headline: "dev_server_failed: exit 1", tl: mcptools.Timeline{At: at(500)}}
	pass := cartAttempt("http://127.0.0.1:4002", false)
	got := diverge(fail, pass).String()
	want := "before the first step (start the dev server): in the failing attempt it failed (dev_server_failed: exit 1) and nothing else the two attempts recorded differed before it"
	if got != want {
		t.Errorf("diverge:\n%s\nwant\n%s", got, want)
	}
}

// TestTargetNoun: a role selector is named by its role and name.
func TestTargetNoun(t *testing.T) {
	for target, want := range map[string]string{
		`role=button[name="Save"]`:               `the button "Save"`,
		`role=link[name='Help'][exact]`:          `the link "Help"`,
		`role=dialog`:                            "the dialog",
		`#save`:                                  "the target",
		`text=Save`:                              "the target",
		`role=button[name="Save"] >> nth=0`:      `the button "Save"`,
		`internal:role=button[name="Save"s]`:     "the target",
		`role=textbox[name="Email" i][disabled]`: `the textbox "Email"`,
	} {
		if got := targetNoun(target); got != want {
			t.Errorf("targetNoun(%q) = %q, want %q", target, got, want)
		}
	}
}
