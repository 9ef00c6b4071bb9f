// Package drift finds, on a page that changed under a recorded flow, the
// element a step's target meant: it scores the page's elements against what
// the step asked for (its locator and the fingerprint recorded beside it)
// and says why, so that `e2e-mcp run` can name the ready-to-paste locator of
// the likely same element, and with --heal replay with it.
//
// It is pure: the page's elements come from the browser (browser.Elements),
// already described; nothing here needs one. The order of evidence: the same
// test id; the same role with a near name (case, whitespace, punctuation, a
// word added or dropped, the label's text); the same label or placeholder
// (or a link's target); the same place in the recorded structure (landmark,
// form and heading). An element of another role is never a candidate.
//
// A heal never changes what kind of field a step types into: a candidate
// of another input type, or one that shows what is typed where the
// recorded field hid it (a password field), is refused (Match.Refused),
// and so is one that shows it when the step types a secret. A fingerprint
// recorded before the field's kind was noted says nothing of it: the
// step's text decides (see refusal).
package drift

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// The points of each kind of evidence, and what a heal needs.
const (
	pointsTestID      = 60
	pointsSameName    = 60
	pointsNearName    = 55 // the same words but for case, spaces, punctuation
	pointsWordName    = 35 // a word added or dropped
	pointsText        = 25 // the same label, placeholder or link target
	pointsNearText    = 20
	pointsPerPlace    = 10 // each landmark, form or heading shared, up to maxPlace
	maxPlace          = 30
	pointsSamePlace   = 15 // every one shared
	pointsTag         = 5
	minListed         = 25 // a candidate under this is not worth naming
	maxListed         = 3
	healScore         = 55 // what a heal needs ...
	healMargin        = 15 // ... and by how much it beats the next candidate
	explainedEvidence = 4  // evidence items said per candidate
)

// Want is what a step's target asked for: the fields its locator names
// (the last role, test id, label, placeholder or text part) and, when the
// step was recorded with one, its fingerprint.
type Want struct {
	Locator                                string
	Role, Name, TestID, Label, Placeholder string
	Text                                   string
	// Print is the step's fingerprint, or nil.
	Print *flow.Fingerprint
	// Sends is what the step types or sends into its target, and Var
	// the variable it reads (the first, for a diagnosis to name).
	Sends Sends
	Var   string
}

// Sends is what a step types or sends into its target, as a heal weighs
// it.
type Sends int

// What a step sends.
const (
	// SendsLiteral: nothing, or a text the flow itself holds.
	SendsLiteral Sends = iota
	// SendsVariable: a text read from an environment variable whose
	// name does not say it is a secret (${USER_EMAIL}).
	SendsVariable
	// SendsSecret: a secret's variable (${E2E_SECRET_1}, ${DB_PASSWORD}:
	// redact.IsSecretEnv).
	SendsSecret
)

// wanted is a Want's fields merged: what the locator says wins, the
// fingerprint fills in the rest.
type wanted struct {
	role, name, tid, label, ph, href, tag string
	within                                []string
}

// Candidate is an element of the page, described as a fingerprint, with a
// locator that finds it alone.
type Candidate struct {
	flow.Fingerprint
	Locator string
}

// Match is a scored candidate and the evidence for it, strongest first.
type Match struct {
	Candidate
	Score    int
	Evidence []string
	// Refused says why the step may not be healed onto it ("" when it
	// may): it is a field of another kind than the step typed into.
	Refused string
}

func (w Want) wanted() wanted {
	fp := w.Print
	if fp == nil {
		fp = &flow.Fingerprint{}
	}
	first := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	return wanted{role: first(w.Role, fp.Role), name: first(w.Name, first(fp.Name, w.Text)),
		tid: first(w.TestID, fp.TestID), label: first(w.Label, fp.Label), ph: first(w.Placeholder, fp.Placeholder),
		href: fp.Href, tag: fp.Tag, within: fp.Within}
}

// Rank scores every candidate of the wanted role and returns those worth
// naming, best first (document order among equals).
func Rank(w Want, cands []Candidate) []Match {
	wt := w.wanted()
	var out []Match
	for _, c := range cands {
		if wt.role != "" && c.Role != wt.role {
			continue // never another role
		}
		m := score(wt, c)
		m.Refused = refusal(w, c)
		if m.Score >= minListed {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int { return b.Score - a.Score })
	return out
}

// score weighs one candidate.
func score(w wanted, c Candidate) Match {
	m := Match{Candidate: c}
	add := func(points int, why string) {
		m.Score += points
		if why != "" {
			m.Evidence = append(m.Evidence, why)
		}
	}
	if w.tid != "" && c.TestID == w.tid {
		add(pointsTestID, fmt.Sprintf("test id %q", c.TestID))
	}
	if w.name != "" {
		if p, why := nameEvidence(w.name, c.Name); p > 0 {
			add(p, why)
		} else if c.Label != "" && c.Label == w.name {
			add(pointsText, fmt.Sprintf("label %q, the old name", c.Label))
		}
	}
	texts := []struct{ what, want, got string }{
		{"label", w.label, c.Label}, {"placeholder", w.ph, c.Placeholder}, {"link to", w.href, c.Href}}
	for _, t := range texts {
		switch {
		case t.want == "" || t.got == "":
		case t.want == t.got:
			add(pointsText, fmt.Sprintf("same %s %q", t.what, t.got))
		case t.what != "link to" && Normalize(t.want) == Normalize(t.got):
			add(pointsNearText, fmt.Sprintf("%s %q (was %q)", t.what, t.got, t.want))
		}
	}
	if shared := sharedPlaces(w.within, c.Within); len(shared) > 0 {
		add(min(maxPlace, pointsPerPlace*len(shared)), "in "+strings.Join(shared, ", "))
		if len(shared) == len(w.within) && len(shared) == len(c.Within) {
			add(pointsSamePlace, "at the same place")
		}
	}
	if w.tag != "" && c.Tag == w.tag {
		add(pointsTag, "")
	}
	return m
}

// refusal says why a step may not be healed onto c ("" when it may). With
// a fingerprint that noted the field's kind: c must be of the same type
// and hide what is typed as the recorded field did. Whatever the
// fingerprint: a step that types a secret goes only into a field that
// hides it. A fingerprint that did not note the kind (recorded before
// e2e-mcp noted it, or none) cannot vouch for a field that shows its
// text, so a step that types a variable goes only into one that hides it
// (a literal text is in the flow file already: it heals as before).
func refusal(w Want, c Candidate) string {
	fp := w.Print
	known := fp != nil && fp.Type != ""
	if known && (c.Type != fp.Type || c.Secret != fp.Secret) {
		return fmt.Sprintf("it is %s and the step's field was %s: a heal never changes the kind of field a step types into",
			kindOf(c.Fingerprint), kindOf(*fp))
	}
	if c.Secret || w.Sends == SendsLiteral {
		return ""
	}
	if w.Sends == SendsSecret {
		return fmt.Sprintf("it is %s, which shows what is typed, and the step types a secret (${%s}): a heal never types a secret where the page shows it",
			kindOf(c.Fingerprint), w.Var)
	}
	if !known {
		return fmt.Sprintf("it is %s, which shows what is typed, the step types ${%s}, and its fingerprint does not say whether the field it typed into hid it (recorded before e2e-mcp noted a field's kind): record the step again, or set its target",
			kindOf(c.Fingerprint), w.Var)
	}
	return ""
}

// kindOf is the kind of field a fingerprint describes, in words.
func kindOf(fp flow.Fingerprint) string {
	var k string
	switch fp.Type {
	case "":
		if fp.Tag == "" {
			return "an element that is not a field"
		}
		return "<" + fp.Tag + ">, not a field"
	case "textarea", "select":
		k = "<" + fp.Type + ">"
	case "contenteditable":
		k = "an editable element (contenteditable)"
	case "password":
		return "a password field (<input type=password>)"
	default:
		k = "<input type=" + fp.Type + ">"
	}
	if fp.Secret {
		k += " masked with CSS (-webkit-text-security)"
	}
	return k
}

// sharedPlaces are the recorded places (landmarks, forms, the heading) the
// candidate is in too, in the recorded order.
func sharedPlaces(want, got []string) []string {
	var out []string
	for _, p := range want {
		if slices.Contains(got, p) {
			out = append(out, p)
		}
	}
	return out
}

// nameEvidence compares a recorded name with a candidate's.
func nameEvidence(want, got string) (int, string) {
	switch {
	case got == "":
		return 0, ""
	case want == got:
		return pointsSameName, fmt.Sprintf("same name %q", got)
	case Normalize(want) == Normalize(got):
		return pointsNearName, fmt.Sprintf("name %q (was %q: case, spaces or punctuation)", got, want)
	}
	a, b := strings.Fields(Normalize(want)), strings.Fields(Normalize(got))
	switch {
	case len(b) == len(a)+1 && oneWordApart(a, b):
		return pointsWordName, fmt.Sprintf("name %q (was %q: a word added)", got, want)
	case len(a) == len(b)+1 && oneWordApart(b, a):
		return pointsWordName, fmt.Sprintf("name %q (was %q: a word dropped)", got, want)
	}
	return 0, ""
}

// oneWordApart reports whether long is short with one word inserted.
func oneWordApart(short, long []string) bool {
	if len(short) == 0 {
		return false
	}
	for i := range long {
		if slices.Equal(short, slices.Concat(long[:i], long[i+1:])) {
			return true
		}
	}
	return false
}

// Normalize is a text as near names compare it: lower case, punctuation
// as spaces, spaces collapsed.
func Normalize(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// Verdict is what to make of the ranked candidates.
type Verdict struct {
	// Best is the likely same element, or nil when none is worth naming.
	Best *Match
	// Heal says Best may replace the target; else Why says why not.
	Heal bool
	Why  string
}

// Decide says whether the best candidate may replace the target: it must
// score healScore or more, beat the next by healMargin, be of the step's
// role (known, from the locator or the fingerprint), not be refused (a
// field of another kind: refusal), and, for a step that
// checks (expect), have the recorded name: a name an expect's locator holds
// is a text it checks, and a changed text is a failure, not drift.
func Decide(w Want, ranked []Match, checks bool) Verdict {
	if len(ranked) == 0 {
		return Verdict{Why: "no element of the page is like it"}
	}
	v := Verdict{Best: &ranked[0]}
	wt := w.wanted()
	switch {
	case v.Best.Score < healScore:
		v.Why = fmt.Sprintf("the best candidate scores %d, under the %d a heal needs", v.Best.Score, healScore)
	case len(ranked) > 1 && ranked[1].Score > v.Best.Score-healMargin:
		v.Best, v.Why = nil, fmt.Sprintf("%s and %s are too alike to choose between", quote(ranked[0].Locator), quote(ranked[1].Locator))
	case wt.role == "":
		v.Why = "the step's role is unknown (no role in its locator, no fingerprint), so a heal could change it"
	case v.Best.Refused != "":
		v.Why = v.Best.Refused
	case checks && v.Best.Name != wt.name:
		v.Why = "an expect step is not healed onto an element of another name: its name is a text it checks"
	case v.Best.Locator == "":
		v.Why = "no locator finds the candidate alone"
	default:
		v.Heal = true
	}
	return v
}

// Diagnosis says, in one paragraph to paste from, what the target found
// (nothing, or count elements) and which element is likely the one meant,
// with its locator and evidence, or the candidates when none stands out.
func Diagnosis(w Want, found int, ranked []Match, v Verdict) string {
	var b strings.Builder
	what := "found nothing"
	if found > 1 {
		what = fmt.Sprintf("found %d elements", found)
	}
	fmt.Fprintf(&b, "%s %s", quote(w.Locator), what)
	switch {
	case v.Best != nil:
		claim := "is the likely same element"
		if v.Best.Score < healScore {
			claim = "is the closest"
		}
		fmt.Fprintf(&b, "; %s %s (%s)", quote(v.Best.Locator), claim, explain(*v.Best))
		if !v.Heal {
			fmt.Fprintf(&b, ", not healed: %s", v.Why)
		}
		b.WriteString(".")
		if others := otherThan(ranked, v.Best); len(others) > 0 {
			b.WriteString(" Also like it: " + listed(others) + ".")
		}
	case len(ranked) > 0:
		fmt.Fprintf(&b, "; %s. Candidates: %s.", v.Why, listed(ranked))
	default:
		fmt.Fprintf(&b, "; %s.", v.Why)
	}
	return b.String()
}

// otherThan is ranked without best, as many as are listed.
func otherThan(ranked []Match, best *Match) []Match {
	var out []Match
	for _, m := range ranked {
		if m.Locator != best.Locator && len(out) < maxListed-1 {
			out = append(out, m)
		}
	}
	return out
}

func listed(ms []Match) string {
	var parts []string
	for _, m := range ms[:min(len(ms), maxListed)] {
		parts = append(parts, fmt.Sprintf("%s (%s)", quote(m.Locator), explain(m)))
	}
	return strings.Join(parts, "; ")
}

// explain is a match's score and its strongest evidence.
func explain(m Match) string {
	ev := m.Evidence[:min(len(m.Evidence), explainedEvidence)]
	if len(ev) == 0 {
		return fmt.Sprintf("score %d", m.Score)
	}
	return fmt.Sprintf("score %d: %s", m.Score, strings.Join(ev, ", "))
}

// quote is a locator as the diagnosis shows it, ready to paste.
func quote(loc string) string {
	if loc == "" {
		return "(no unique locator)"
	}
	return "`" + loc + "`"
}
