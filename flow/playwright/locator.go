package playwright

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
)

// frameCSSRE is a CSS part whose last compound is an iframe (or frame):
// the next part of the chain goes on inside its document.
var frameCSSRE = regexp.MustCompile(`(^|[\s>+~,])i?frame\b[^\s>+~,]*$`)

// Locator writes a selector of a flow (the engine's grammar, after
// Playwright's) as a Playwright locator on page: role parts become
// getByRole, label= getByLabel, test ids getByTestId, text= getByText,
// placeholder=, alt= and title= their getBy methods, nth= nth(), and CSS,
// XPath and the attribute engines page.locator() of the part as written
// (Playwright reads those as we do). A part on an iframe followed by more
// goes on in its content frame.
func Locator(sel, testIDAttr string) (string, error) {
	s, err := browser.ParseSelector(sel, testIDAttr)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("page")
	for i, p := range s.Parts {
		b.WriteString(partCall(p, i == 0, testIDAttr))
		if i+1 < len(s.Parts) && (p.Engine == "css" && frameCSSRE.MatchString(p.Src) || p.Engine == "xpath" && strings.Contains(p.Src, "frame")) {
			b.WriteString(".contentFrame()")
		}
	}
	return b.String(), nil
}

// partCall is one part of the chain as a method call.
func partCall(p browser.Part, first bool, testIDAttr string) string {
	raw := ".locator(" + Quote(p.Src) + ")"
	switch p.Engine {
	case "text", "label", "placeholder", "alt", "title":
		method := map[string]string{"text": "getByText", "label": "getByLabel", "placeholder": "getByPlaceholder",
			"alt": "getByAltText", "title": "getByTitle"}[p.Engine]
		return "." + method + "(" + textArg(p.Text) + ")"
	case "role":
		if call, ok := roleCall(p); ok {
			return call
		}
	case "attr":
		if p.Attr == testIDAttr || (testIDAttr == "" && p.Attr == "data-testid") {
			return ".getByTestId(" + Quote(p.Value) + ")"
		}
	case "nth":
		if first {
			break
		}
		switch p.N {
		case 0:
			return ".first()"
		case -1:
			return ".last()"
		}
		return fmt.Sprintf(".nth(%d)", p.N)
	case "visible":
		if !first {
			return fmt.Sprintf(".filter({ visible: %t })", p.Visible)
		}
	}
	return raw
}

// textArg is a text matcher as getByText's arguments.
func textArg(t *browser.TextMatch) string {
	switch t.Mode {
	case "exact":
		return Quote(t.Value) + ", { exact: true }"
	case "iexact":
		return Regex("^"+regexp.QuoteMeta(t.Value)+"$", "i")
	case "regex":
		return Regex(t.Value, t.Flags)
	}
	return Quote(t.Value)
}

// roleCall is a role part as getByRole, when its options can say it all.
func roleCall(p browser.Part) (string, bool) {
	var opts []string
	for _, a := range p.Attrs {
		switch a.Name {
		case "name":
			v, ok := nameOpt(a)
			if !ok {
				return "", false
			}
			opts = append(opts, v)
		case "checked", "pressed", "selected", "expanded", "disabled":
			b, ok := a.Value.(bool)
			if !ok {
				return "", false // "mixed": no option says it
			}
			opts = append(opts, fmt.Sprintf("%s: %t", a.Name, b))
		case "level":
			n, ok := a.Value.(int)
			if !ok {
				return "", false
			}
			opts = append(opts, "level: "+strconv.Itoa(n))
		case "include-hidden":
			b, ok := a.Value.(bool)
			if !ok {
				return "", false
			}
			opts = append(opts, fmt.Sprintf("includeHidden: %t", b))
		default:
			return "", false
		}
	}
	call := ".getByRole(" + Quote(p.Role)
	if len(opts) > 0 {
		call += ", { " + strings.Join(opts, ", ") + " }"
	}
	return call + ")", true
}

// nameOpt is a role's [name...] filter as getByRole's name option: an
// exact name as the name with exact: true, the other forms as a regular
// expression that matches the same names.
func nameOpt(a browser.RoleAttr) (string, bool) {
	t := a.Text
	if t == nil {
		return "", false
	}
	if t.Mode == "regex" {
		return "name: " + Regex(t.Value, t.Flags), true
	}
	if a.Op == "=" && t.Mode == "exact" {
		return "name: " + Quote(t.Value) + ", exact: true", true
	}
	q := regexp.QuoteMeta(t.Value)
	var src string
	switch a.Op {
	case "=":
		src = "^" + q + "$"
	case "*=":
		src = q
	case "^=":
		src = "^" + q
	case "$=":
		src = q + "$"
	case "~=":
		src = `(^|\s)` + q + `(\s|$)`
	case "|=":
		src = "^" + q + "(-|$)"
	default:
		return "", false
	}
	flags := ""
	if t.Mode == "iexact" {
		flags = "i"
	}
	return "name: " + Regex(src, flags), true
}
