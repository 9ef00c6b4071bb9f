package playwright

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// frameTagRE is a CSS compound on an iframe (or frame) element.
var frameTagRE = regexp.MustCompile(`^(?i:i?frame)([\[#.:]|$)`)

// Locator writes a selector of a flow (the engine's grammar, after
// Playwright's) as a Playwright locator on page: role parts become
// getByRole, label= getByLabel, test ids getByTestId, text= getByText,
// placeholder=, alt= and title= their getBy methods, nth= nth(), and CSS,
// XPath and the attribute engines page.locator() of the part as written
// (Playwright reads those as we do). A part on an iframe followed by more
// goes on in its content frame (after the nth= and visible= parts that
// pick one iframe), as the engine goes on in the frame's document:
// `iframe[title="Pay"] >> role=button` is
// page.locator('iframe[title="Pay"]').contentFrame().getByRole('button').
func Locator(sel, testIDAttr string) (string, error) {
	// browser's ParseSelector, not selector.Parse: a bad selector is the
	// engine's invalid_input error, as the tools would refuse it.
	s, err := browser.ParseSelector(sel, testIDAttr)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("page")
	onFrame := false
	for i, p := range s.Parts {
		picks := p.Engine == "nth" || p.Engine == "visible"
		if onFrame && !picks {
			b.WriteString(".contentFrame()")
			onFrame = false
		}
		b.WriteString(partCall(p, i == 0, testIDAttr))
		if !picks {
			onFrame = framePart(p)
		}
	}
	return b.String(), nil
}

// framePart reports whether a part finds iframes: a CSS part whose every
// alternative ends on an iframe (or frame) compound, an XPath that names
// one.
func framePart(p selector.Part) bool {
	switch p.Engine {
	case "css":
		if len(p.CSS) == 0 {
			return false
		}
		for _, alt := range p.CSS {
			if len(alt) == 0 || !frameTagRE.MatchString(alt[len(alt)-1].CSS) {
				return false
			}
		}
		return true
	case "xpath":
		return strings.Contains(p.XPath, "frame")
	}
	return false
}

// partCall is one part of the chain as a method call.
func partCall(p selector.Part, first bool, testIDAttr string) string {
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
func textArg(t *selector.TextMatch) string {
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
func roleCall(p selector.Part) (string, bool) {
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
func nameOpt(a selector.RoleAttr) (string, bool) {
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
