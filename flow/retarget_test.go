package flow

import (
	"errors"
	"strings"
	"testing"
)

// kept is a flow a person keeps: comments, blank lines, quoting of every
// kind, a step's arguments as a flow map and as a block map, fingerprints
// as a flow map and as a block map, and steps without one.
const kept = `# Sign-up, kept by hand.
name: sign-up   # the name

steps:
  # the shop, on the dev machine
  - navigate: http://localhost:8000/
  - click: role=button[name="Sign up"]   # the submit button
    fingerprint: {role: button, name: Sign up, testId: signup-submit, tag: button}
  - type: {target: '#email', text: "${EMAIL}"}

  - type:
      target: "#name"   # by id
      text: Ada
    fingerprint:
      role: textbox
      name: Name
      within: [main]
  - click: 'role=button[name="Pay"]'
  - expect: {target: "role=status", check: text, expected: 'Paid, ${EMAIL}!'}
`

// keptEdited is kept with steps 2 to 5 given new targets and
// fingerprints: every other byte as it was.
const keptEdited = `# Sign-up, kept by hand.
name: sign-up   # the name

steps:
  # the shop, on the dev machine
  - navigate: http://localhost:8000/
  - click: role=button[name="Create account"]   # the submit button
    fingerprint: {role: button, name: Create account, testId: signup-submit, tag: button}
  - type: {target: 'role=textbox[name="Email, work"]', text: "${EMAIL}"}
    fingerprint: {role: textbox, name: 'Email, work', tag: input, type: email}

  - type:
      target: "role=textbox[name=\"Full name\"]"   # by id
      text: Ada
    fingerprint:
      {role: textbox, name: Full name, tag: input, type: text, within: [main]}
  - click: 'role=button[name="Pay now"]'
    fingerprint: {role: button, name: Pay now, tag: button}
  - expect: {target: "role=status", check: text, expected: 'Paid, ${EMAIL}!'}
`

var keptEdits = []TargetEdit{
	{Step: 1, Target: `role=button[name="Create account"]`, Print: &Fingerprint{Role: "button", Name: "Create account", TestID: "signup-submit", Tag: "button"}},
	{Step: 2, Target: `role=textbox[name="Email, work"]`, Print: &Fingerprint{Role: "textbox", Name: "Email, work", Tag: "input", Type: "email"}},
	{Step: 3, Target: `role=textbox[name="Full name"]`, Print: &Fingerprint{Role: "textbox", Name: "Full name", Tag: "input", Type: "text", Within: []string{"main"}}},
	{Step: 4, Target: `role=button[name="Pay now"]`, Print: &Fingerprint{Role: "button", Name: "Pay now", Tag: "button"}},
}

// TestRetargetKeepsTheFile: a heal's edits change the bytes of the healed
// steps' targets and fingerprints and nothing else: the comments, blank
// lines, quoting, key order and the URL stay as they were, in a file with
// LF line ends as with CRLF, and a step without a fingerprint gets one on
// a line of its own in the file's line ends.
func TestRetargetKeepsTheFile(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		src := strings.ReplaceAll(kept, "\n", eol)
		want := strings.ReplaceAll(keptEdited, "\n", eol)
		got, errs := Retarget([]byte(src), keptEdits)
		if len(errs) > 0 {
			t.Fatalf("%q: %v", eol, errs)
		}
		if string(got) != want {
			t.Errorf("line ends %q: got\n%s\nwant\n%s", eol, got, want)
		}
	}
	// A file whose last line has no line break keeps none.
	got, errs := Retarget([]byte("name: f\r\nsteps:\r\n  - click: '#a' # ok"), []TargetEdit{{Step: 0, Target: "#b", Print: &Fingerprint{Tag: "a"}}})
	if want := "name: f\r\nsteps:\r\n  - click: '#b' # ok\r\n    fingerprint: {tag: a}"; len(errs) > 0 || string(got) != want {
		t.Errorf("got (%v) %q, want %q", errs, got, want)
	}
}

// TestRetargetInFlowCollections: steps written as flow maps inside a flow
// list (a group of steps on one line or a few): the target is replaced in
// place, quoted where a flow collection needs it, and a fingerprint is
// added inside the step's braces.
func TestRetargetInFlowCollections(t *testing.T) {
	src := "name: f\nsteps: [{navigate: /}, {click: '#a'},\n  {type: {target: \"#b\", text: x}, fingerprint: {role: textbox}}]  # all three\n"
	got, errs := Retarget([]byte(src), []TargetEdit{
		{Step: 1, Target: `role=button[name="Go"]`, Print: &Fingerprint{Role: "button", Name: "Go"}},
		{Step: 2, Target: `#c`, Print: &Fingerprint{Role: "textbox", Name: "C", Type: "text"}},
	})
	want := "name: f\nsteps: [{navigate: /}, {click: 'role=button[name=\"Go\"]', fingerprint: {role: button, name: Go}},\n  {type: {target: \"#c\", text: x}, fingerprint: {role: textbox, name: C, type: text}}]  # all three\n"
	if len(errs) > 0 || string(got) != want {
		t.Errorf("got (%v)\n%s\nwant\n%s", errs, got, want)
	}
}

// TestRetargetRefuses: an edit that cannot change only its step is not
// made, and says why; the file's other edits are made: a target anchored
// and used by another step (an alias of it is replaced, the anchor kept
// when nothing else uses it), a target written as a block of lines, a
// step that is not there, a fingerprint with a comment inside, a target
// that reads a data row's field or a variable (each run's own value).
func TestRetargetRefuses(t *testing.T) {
	src := `name: f
data:
  - {who: Ada}
steps:
  - type: {target: &field '#name', text: Ada}
  - type: {target: *field, text: Lovelace}
  - click: &only !!str '#only'
  - type:
      target: |
        #block
      text: x
  - click: '#c'
    fingerprint:
      role: button   # kept by hand
      name: C
  - click: 'role=button[name="${row.who}"]'
  - click: '${BASE_BUTTON}'
`
	got, errs := Retarget([]byte(src), []TargetEdit{
		{Step: 0, Target: "#new-save"},
		{Step: 1, Target: "#alias"},
		{Step: 2, Target: "#only-new"},
		{Step: 3, Target: "#b"},
		{Step: 4, Target: "#d", Print: &Fingerprint{Role: "button", Name: "D"}},
		{Step: 9, Target: "#nine"},
		{Step: 5, Target: `role=button[name="Ada"]`},
		{Step: 6, Target: "#base"},
	})
	want := strings.NewReplacer("{target: *field,", "{target: '#alias',", "!!str '#only'", "!!str '#only-new'").Replace(src)
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	refused := map[int]string{}
	for _, err := range errs {
		var e *EditError
		if !errors.As(err, &e) {
			t.Fatalf("not an EditError: %v", err)
		}
		refused[e.Step] = e.Error()
	}
	for step, why := range map[int]string{0: "with only this step changed", 3: "block of lines", 4: "holds a comment", 9: "has 7 steps",
		5: "its target reads ${row.who}, which each run", 6: "its target reads ${BASE_BUTTON}"} {
		if !strings.Contains(refused[step], why) {
			t.Errorf("step %d: %q, want it to say %q", step+1, refused[step], why)
		}
	}
	if len(refused) != 6 {
		t.Errorf("refused: %v", refused)
	}
}

// TestRetargetQuotes: a new target is written in the old one's quoting
// when it can be, and reads back as the text given, whatever it holds.
func TestRetargetQuotes(t *testing.T) {
	for _, tc := range []struct{ was, target, want string }{
		{`'#a'`, `it's`, `'it''s'`},
		{`"#a"`, `say "hi" \ there`, `"say \"hi\" \\ there"`},
		{`"#a"`, "tab\there", `"tab\x09here"`},
		{`'#a'`, "line\nbreak", `"line\x0abreak"`},
		{`'#a'`, "$$HOME", `'$$HOME'`},
		{`plain`, `#hash`, `'#hash'`},
		{`plain`, `true`, `'true'`},
		{`plain`, `a: b`, `'a: b'`},
		{`plain`, `text=Go`, `text=Go`},
	} {
		src := "name: f\nsteps:\n  - click: " + tc.was + "\n"
		got, errs := Retarget([]byte(src), []TargetEdit{{Step: 0, Target: tc.target}})
		if want := "name: f\nsteps:\n  - click: " + tc.want + "\n"; len(errs) > 0 || string(got) != want {
			t.Errorf("%s -> %q: got (%v)\n%s\nwant\n%s", tc.was, tc.target, errs, got, want)
		}
	}
}
