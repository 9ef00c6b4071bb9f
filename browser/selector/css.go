package selector

import "strings"

// The css part of a selector: selector lists, compounds and combinators, and
// the pseudo-classes the engine evaluates itself (:has-text, :text, :visible,
// :is, :where, :not, :has), parsed here so that a mistake gets its position.

// enginePseudos are the pseudo-classes the engine evaluates itself; any
// other pseudo-class is left to the browser's CSS.
var enginePseudos = map[string]bool{"has-text": true, "text": true, "text-is": true, "text-matches": true, "visible": true,
	"is": true, "where": true, "not": true, "has": true}

// selectorPseudos take a selector list as their argument.
var selectorPseudos = map[string]bool{"is": true, "where": true, "not": true, "has": true}

// parseCSS splits a css part into its selector list and compounds, and
// takes out the engine's pseudo-classes.
func parseCSS(sel, body string, pos int) ([][]Compound, error) {
	var alts [][]Compound
	var cur []Compound
	var buf strings.Builder
	var pseudos []Pseudo
	comb, combPos := "", 0
	flush := func(at int) error {
		css := strings.TrimSpace(buf.String())
		if css == "" && len(pseudos) == 0 {
			if comb != "" && comb != " " {
				return syntaxError(sel, at, "combinator %q with nothing after it", comb)
			}
			return nil
		}
		if css == "" {
			css = "*"
		}
		if len(cur) == 0 && comb != "" && comb != " " {
			return syntaxError(sel, combPos, "selector starts with combinator %q", comb)
		}
		if len(cur) == 0 {
			comb = ""
		}
		cur = append(cur, Compound{Comb: comb, CSS: css, Pseudos: pseudos})
		buf.Reset()
		pseudos, comb = nil, ""
		return nil
	}
	depth, openPos := 0, 0
	for i := 0; i < len(body); i++ {
		ch := body[i]
		switch {
		case ch == '\\' && i+1 < len(body):
			buf.WriteByte(ch)
			buf.WriteByte(body[i+1])
			i++
		case ch == '"' || ch == '\'':
			_, n, err := readQuoted(sel, body[i:], pos+i)
			if err != nil {
				return nil, err
			}
			buf.WriteString(body[i : i+n])
			i += n - 1
		case ch == '[' || ch == '(':
			if depth == 0 {
				openPos = pos + i
			}
			depth++
			buf.WriteByte(ch)
		case ch == ']' || ch == ')':
			if depth == 0 {
				return nil, syntaxError(sel, pos+i, "unexpected %q", ch)
			}
			depth--
			buf.WriteByte(ch)
		case depth > 0:
			buf.WriteByte(ch)
		case ch == ':' && i+1 < len(body) && body[i+1] != ':':
			name := attrNameRE.FindString(body[i+1:])
			if !enginePseudos[name] {
				buf.WriteByte(ch)
				continue
			}
			p, n, err := parsePseudo(sel, name, body[i:], pos+i)
			if err != nil {
				return nil, err
			}
			pseudos = append(pseudos, p)
			i += n - 1
		case ch == ',':
			if err := flush(pos + i); err != nil {
				return nil, err
			}
			if len(cur) == 0 {
				return nil, syntaxError(sel, pos+i, "empty selector before ','")
			}
			alts, cur = append(alts, cur), nil
		case ch == '>' || ch == '+' || ch == '~' || ch == ' ' || ch == '\t' || ch == '\n':
			if buf.Len() > 0 || len(pseudos) > 0 {
				if err := flush(pos + i); err != nil {
					return nil, err
				}
			}
			if ch != ' ' && ch != '\t' && ch != '\n' {
				if comb != "" && comb != " " {
					return nil, syntaxError(sel, pos+i, "two combinators in a row")
				}
				comb, combPos = string(ch), pos+i
			} else if comb == "" && len(cur) > 0 {
				comb = " "
			}
		default:
			buf.WriteByte(ch)
		}
	}
	if depth > 0 {
		return nil, syntaxError(sel, openPos, "unclosed bracket or parenthesis")
	}
	if err := flush(pos + len(body)); err != nil {
		return nil, err
	}
	if comb != "" && comb != " " {
		return nil, syntaxError(sel, pos+len(body), "combinator %q with nothing after it", comb)
	}
	if len(cur) == 0 {
		return nil, syntaxError(sel, pos+len(body), "empty css selector")
	}
	return append(alts, cur), nil
}

// parsePseudo reads :name or :name(arg) at the start of s.
func parsePseudo(sel, name, s string, pos int) (Pseudo, int, error) {
	n := 1 + len(name)
	if selectorPseudos[name] {
		return parseSelectorPseudo(sel, name, s, pos)
	}
	if name == "visible" {
		if n < len(s) && s[n] == '(' {
			return Pseudo{}, 0, syntaxError(sel, pos, ":visible takes no argument")
		}
		return Pseudo{Name: name}, n, nil
	}
	if n >= len(s) || s[n] != '(' {
		return Pseudo{}, 0, syntaxError(sel, pos, ":%s needs an argument, e.g. :%s(\"Sign up\")", name, name)
	}
	// Find the closing parenthesis, skipping quotes.
	end := -1
	for i := n + 1; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '"', '\'':
			_, k, err := readQuoted(sel, s[i:], pos+i)
			if err != nil {
				return Pseudo{}, 0, err
			}
			i += k - 1
		case ')':
			end = i
		}
	}
	if end < 0 {
		return Pseudo{}, 0, syntaxError(sel, pos+n, "missing ) after :%s(", name)
	}
	arg := strings.TrimSpace(s[n+1 : end])
	if arg == "" {
		return Pseudo{}, 0, syntaxError(sel, pos+n, ":%s() is empty", name)
	}
	var tm *TextMatch
	switch name {
	case "text-matches":
		// :text-matches("re", "flags") or :text-matches(/re/flags)
		if arg[0] == '/' {
			var err error
			if tm, err = parseRegex(sel, arg, pos+n+1); err != nil {
				return Pseudo{}, 0, err
			}
			break
		}
		re, k, err := readQuotedOrBare(sel, arg, pos+n+1)
		if err != nil {
			return Pseudo{}, 0, err
		}
		flags := ""
		if rest := strings.TrimSpace(arg[k:]); rest != "" {
			rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
			if flags, _, err = readQuotedOrBare(sel, rest, pos+n+1+k); err != nil {
				return Pseudo{}, 0, err
			}
		}
		if !regexFlagsRE.MatchString(flags) {
			return Pseudo{}, 0, syntaxError(sel, pos+n, "bad regular expression flags %q", flags)
		}
		tm = &TextMatch{Mode: "regex", Value: re, Flags: flags}
	default:
		v, k, err := readQuotedOrBare(sel, arg, pos+n+1)
		if err != nil {
			return Pseudo{}, 0, err
		}
		if k != len(arg) {
			return Pseudo{}, 0, syntaxError(sel, pos+n+1+k, "unexpected %q in :%s()", arg[k:], name)
		}
		mode := "lax"
		if name == "text-is" {
			mode = "exact"
		}
		tm = &TextMatch{Mode: mode, Value: v}
	}
	return Pseudo{Name: name, Text: tm}, end + 1, nil
}

// parseSelectorPseudo reads :is(list), :where(list), :not(list) or
// :has(relative list) at the start of s.
func parseSelectorPseudo(sel, name, s string, pos int) (Pseudo, int, error) {
	n := 1 + len(name)
	if n >= len(s) || s[n] != '(' {
		return Pseudo{}, 0, syntaxError(sel, pos, ":%s needs a selector in parentheses", name)
	}
	depth, end := 0, -1
	for i := n; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '\\':
			i++
		case '"', '\'':
			_, k, err := readQuoted(sel, s[i:], pos+i)
			if err != nil {
				return Pseudo{}, 0, err
			}
			i += k - 1
		case '(', '[':
			depth++
		case ')', ']':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return Pseudo{}, 0, syntaxError(sel, pos+n, "missing ) after :%s(", name)
	}
	arg, argPos := s[n+1:end], pos+n+1
	lead := len(arg) - len(strings.TrimLeft(arg, " \t\n"))
	arg, argPos = strings.TrimSpace(arg), argPos+lead
	if arg == "" {
		return Pseudo{}, 0, syntaxError(sel, pos+n, ":%s() is empty", name)
	}
	p := Pseudo{Name: name}
	if name != "has" {
		list, err := parseCSS(sel, arg, argPos)
		if err != nil {
			return Pseudo{}, 0, err
		}
		p.Sel = list
		return p, end + 1, nil
	}
	// A relative selector list: each part may start with a combinator.
	for _, part := range splitTopLevel(arg) {
		text := strings.TrimSpace(arg[part[0]:part[1]])
		at := argPos + part[0] + len(arg[part[0]:part[1]]) - len(strings.TrimLeft(arg[part[0]:part[1]], " \t\n"))
		if text == "" {
			return Pseudo{}, 0, syntaxError(sel, at, "empty selector in :has()")
		}
		rel := ""
		if strings.ContainsRune(">+~", rune(text[0])) {
			rel = text[:1]
			rest := strings.TrimLeft(text[1:], " \t\n")
			at += len(text) - len(rest)
			text = rest
		}
		list, err := parseCSS(sel, text, at)
		if err != nil {
			return Pseudo{}, 0, err
		}
		if len(list) != 1 {
			return Pseudo{}, 0, syntaxError(sel, at, "unexpected ',' in :has()")
		}
		list[0][0].Comb = rel
		p.Sel = append(p.Sel, list[0])
	}
	return p, end + 1, nil
}

// splitTopLevel returns the [start, end) spans of s between commas that
// are outside quotes, brackets and parentheses.
func splitTopLevel(s string) [][2]int {
	var out [][2]int
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\\':
			i++
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(' || ch == '[':
			depth++
		case ch == ')' || ch == ']':
			depth--
		case ch == ',' && depth == 0:
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return append(out, [2]int{start, len(s)})
}

func readQuotedOrBare(sel, s string, pos int) (string, int, error) {
	if s == "" {
		return "", 0, nil // :text-matches(,) has no flags after its comma
	}
	if s[0] == '"' || s[0] == '\'' {
		return readQuoted(sel, s, pos)
	}
	i := strings.IndexByte(s, ',')
	if i < 0 {
		return s, len(s), nil
	}
	return strings.TrimSpace(s[:i]), i, nil
}
