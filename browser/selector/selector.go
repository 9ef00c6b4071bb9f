// Package selector reads the patterns an agent writes: selectors, snapshot
// refs, URL globs and /regex/flags arguments. A target is a ref (e5, f1e3:
// [IsRef], [ParseRef]) or a selector. A selector of e2e-mcp's page engine,
// after Playwright's grammar, is parts joined by ">>" (css, text=, role=,
// xpath=, test ids, label= and the other text engines, nth=, visible=),
// each read into the AST the engine evaluates ([Selector], [Part] and
// below); it owns the grammar and its syntax errors (invalid_input
// [*refusal.Error]s naming the position and saying what to do). A URL
// pattern (browser_wait_for's url, browser_route's pattern) is a glob or a
// /regex/flags, read into the regular expression it is matched with
// ([ParseURLPattern], [GlobSource]); a tool's regex argument is compiled
// as Go's regexp ([RegexArg], refusing with an invalid_input
// [*refusal.Error]), and browser_expect's /regex/ split ([RegexLiteral]).
// It runs nothing. The engine that evaluates the AST in a page stays in
// browser, which imports this package and reads its refusals as its
// invalid_input errors (browser.AsError). It imports only the standard
// library and browser/refusal.
package selector

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// A Selector is a parsed Playwright-style selector: parts joined by ">>",
// each part querying inside the elements the previous part found. Parsing
// happens in Go, so a malformed selector gets an error that names the
// position; the page engine (browser/js/30_selectors.js) evaluates the parts.
//
// The forms (docs/architecture.md §4, after Playwright's semantics):
//
//	css (the default)        button.primary, #host button (pierces open shadow roots),
//	                         with :has-text("x"), :text("x"), :text-is("x"),
//	                         :text-matches("re", "i") and :visible
//	text=Sign up             lax: case-insensitive substring, the deepest element
//	text="Sign up"           strict: case-sensitive, one of the element's own text runs
//	text=/sign\s*up/i        regular expression on the element's text
//	"Sign up"                the same as text="Sign up"
//	role=button[name="Go"]   ARIA role, with name (= *= ^= $= ~= |=, "x"i, /re/),
//	                         checked, pressed, selected, expanded, disabled, level, include-hidden
//	xpath=//button, //button xpath (no shadow piercing)
//	data-testid=x, testid=x  test id (attribute configurable), data-test-id=, data-test=, id=
//	label=, placeholder=, alt=, title=   text forms as for text=
//	nth=0, nth=-1            one element of what the chain found so far
//	visible=true             only visible (or hidden) elements
//
// A part that lands on an <iframe> followed by another part continues inside
// the frame's document: "iframe#pay >> role=button[name=Pay]".
type Selector struct {
	// Text is the selector as written.
	Text  string `json:"-"`
	Parts []Part `json:"parts"`
}

// Part is one step of a selector chain. Engine says which fields are set.
type Part struct {
	Engine string `json:"e"`
	// Src is the part as written (the text between >>), for tools that
	// write the selector in another form (flow/playwright).
	Src string `json:"-"`
	// CSS is the selector list of a css part: alternatives, each a chain of
	// compounds joined by combinators.
	CSS [][]Compound `json:"css,omitempty"`
	// Text is the matcher of text, label, placeholder, alt and title parts.
	Text *TextMatch `json:"text,omitempty"`
	// Role and Attrs are the role and attribute filters of a role part.
	Role  string     `json:"role,omitempty"`
	Attrs []RoleAttr `json:"attrs,omitempty"`
	// XPath is an xpath part's expression.
	XPath string `json:"xpath,omitempty"`
	// Attr and Value are an attribute part's name and exact value.
	Attr  string `json:"attr,omitempty"`
	Value string `json:"value,omitempty"`
	// N is an nth part's index (negative counts from the end); absent
	// means 0, the first.
	N int `json:"n,omitempty"`
	// Visible is a visible part's wanted visibility.
	Visible bool `json:"visible,omitempty"`
}

// Compound is a simple CSS selector the browser matches natively, plus the
// engine's own pseudo-classes, and the combinator that joins it to the
// compound before it ("" for the first).
type Compound struct {
	Comb    string   `json:"c,omitempty"`
	CSS     string   `json:"css"`
	Pseudos []Pseudo `json:"ps,omitempty"`
}

// Pseudo is one of the engine's pseudo-classes on a compound. The
// functional ones of CSS (:is, :where, :not, :has) carry their selector
// list in Sel, so that they pierce shadow roots and take the engine's own
// pseudo-classes, as Playwright's do. In a :has() list, the first
// compound's Comb is the combinator the relative selector starts with
// (> + ~, or "" for a descendant).
type Pseudo struct {
	Name string       `json:"n"`
	Text *TextMatch   `json:"t,omitempty"`
	Sel  [][]Compound `json:"sel,omitempty"`
}

// TextMatch says how text is compared.
type TextMatch struct {
	// Mode is lax (case-insensitive substring), exact (case-sensitive
	// equality), iexact (case-insensitive equality) or regex.
	Mode  string `json:"m"`
	Value string `json:"v"`
	Flags string `json:"f,omitempty"`
}

// RoleAttr is one [attribute] filter of a role part.
type RoleAttr struct {
	Name  string     `json:"n"`
	Op    string     `json:"op,omitempty"`
	Text  *TextMatch `json:"t,omitempty"` // for name and description
	Value any        `json:"v,omitempty"` // bool, "mixed" or a level
}

// syntaxHint is what an agent does about a selector that does not parse.
const syntaxHint = "fix the selector (forms: css, text=, role=button[name=\"x\"], xpath=, data-testid=, label=, nth=, >>), or use a ref from a snapshot"

// syntaxError is the refusal of sel, wrong at pos (the byte offset of the
// mistake, len(sel) when something is missing at its end): the message
// names the selector and the position, then says what is wrong there
// ("empty part between >>").
func syntaxError(sel string, pos int, format string, args ...any) *refusal.Error {
	return refusal.Invalid(syntaxHint, "selector %q: at position %d: %s", sel, pos, fmt.Sprintf(format, args...))
}

var engineNameRE = regexp.MustCompile(`^([a-zA-Z_0-9+:*-]+)=`)

// Parse parses a selector. testIDAttr is the attribute testid= matches
// (data-testid when empty). Its error is always an invalid_input
// [*refusal.Error] (syntaxError).
func Parse(sel, testIDAttr string) (*Selector, error) {
	if testIDAttr == "" {
		testIDAttr = "data-testid"
	}
	if strings.TrimSpace(sel) == "" {
		return nil, syntaxError(sel, 0, "empty selector")
	}
	chunks, err := splitChain(sel)
	if err != nil {
		return nil, err
	}
	s := &Selector{Text: sel}
	for _, c := range chunks {
		p, err := parsePart(sel, c.text, c.pos, testIDAttr)
		if err != nil {
			return nil, err
		}
		p.Src = c.text
		s.Parts = append(s.Parts, p)
	}
	return s, nil
}

type chunk struct {
	text string
	pos  int // byte offset of text in the selector
}

// splitChain splits sel on ">>" outside quotes and regular expressions (a
// "/" right after "=": text=/let's/i, [name=/a>>b/]). Brackets are left to
// the parts: a regular expression may hold unbalanced ones.
func splitChain(sel string) ([]chunk, error) {
	var out []chunk
	start, qpos := 0, 0
	var quote byte
	for i := 0; i < len(sel); i++ {
		ch := sel[i]
		switch {
		case quote != 0 && ch == '\\':
			i++
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case (ch == '"' || ch == '\'') && !textSoFar(sel[start:i]):
			quote, qpos = ch, i
		case ch == '/' && i > 0 && sel[i-1] == '=':
			if end := regexEnd(sel[i:]); end > 0 {
				i += end
			}
		case ch == '>' && i+1 < len(sel) && sel[i+1] == '>':
			out = append(out, trimChunk(sel, start, i))
			start = i + 2
			i++
		}
	}
	if quote != 0 {
		return nil, syntaxError(sel, qpos, "unterminated %c quote", quote)
	}
	out = append(out, trimChunk(sel, start, len(sel)))
	for _, c := range out {
		if c.text == "" {
			return nil, syntaxError(sel, c.pos, "empty part between >>")
		}
	}
	return out, nil
}

// textSoFar says whether a part begun as prefix is a text= part with
// something after its "=": a quote there is text, not the start of a quoted
// string (text=lo" >> span), as Playwright splits a chain. A quote right
// after "=" still opens one.
func textSoFar(prefix string) bool {
	m := textPrefixRE.FindStringSubmatch(prefix)
	return m != nil && m[1] != ""
}

var textPrefixRE = regexp.MustCompile(`^\s*text\s*=([\s\S]*)$`)

func trimChunk(sel string, from, to int) chunk {
	raw := sel[from:to]
	lead := len(raw) - len(strings.TrimLeft(raw, " \t\n"))
	return chunk{text: strings.TrimSpace(raw), pos: from + lead}
}

// attrEngines map engine names to the attribute they match exactly.
var attrEngines = map[string]string{"data-test-id": "data-test-id", "data-test": "data-test", "id": "id"}

var textEngines = map[string]bool{"text": true, "label": true, "placeholder": true, "alt": true, "title": true}

func parsePart(sel, part string, pos int, testIDAttr string) (Part, error) {
	name, body, bodyPos := "", part, pos
	if m := engineNameRE.FindStringSubmatch(part); m != nil {
		name, body, bodyPos = m[1], part[len(m[0]):], pos+len(m[0])
	} else {
		switch {
		case part[0] == '"' || part[0] == '\'':
			name = "text"
		case strings.HasPrefix(part, "//"), strings.HasPrefix(part, ".."), strings.HasPrefix(part, "(//"):
			name = "xpath"
		default:
			name = "css"
		}
	}
	switch {
	case name == "css":
		alts, err := parseCSS(sel, body, bodyPos)
		return Part{Engine: "css", CSS: alts}, err
	case textEngines[name]:
		tm, err := parseTextMatch(sel, body, bodyPos)
		return Part{Engine: name, Text: tm}, err
	case name == "role":
		return parseRole(sel, body, bodyPos)
	case name == "xpath":
		if strings.TrimSpace(body) == "" {
			return Part{}, syntaxError(sel, bodyPos, "empty xpath")
		}
		return Part{Engine: "xpath", XPath: body}, nil
	case name == "testid" || name == "data-testid":
		v, err := unquoteValue(sel, body, bodyPos)
		attr := testIDAttr
		if name == "data-testid" {
			attr = "data-testid"
		}
		return Part{Engine: "attr", Attr: attr, Value: v}, err
	case attrEngines[name] != "":
		v, err := unquoteValue(sel, body, bodyPos)
		return Part{Engine: "attr", Attr: attrEngines[name], Value: v}, err
	case name == "nth":
		n, err := strconv.Atoi(strings.TrimSpace(body))
		if err != nil {
			return Part{}, syntaxError(sel, bodyPos, "nth= wants an integer (0 is the first, -1 the last), got %q", body)
		}
		return Part{Engine: "nth", N: n}, nil
	case name == "visible":
		v, err := strconv.ParseBool(strings.TrimSpace(body))
		if err != nil {
			return Part{}, syntaxError(sel, bodyPos, "visible= wants true or false, got %q", body)
		}
		return Part{Engine: "visible", Visible: v}, nil
	}
	return Part{}, syntaxError(sel, pos, "unknown selector engine %q (known: css, text, role, xpath, data-testid, testid, data-test-id, data-test, id, label, placeholder, alt, title, nth, visible)", name)
}

// unquoteValue reads an attribute engine's value: quoted or bare.
func unquoteValue(sel, body string, pos int) (string, error) {
	b := strings.TrimSpace(body)
	if b == "" {
		return "", syntaxError(sel, pos, "empty value")
	}
	if b[0] == '"' || b[0] == '\'' {
		v, n, err := readQuoted(sel, b, pos)
		if err != nil {
			return "", err
		}
		if n != len(b) {
			return "", syntaxError(sel, pos+n, "unexpected %q after the quoted value", b[n:])
		}
		return v, nil
	}
	return b, nil
}

// readQuoted reads a quoted string at the start of s (s[0] is the quote)
// and returns its value and the bytes it took.
func readQuoted(sel, s string, pos int) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case q:
			return b.String(), i + 1, nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0, syntaxError(sel, pos, "unterminated %c quote", q)
}

// parseTextMatch reads the body of a text-like engine: "exact", "iexact"i,
// 'exact', /regex/flags or a bare lax string.
func parseTextMatch(sel, body string, pos int) (*TextMatch, error) {
	b := strings.TrimSpace(body)
	if b == "" {
		return nil, syntaxError(sel, pos, "empty text")
	}
	switch b[0] {
	case '"', '\'':
		v, n, err := readQuoted(sel, b, pos)
		if err != nil {
			return nil, err
		}
		switch rest := b[n:]; rest {
		case "", "s":
			return &TextMatch{Mode: "exact", Value: v}, nil
		case "i":
			return &TextMatch{Mode: "iexact", Value: v}, nil
		default:
			return nil, syntaxError(sel, pos+n, "unexpected %q after the quoted text (only i or s may follow)", rest)
		}
	case '/':
		return parseRegex(sel, b, pos)
	}
	return &TextMatch{Mode: "lax", Value: b}, nil
}

var regexFlagsRE = regexp.MustCompile(`^[dgimsuvy]*$`)

func parseRegex(sel, b string, pos int) (*TextMatch, error) {
	end := regexEnd(b)
	if end < 0 {
		return nil, syntaxError(sel, pos, "unterminated regular expression")
	}
	if end == 1 {
		return nil, syntaxError(sel, pos, "empty regular expression")
	}
	flags := b[end+1:]
	if !regexFlagsRE.MatchString(flags) {
		return nil, syntaxError(sel, pos+end+1, "bad regular expression flags %q", flags)
	}
	return &TextMatch{Mode: "regex", Value: b[1:end], Flags: flags}, nil
}

// regexEnd returns the index of the slash that closes the regular
// expression literal at the start of b (b[0] is '/'), or -1.
func regexEnd(b string) int {
	inClass := false
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				return i
			}
		}
	}
	return -1
}

var (
	roleNameRE = regexp.MustCompile(`^[a-z]+`)
	attrNameRE = regexp.MustCompile(`^[a-z][a-z-]*`)
	attrOps    = []string{"*=", "^=", "$=", "~=", "|=", "="}
)

// roleAttrKinds are the attributes a role part accepts, with the values they take.
var roleAttrKinds = map[string]string{
	"name": "text", "description": "text",
	"checked": "tristate", "pressed": "tristate",
	"selected": "bool", "expanded": "bool", "disabled": "bool", "include-hidden": "bool",
	"level": "int",
}

func parseRole(sel, body string, pos int) (Part, error) {
	role := roleNameRE.FindString(body)
	if role == "" {
		return Part{}, syntaxError(sel, pos, "role= wants an ARIA role such as button or link")
	}
	p := Part{Engine: "role", Role: role}
	i := len(role)
	for i < len(body) {
		if body[i] == ' ' {
			i++
			continue
		}
		if body[i] != '[' {
			return Part{}, syntaxError(sel, pos+i, "expected [attribute] after the role, got %q", body[i:])
		}
		a, n, err := parseRoleAttr(sel, body[i:], pos+i)
		if err != nil {
			return Part{}, err
		}
		p.Attrs = append(p.Attrs, a)
		i += n
	}
	return p, nil
}

// parseRoleAttr reads one [name op value flag] at the start of s.
func parseRoleAttr(sel, s string, pos int) (RoleAttr, int, error) {
	i := 1
	skip := func() {
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	skip()
	name := attrNameRE.FindString(s[i:])
	if name == "" {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "expected an attribute name")
	}
	kind, ok := roleAttrKinds[name]
	if !ok {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "unknown role attribute %q (known: name, description, checked, pressed, selected, expanded, disabled, level, include-hidden)", name)
	}
	i += len(name)
	skip()
	a := RoleAttr{Name: name}
	if i < len(s) && s[i] == ']' { // [checked] means true
		if kind == "text" || kind == "int" {
			return RoleAttr{}, 0, syntaxError(sel, pos+i, "[%s] needs a value", name)
		}
		a.Value = true
		return a, i + 1, nil
	}
	for _, op := range attrOps {
		if strings.HasPrefix(s[i:], op) {
			a.Op = op
			break
		}
	}
	if a.Op == "" {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "expected = or ] after %s", name)
	}
	if kind != "text" && a.Op != "=" {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "%s takes only =", name)
	}
	i += len(a.Op)
	skip()
	if i >= len(s) {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "missing value and ]")
	}
	var raw string
	quoted := false
	switch s[i] {
	case '"', '\'':
		v, n, err := readQuoted(sel, s[i:], pos+i)
		if err != nil {
			return RoleAttr{}, 0, err
		}
		raw, quoted = v, true
		i += n
	case '/':
		if kind != "text" {
			return RoleAttr{}, 0, syntaxError(sel, pos+i, "%s does not take a regular expression", name)
		}
		if a.Op != "=" {
			return RoleAttr{}, 0, syntaxError(sel, pos+i, "a regular expression takes =, not %s", a.Op)
		}
		end := regexEnd(s[i:])
		if end < 0 {
			return RoleAttr{}, 0, syntaxError(sel, pos+i, "unterminated regular expression")
		}
		j := i + end + 1
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		tm, err := parseRegex(sel, s[i:j], pos+i)
		if err != nil {
			return RoleAttr{}, 0, err
		}
		a.Text = tm
		i = j
		skip()
		if i >= len(s) || s[i] != ']' {
			return RoleAttr{}, 0, syntaxError(sel, pos+i, "expected ]")
		}
		return a, i + 1, nil
	default:
		j := i
		for j < len(s) && s[j] != ']' && s[j] != ' ' {
			j++
		}
		raw = s[i:j]
		i = j
	}
	skip()
	flag := ""
	if i < len(s) && (s[i] == 'i' || s[i] == 's') {
		flag = string(s[i])
		i++
		skip()
	}
	if i >= len(s) || s[i] != ']' {
		return RoleAttr{}, 0, syntaxError(sel, pos+i, "expected ]")
	}
	i++
	switch kind {
	case "text":
		mode := "exact"
		if flag == "i" {
			mode = "iexact"
		}
		a.Text = &TextMatch{Mode: mode, Value: raw}
	case "int":
		n, err := strconv.Atoi(raw)
		if err != nil || quoted || n < 1 {
			return RoleAttr{}, 0, syntaxError(sel, pos, "%s wants a positive integer, got %q", name, raw)
		}
		a.Value = n
	case "bool", "tristate":
		switch {
		case raw == "true" && !quoted:
			a.Value = true
		case raw == "false" && !quoted:
			a.Value = false
		case raw == "mixed" && kind == "tristate":
			a.Value = "mixed"
		default:
			want := "true or false"
			if kind == "tristate" {
				want = "true, false or mixed"
			}
			return RoleAttr{}, 0, syntaxError(sel, pos, "%s wants %s, got %q", name, want, raw)
		}
	}
	return a, i, nil
}
