package e2e

import (
	"strings"
	"testing"
)

// TestEvaluateAnyResult: whatever a page function returns comes back as
// JSON: cycles marked, DOM nodes, Maps, Sets, Dates, errors, functions,
// bigints and non-finite numbers described, never an internal_error.
func TestEvaluateAnyResult(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	for _, tc := range []struct{ fn, want string }{
		{`() => { const a = {name: "a"}; a.self = a; return a }`, `"self":"[Circular ~]"`},
		{`() => { const a = [1]; a.push({back: a}); return a }`, `"back":"[Circular ~]"`},
		{`() => { const s = {x: 1}; return {one: s, two: s} }`, `"two":{"x":1}`},
		{`() => window`, `[Window http`},
		{`() => document.querySelector('button')`, `<button`},
		{`() => document.querySelectorAll('input')`, `["<input#name>",`},
		{`() => new Map([["k", 1]])`, `"k",`},
		{`() => new Set([1, 2])`, `2`},
		{`() => new Date(0)`, `1970-01-01T00:00:00.000Z`},
		{`() => new TypeError("boom")`, `"message":"boom"`},
		{`() => [NaN, Infinity, -0, undefined, 10n, Symbol("s"), () => 1]`, `"NaN"`},
		{`() => ({get bad() { throw new Error("getter") }})`, `[Thrown: getter]`},
		{`() => { let o = {}; for (let i = 0; i < 40; i++) o = {o}; return o }`, `cut`},
		{`() => Array.from({length: 50000}, (_, i) => i)`, `cut`},
	} {
		out := mustCall(t, c, "browser_evaluate", map[string]any{"function": tc.fn})
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: lacks %q:\n%.800s", tc.fn, tc.want, out)
		}
	}
	// A rejected promise is the page's error, as before.
	wantError(t, call(t, c, "browser_evaluate", map[string]any{"function": `async () => { throw new Error("nope") }`}), "script_error", "nope")
}
