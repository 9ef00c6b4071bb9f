package flow

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// groupedFlow has tags, a timeout, and groups: one nested, one written
// as a flow map, steps before, between and after them.
const groupedFlow = `name: checkout
tags: [smoke, "@pay"]
timeout: 90s
steps:
  - navigate: /
  - group: Sign in
    steps:
      - type: {target: label=Email, text: ada@example.com}
      - group: Password
        steps:
          - type: {target: label=Password, text: '${E2E_SECRET_1}'}
      - click: 'role=button[name="Sign in"]'
  - {group: Pay, steps: [{click: '#pay'}, back]}
  - expect: {target: role=status, check: text, expected: Paid}
`

// TestGroups: a flow's groups are read with the steps they hold, nested
// or not; its steps stay one list numbered in order; each step's group
// path is known; tags and the timeout are read; Marshal writes it all
// back as a file that reads as the same flow.
func TestGroups(t *testing.T) {
	f, err := Parse([]byte(groupedFlow))
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, st := range f.Steps {
		actions = append(actions, st.Action)
	}
	if got := strings.Join(actions, " "); got != "navigate type type click click back expect" {
		t.Errorf("the steps, in order: %s", got)
	}
	want := []Group{{Name: "Sign in", From: 1, To: 4, Parent: -1}, {Name: "Password", From: 2, To: 3, Parent: 0}, {Name: "Pay", From: 4, To: 6, Parent: -1}}
	if !reflect.DeepEqual(f.Groups, want) {
		t.Errorf("groups: %+v, want %+v", f.Groups, want)
	}
	for i, path := range []string{"", "Sign in", "Sign in > Password", "Sign in", "Pay", "Pay", ""} {
		if got := strings.Join(f.GroupPath(i), " > "); got != path {
			t.Errorf("step %d is in %q, want %q", i+1, got, path)
		}
	}
	if !reflect.DeepEqual(f.Tags, []string{"smoke", "@pay"}) || f.Timeout != 90*time.Second {
		t.Errorf("tags %q, timeout %s", f.Tags, f.Timeout)
	}
	if vars, _ := f.Vars(); !reflect.DeepEqual(vars, []string{"E2E_SECRET_1"}) {
		t.Errorf("a group's step reads no variable: %v", vars)
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(withoutPos(*back), withoutPos(*f)) { // the file's layout moves steps
		t.Errorf("round trip changed the flow:\n%s", out)
	}
	for _, line := range []string{"tags: [smoke, '@pay']", "timeout: 90s", "  - group: Sign in\n    steps:\n", "      - group: Password\n        steps:\n"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("Marshal lacks %q:\n%s", line, out)
		}
	}
	// A flow with none of them is written as before.
	plain, _ := (&Flow{Name: "x", Steps: []Step{{Action: "back", Args: map[string]any{}}}}).Marshal()
	if string(plain) != "name: x\nsteps:\n  - back:\n" {
		t.Errorf("a plain flow: %q", plain)
	}
}

// TestGroupErrors: a bad group, tag or timeout is refused with its line
// and what to write instead.
func TestGroupErrors(t *testing.T) {
	for src, want := range map[string]string{
		"name: x\nsteps:\n  - group: A\n":                                 `line 3: group "A" has no steps`,
		"name: x\nsteps:\n  - group: A\n    steps: []\n":                  `line 3: group "A" has no steps`,
		"name: x\nsteps:\n  - back\n  - group: ''\n    steps: [back]\n":   "line 4: a group's name is a text",
		"name: x\nsteps:\n  - group: [a]\n    steps: [back]\n":            "line 3: a group's name is a text",
		"name: x\nsteps:\n  - group: A\n    click: '#go'\n":               `line 4: a group has only the keys group (its name), steps and actor, not "click"`,
		"name: x\nsteps:\n  - group: A\n    steps:\n      - jump: here\n": `line 5: unknown action "jump"`,
		"name: x\nsteps:\n  - group: A\n    steps: back\n":                "line 4: steps is a list of steps",
		"name: x\nsteps:\n  - group: \"a\\nb\"\n    steps: [back]\n":      "a group's name is one line of text",
		"name: x\ntags: [smoke, 'two words']\nsteps: [back]\n":            `line 2: tags: "two words" is not one word`,
		"name: x\ntags: ['']\nsteps: [back]\n":                            "line 2: tags: an empty tag",
		"name: x\ntags: {a: b}\nsteps: [back]\n":                          "line 2: tags is a list of words",
		"name: x\ntimeout: 30\nsteps: [back]\n":                           `line 2: timeout: "30" has no unit`,
		"name: x\ntimeout: soon\nsteps: [back]\n":                         `line 2: timeout: "soon" is not a duration`,
		"name: x\ntimeout: 0s\nsteps: [back]\n":                           "a timeout is more than 0",
		"name: x\ntimeout: [1s]\nsteps: [back]\n":                         "line 2: timeout is a duration",
		"name: x\nsteps: {click: a}\n":                                    "line 2: steps is a list of steps",
		"name: x\nsteps:\n" + nested(maxGroupDepth+1, "back"):             "groups nest at most 16 deep",
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
	if _, err := Parse([]byte("name: x\ntags: smoke\nsteps:\n" + nested(maxGroupDepth, "back"))); err != nil {
		t.Errorf("one tag, groups %d deep: %v", maxGroupDepth, err)
	}
}

// nested is depth groups, one in the other, around one step, as a list.
func nested(depth int, step string) string {
	var b strings.Builder
	for d := range depth {
		ind := strings.Repeat("    ", d)
		b.WriteString(ind + "  - group: g\n" + ind + "    steps:\n")
	}
	b.WriteString(strings.Repeat("    ", depth) + "  - " + step + "\n")
	return b.String()
}

// TestRetargetInGroup: --heal's write-back edits a step inside a group in
// place, counted as Flow.Steps counts it, in block and flow style.
func TestRetargetInGroup(t *testing.T) {
	out, errs := Retarget([]byte(groupedFlow), []TargetEdit{
		{Step: 3, Target: `role=button[name="Log in"]`},
		{Step: 4, Target: "#pay-now"},
		{Step: 2, Target: "label=Passcode"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := strings.NewReplacer(`'role=button[name="Sign in"]'`, `'role=button[name="Log in"]'`, "{click: '#pay'}", "{click: '#pay-now'}",
		"label=Password,", "label=Passcode,").Replace(groupedFlow)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestParseTimeout: run --timeout reads durations as a flow's timeout does.
func TestParseTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"30s": 30 * time.Second, "2m": 2 * time.Minute, "1500ms": 1500 * time.Millisecond, " 1m30s ": 90 * time.Second} {
		if got, err := ParseTimeout(in); err != nil || got != want {
			t.Errorf("ParseTimeout(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for d, want := range map[time.Duration]string{2 * time.Minute: "2m", 90 * time.Second: "90s", 1500 * time.Millisecond: "1500ms", time.Hour: "1h", 1500 * time.Microsecond: "1.5ms"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%s) = %q, want %q", d, got, want)
		}
	}
}
