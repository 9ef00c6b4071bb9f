package drift

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// page is a signed-up shop's page after the app changed under a flow: each
// drift of the e2e test (e2e/heal_test.go) has its element here, among
// others like it.
var page = []Candidate{
	{flow.Fingerprint{Role: "link", Name: "Help", Href: "/help", Tag: "a", Within: []string{`navigation "Menu"`}}, `role=link[name="Help"]`},
	{flow.Fingerprint{Role: "heading", Name: "Order confirmed", Tag: "h1", Within: []string{"main"}}, `role=heading[name="Order confirmed"]`},
	{flow.Fingerprint{Role: "textbox", Name: "Name", Tag: "input", Within: []string{"main", `form "Sign up"`}}, `role=textbox[name="Name"]`},
	{flow.Fingerprint{Role: "textbox", Name: "Email address", Placeholder: "you@example.com", Tag: "input", Within: []string{"main", `form "Sign up"`, `group "Email"`}}, `role=textbox[name="Email address"]`},
	{flow.Fingerprint{Role: "button", Name: "Create account", TestID: "signup-submit", Tag: "button", Within: []string{"main", `form "Sign up"`}}, `role=button[name="Create account"]`},
	{flow.Fingerprint{Role: "link", Name: "Sign up", Href: "/signup", Tag: "a", Within: []string{"main", `form "Sign up"`}}, `role=link[name="Sign up"]`},
	{flow.Fingerprint{Role: "button", Name: "Cancel", Tag: "button", Within: []string{"main", `form "Sign up"`}}, `role=button[name="Cancel"]`},
	{flow.Fingerprint{Role: "button", Name: "Add", TestID: "add-item-bread", Tag: "button", Within: []string{"main", `region "Bread"`, `heading "Bread"`}}, `testid=add-item-bread`},
	{flow.Fingerprint{Role: "button", Name: "Add", TestID: "add-item-milk", Tag: "button", Within: []string{"main", `region "Milk"`, `heading "Milk"`}}, `testid=add-item-milk`},
	{flow.Fingerprint{Role: "button", Name: "Delete item", Tag: "button", Within: []string{"main", `region "Basket"`}}, `role=button[name="Delete item"]`},
	{flow.Fingerprint{Role: "button", Name: "Delete all", Tag: "button", Within: []string{"main", `region "Basket"`}}, `role=button[name="Delete all"]`},
}

func TestDrifts(t *testing.T) {
	for _, tc := range []struct {
		what   string
		want   Want
		checks bool
		heal   string // the locator healed to, or "" for none
		why    string // in the diagnosis
	}{
		{what: "a renamed button, known by its test id",
			want: Want{Locator: `role=button[name="Sign up"]`, Role: "button", Name: "Sign up",
				Print: &flow.Fingerprint{Role: "button", Name: "Sign up", TestID: "signup-submit", Tag: "button", Within: []string{"main", `form "Sign up"`}}},
			heal: `role=button[name="Create account"]`, why: `test id "signup-submit", in main, form "Sign up", at the same place`},
		{what: "a field wrapped in a component that names it anew",
			want: Want{Locator: `role=textbox[name="Email"]`, Role: "textbox", Name: "Email",
				Print: &flow.Fingerprint{Role: "textbox", Name: "Email", Placeholder: "you@example.com", Tag: "input", Within: []string{"main", `form "Sign up"`}}},
			heal: `role=textbox[name="Email address"]`, why: `name "Email address" (was "Email": a word added), same placeholder "you@example.com"`},
		{what: "a changed test id: the button of the same region",
			want: Want{Locator: `testid=add-milk`, TestID: "add-milk",
				Print: &flow.Fingerprint{Role: "button", Name: "Add", TestID: "add-milk", Tag: "button", Within: []string{"main", `region "Milk"`, `heading "Milk"`}}},
			heal: `testid=add-item-milk`, why: `same name "Add", in main, region "Milk", heading "Milk"`},
		{what: "a link moved into a menu, its name shortened",
			want: Want{Locator: `role=link[name="Help center"]`, Role: "link", Name: "Help center",
				Print: &flow.Fingerprint{Role: "link", Name: "Help center", Href: "/help", Tag: "a", Within: []string{"main", `heading "Welcome"`}}},
			heal: `role=link[name="Help"]`, why: `name "Help" (was "Help center": a word dropped), same link to "/help"`},
		{what: "a decoy: two buttons with near names",
			want: Want{Locator: `role=button[name="Delete"]`, Role: "button", Name: "Delete",
				Print: &flow.Fingerprint{Role: "button", Name: "Delete", Tag: "button", Within: []string{"main", `region "Basket"`}}},
			why: "`role=button[name=\"Delete item\"]` and `role=button[name=\"Delete all\"]` are too alike to choose between"},
		{what: "an expect on a heading whose text changed",
			want: Want{Locator: `role=heading[name="Order placed"]`, Role: "heading", Name: "Order placed",
				Print: &flow.Fingerprint{Role: "heading", Name: "Order placed", Tag: "h1", Within: []string{"main"}}},
			checks: true, why: "`role=heading[name=\"Order confirmed\"]` is the closest (score 30: in main, at the same place)"},
		{what: "an old flow (no fingerprint): case and punctuation",
			want: Want{Locator: `role=button[name="cancel!"]`, Role: "button", Name: "cancel!"},
			heal: `role=button[name="Cancel"]`, why: `name "Cancel" (was "cancel!": case, spaces or punctuation)`},
		{what: "an old flow: a word added is named, not healed",
			want: Want{Locator: `role=button[name="Create"]`, Role: "button", Name: "Create"},
			why:  "is the closest (score 35: name \"Create account\" (was \"Create\": a word added)), not healed"},
		{what: "never another role: a link of the button's name is no candidate",
			want: Want{Locator: `role=button[name="Sign up"]`, Role: "button", Name: "Sign up"},
			why:  "no element of the page is like it"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			ranked := Rank(tc.want, page)
			v := Decide(tc.want, ranked, tc.checks)
			d := Diagnosis(tc.want, 0, ranked, v)
			t.Log(d)
			got := ""
			if v.Heal {
				got = v.Best.Locator
			}
			if got != tc.heal {
				t.Errorf("healed to %q, want %q (%s)", got, tc.heal, v.Why)
			}
			if !strings.Contains(d, tc.why) || !strings.HasPrefix(d, "`"+tc.want.Locator+"` found nothing; ") {
				t.Errorf("the diagnosis does not say %q:\n%s", tc.why, d)
			}
			for _, m := range ranked {
				if tc.want.Role != "" && m.Role != tc.want.Role {
					t.Errorf("a candidate of another role: %+v", m)
				}
			}
		})
	}
}

// TestExpectHealsOnlyItsOwnName: an expect's target is healed when only its
// test id changed, never onto another name.
func TestExpectHealsOnlyItsOwnName(t *testing.T) {
	w := Want{Locator: "testid=signup", TestID: "signup",
		Print: &flow.Fingerprint{Role: "button", Name: "Create account", TestID: "signup", Tag: "button", Within: []string{"main", `form "Sign up"`}}}
	if v := Decide(w, Rank(w, page), true); !v.Heal || v.Best.Locator != `role=button[name="Create account"]` {
		t.Errorf("an expect whose target kept its name: %+v", v)
	}
	w.Print.Name = "Sign up"
	if v := Decide(w, Rank(w, page), true); v.Heal {
		t.Errorf("an expect healed onto another name: %+v", v.Best)
	}
}

// TestNotUnique: a locator that finds two elements is told apart by where
// the step's target was.
func TestNotUnique(t *testing.T) {
	w := Want{Locator: `role=button[name="Add"]`, Role: "button", Name: "Add",
		Print: &flow.Fingerprint{Role: "button", Name: "Add", Tag: "button", Within: []string{"main", `region "Bread"`, `heading "Bread"`}}}
	ranked := Rank(w, page)
	v := Decide(w, ranked, false)
	if !v.Heal || v.Best.Locator != "testid=add-item-bread" {
		t.Fatalf("not told apart: %+v", v)
	}
	if d := Diagnosis(w, 2, ranked, v); !strings.HasPrefix(d, "`role=button[name=\"Add\"]` found 2 elements; `testid=add-item-bread` is the likely same element") {
		t.Errorf("diagnosis: %s", d)
	}
	// Without the fingerprint nothing tells them apart.
	w.Print = nil
	if v := Decide(w, Rank(w, page), false); v.Heal {
		t.Errorf("healed without evidence: %+v", v.Best)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"Sign-up!": "sign up", "  E-mail   Address ": "e mail address", "Grüße, Welt": "grüße welt", "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFieldKind: a heal never changes what kind of field a step types
// into. The recorded field was a password field: a plain text field of
// its label is refused, and the diagnosis names it and says why; a
// password field is healed onto. A step that types a secret never goes
// into a field that shows it, whatever its fingerprint says, nor one
// that types any variable when the fingerprint did not note the kind (an
// old flow); a literal text of an old flow heals as before.
func TestFieldKind(t *testing.T) {
	field := func(typ string, secret bool, loc string) Candidate {
		return Candidate{flow.Fingerprint{Role: "textbox", Name: "Password", Label: "Password", Tag: "input", Type: typ, Secret: secret,
			Within: []string{"main", `form "Sign in"`}}, loc}
	}
	text := field("text", false, `role=textbox[name="Password"]`)
	password := field("password", true, `role=textbox[name="Password"]`)
	masked := field("text", true, `role=textbox[name="Password"]`)
	email := field("email", false, `role=textbox[name="Password"]`)
	recorded := &flow.Fingerprint{Role: "textbox", Name: "Password", Label: "Password", Tag: "input", Type: "password", Secret: true,
		Within: []string{"main", `form "Sign in"`}}
	old := &flow.Fingerprint{Role: "textbox", Name: "Password", Label: "Password", Tag: "input", Within: []string{"main", `form "Sign in"`}}
	plain := &flow.Fingerprint{Role: "textbox", Name: "Password", Label: "Password", Tag: "input", Type: "text", Within: []string{"main", `form "Sign in"`}}
	secret, variable, literal := []any{SendsSecret, "E2E_SECRET_1"}, []any{SendsVariable, "USER_NAME"}, []any{SendsLiteral, ""}
	for _, tc := range []struct {
		what  string
		print *flow.Fingerprint
		sends []any
		cand  Candidate
		why   string // "" for a heal
	}{
		{"password to text", recorded, secret, text,
			"not healed: it is <input type=text> and the step's field was a password field (<input type=password>): a heal never changes the kind of field a step types into"},
		{"password to text, the text literal", recorded, literal, text, "it is <input type=text> and the step's field was a password field"},
		{"password to password", recorded, secret, password, ""},
		{"password to CSS-masked text", recorded, secret, masked, "it is <input type=text> masked with CSS (-webkit-text-security) and the step's field was a password field"},
		{"text to email", plain, literal, email, "it is <input type=email> and the step's field was <input type=text>"},
		{"text to text, a variable", plain, variable, text, ""},
		{"text to text, a secret", plain, secret, text,
			"it is <input type=text>, which shows what is typed, and the step types a secret (${E2E_SECRET_1}): a heal never types a secret where the page shows it"},
		{"old fingerprint, a secret, to text", old, secret, text, "the step types a secret (${E2E_SECRET_1})"},
		{"old fingerprint, a secret, to password", old, secret, password, ""},
		{"old fingerprint, a variable, to text", old, variable, text,
			"the step types ${USER_NAME}, and its fingerprint does not say whether the field it typed into hid it"},
		{"old fingerprint, a variable, to CSS-masked", old, variable, masked, ""},
		{"old fingerprint, a literal, to text", old, literal, text, ""},
		{"no fingerprint, a secret, to text", nil, secret, text, "the step types a secret"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			w := Want{Locator: "#password", Print: tc.print, Sends: tc.sends[0].(Sends), Var: tc.sends[1].(string)}
			if tc.print == nil {
				w.Locator, w.Role, w.Name = `role=textbox[name="Passwort"]`, "textbox", "Password"
			}
			ranked := Rank(w, []Candidate{tc.cand, {flow.Fingerprint{Role: "button", Name: "Sign in", Tag: "button"}, `role=button[name="Sign in"]`}})
			v := Decide(w, ranked, false)
			d := Diagnosis(w, 0, ranked, v)
			t.Log(d)
			if v.Heal != (tc.why == "") || !strings.Contains(d, tc.why) {
				t.Errorf("healed %v (%s):\n%s\nwant it to say %q", v.Heal, v.Why, d, tc.why)
			}
			if tc.why != "" && !strings.Contains(d, "`"+tc.cand.Locator+"` is the likely same element") {
				t.Errorf("the diagnosis does not name the refused candidate:\n%s", d)
			}
		})
	}
}
