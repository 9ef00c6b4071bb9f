package flow

import (
	"fmt"
	"sort"
	"strings"
)

// A flow's texts may read the environment, so that a secret is never
// written out, and nothing else may: what an agent typed replays as it was
// typed, whatever it holds.
//
//   - ${NAME} and $NAME are references to the environment variable NAME
//     (a letter or _, then letters, digits and _);
//   - ${row.FIELD} is the field FIELD of the data row the flow runs for
//     (data.go): run substitutes it before the flow starts;
//   - $$ is one $;
//   - a $ before anything else is itself: $100, [href$=".pdf"], a $ at the
//     end;
//   - a ${ that does not close on a name (${, ${1x}, ${a b}) is an error,
//     so that a typo is not read as text.
//
// The recorder writes every text through [Escape], at any depth, and
// writes its own ${E2E_SECRET_n} where a secret was (mcptools'
// Session.flowArgs); e2e-mcp run and the Playwright export read
// texts through [Parts]: nothing else in the module expands a flow's text.

// Part is a piece of a flow text: literal Text, a reference to the
// environment variable Var, or to the field Row of the flow's data row
// (${row.FIELD}, data.go).
type Part struct {
	Text string
	Var  string
	Row  string
}

// Literal says the part is text, not a reference: every reader of Parts
// asks this, not whether Var is empty, so that no reference is read as an
// empty text.
func (p Part) Literal() bool { return p.Var == "" && p.Row == "" }

// firstReference is the first reference in a flow text as written
// (${row.email}, ${BASE}), or "" when it has none (or does not read).
func firstReference(s string) string {
	parts, err := Parts(s)
	if err != nil {
		return ""
	}
	for _, p := range parts {
		switch {
		case p.Row != "":
			return "${" + rowPrefix + p.Row + "}"
		case p.Var != "":
			return "${" + p.Var + "}"
		}
	}
	return ""
}

// isNameStart and isNameChar say what a variable name is made of.
func isNameStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// Parts reads a flow text: its literal pieces (adjacent ones joined) and
// references, in order.
func Parts(s string) ([]Part, error) {
	var parts []Part
	var lit strings.Builder
	add := func(p Part) {
		if lit.Len() > 0 {
			parts = append(parts, Part{Text: lit.String()})
			lit.Reset()
		}
		parts = append(parts, p)
	}
	ref := func(name string) { add(Part{Var: name}) }
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			lit.WriteString(s[i:])
			break
		}
		lit.WriteString(s[i : i+j])
		i += j
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch {
		case next == '$':
			lit.WriteByte('$')
			i += 2
		case next == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q: a ${ without its }: write $${ for the text ${", clip(s[i:]))
			}
			name := s[i+2 : i+end]
			if field, ok := strings.CutPrefix(name, rowPrefix); ok && isName(field) {
				add(Part{Row: field})
				i += end + 1
				continue
			}
			if !isName(name) {
				return nil, fmt.Errorf("%q is not a variable: a name is a letter or _, then letters, digits or _ (write $${ for the text ${)", clip(s[i:i+end+1]))
			}
			ref(name)
			i += end + 1
		case isNameStart(next):
			end := i + 2
			for end < len(s) && isNameChar(s[end]) {
				end++
			}
			ref(s[i+1 : end])
			i = end
		default:
			lit.WriteByte('$')
			i++
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, Part{Text: lit.String()})
	}
	return parts, nil
}

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// clip shortens a text quoted in an error.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Escape writes a literal as a flow text that reads as it: a $ is doubled
// where it would start a reference or an escape (before $, { or a name's
// first letter), and only there, so that $100 stays as it is.
func Escape(literal string) string {
	if !strings.Contains(literal, "$") {
		return literal
	}
	var b strings.Builder
	b.Grow(len(literal) + 8)
	for i := 0; i < len(literal); i++ {
		c := literal[i]
		b.WriteByte(c)
		if c == '$' && i+1 < len(literal) && (literal[i+1] == '$' || literal[i+1] == '{' || isNameStart(literal[i+1])) {
			b.WriteByte('$')
		}
	}
	return b.String()
}

// UnsetError is a text's reading of environment variables that are not
// set. A variable set to the empty string is set.
type UnsetError struct{ Names []string }

func (e *UnsetError) Error() string {
	if len(e.Names) == 1 {
		return "the environment variable " + e.Names[0] + " is not set (the flow reads it; set it, to an empty value if need be)"
	}
	return "the environment variables " + strings.Join(e.Names, ", ") + " are not set (the flow reads them; set them, to empty values if need be)"
}

// Expand is a flow text with its references replaced by the variables'
// values (lookup, as os.LookupEnv); the values are taken as they are. A
// reference to an unset variable is an *UnsetError naming every such one.
func Expand(text string, lookup func(string) (string, bool)) (string, error) {
	parts, err := Parts(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var unset []string
	for _, p := range parts {
		if p.Row != "" {
			return "", fmt.Errorf("${row.%s} reads a data row, and the flow runs for none (give it data:)", p.Row)
		}
		if p.Literal() {
			b.WriteString(p.Text)
			continue
		}
		v, ok := lookup(p.Var)
		if !ok {
			unset = appendNew(unset, p.Var)
		}
		b.WriteString(v)
	}
	if len(unset) > 0 {
		return "", &UnsetError{Names: unset}
	}
	return b.String(), nil
}

func appendNew(names []string, n string) []string {
	for _, x := range names {
		if x == n {
			return names
		}
	}
	return append(names, n)
}

// MapTexts is a copy of a value as JSON or YAML decode it (maps, lists,
// scalars) with every text, at any depth, replaced by what f makes of it;
// f's first error (in the order of sorted keys) comes back under the name
// of the argument that holds it. Every walk over a step's texts is this
// one.
func MapTexts(v any, f func(string) (any, error)) (any, error) {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			e, err := MapTexts(x[k], f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = e
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = MapTexts(e, f); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return MapTexts(out, f)
	}
	return v, nil
}

// Vars lists the environment variables a flow's steps read, sorted.
func (f *Flow) Vars() ([]string, error) {
	seen := map[string]bool{}
	for i, st := range f.Steps {
		_, err := MapTexts(st.Args, func(s string) (any, error) {
			parts, err := Parts(s)
			for _, p := range parts {
				if p.Var != "" {
					seen[p.Var] = true
				}
			}
			return s, err
		})
		if err != nil {
			return nil, fmt.Errorf("step %d, %s: %w", i+1, st.Action, err)
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// CheckEnv says, before a flow starts, what keeps it from reading the
// environment (lookup, as os.LookupEnv): an *UnsetError naming every
// variable it reads that is not set, or a text that is not well written.
func (f *Flow) CheckEnv(lookup func(string) (string, bool)) error {
	names, err := f.Vars()
	if err != nil {
		return err
	}
	var unset []string
	for _, n := range names {
		if _, ok := lookup(n); !ok {
			unset = append(unset, n)
		}
	}
	if len(unset) > 0 {
		return &UnsetError{Names: unset}
	}
	return nil
}
