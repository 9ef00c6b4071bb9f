package selector

// The patterns an agent writes besides selectors: snapshot refs (the
// other form of a target), URL patterns (a glob or a /regex/flags:
// browser_wait_for's url, browser_route's pattern) and regular expression
// arguments (browser_find's regex, browser_expect's expected /regex/).

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// refRE is a snapshot ref: e5, or f1e3 (element 3 of the page's frame 1).
var refRE = regexp.MustCompile(`^(?:f(\d+))?e(\d+)$`)

// IsRef reports whether target is a snapshot ref (e5, f1e3) rather than a
// selector.
func IsRef(target string) bool { return refRE.MatchString(target) }

// A Ref is a snapshot ref read into its numbers.
type Ref struct {
	// InFrame says the ref names a frame (f1e3), Frame its number; a ref
	// of the page's main frame (e5) names none.
	InFrame bool
	Frame   int
	// Elem is the number of its element (f1e3: 3).
	Elem int
}

// ParseRef reads a snapshot ref; ok is false when s is not one. A number
// too large for an int reads as the largest int.
func ParseRef(s string) (r Ref, ok bool) {
	m := refRE.FindStringSubmatch(s)
	if m == nil {
		return r, false
	}
	if m[1] != "" {
		r.InFrame = true
		r.Frame, _ = strconv.Atoi(m[1])
	}
	r.Elem, _ = strconv.Atoi(m[2])
	return r, true
}

// regexLiteralRE is /source/flags as a page's RegExp takes it: a source,
// and flags of JavaScript's that change what a match is (d, i, m, s, u, v).
var regexLiteralRE = regexp.MustCompile(`^/(.+)/([dimsuv]*)$`)

// RegexLiteral splits s written as /source/flags, a non-empty source and
// the flags d, i, m, s, u and v, into its source and flags; ok is false
// when s is not written so. A URL pattern's /regex/ (ParseURLPattern) and
// browser_expect's expected /regex/ are read with it.
func RegexLiteral(s string) (source, flags string, ok bool) {
	m := regexLiteralRE.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// regexArgRE is a tool's regex argument written /pattern/flags: any
// lowercase letters as flags, so that RegexArg refuses a wrong one by name
// rather than reading the argument whole.
var regexArgRE = regexp.MustCompile(`^/(.*)/([a-z]*)$`)

// IsRegexArg says whether s is written /pattern/flags, as [RegexArg]
// reads it (and an answer shows it back as given).
func IsRegexArg(s string) bool { return regexArgRE.MatchString(s) }

// RegexArg reads a tool's regular expression argument as Playwright MCP
// does: "/pattern/flags" is the pattern with its flags (i, m and s as in
// JavaScript; g, u and d change nothing a match reports), anything else
// the pattern whole. The syntax is Go's (RE2). A flag it does not take or
// a pattern that does not compile is an invalid_input [*refusal.Error].
func RegexArg(s string) (*regexp.Regexp, error) {
	src := s
	if m := regexArgRE.FindStringSubmatch(s); m != nil {
		src = m[1]
		var inline string
		for _, f := range m[2] {
			switch f {
			case 'i', 'm', 's':
				if !strings.ContainsRune(inline, f) {
					inline += string(f)
				}
			case 'g', 'u', 'd':
			default:
				return nil, refusal.Invalid("use the flags i, m, s (g, u, d are taken and change nothing)", "regex %q: flag %q", s, string(f))
			}
		}
		if inline != "" {
			src = "(?" + inline + ")" + src
		}
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, refusal.Invalid("write the regular expression in Go's syntax (RE2: no lookaround or backreferences)", "regex %q: %v", s, err)
	}
	return re, nil
}

// A URLPattern is a URL pattern an agent writes (browser_wait_for's url,
// browser_route's pattern) as the regular expression it is matched with.
type URLPattern struct {
	// Source is the regular expression: a /regex/'s source, or a glob's
	// translation (GlobSource), which means the same in RE2 and JavaScript.
	Source string
	// Flags are a /regex/'s flags; a glob has none.
	Flags string
	// Glob says the pattern was a glob, not a /regex/flags.
	Glob bool
	// Rel says Source matches the URL's path?query#fragment, not the whole
	// URL: a glob that starts with '/'.
	Rel bool
}

// ParseURLPattern reads a /regex/flags (as [RegexLiteral]) or a glob (as
// [GlobSource], whose refusal it returns).
func ParseURLPattern(s string) (URLPattern, error) {
	// "/users/" could be either: it is a regular expression, unless it has
	// the glob's "**" or "/*" (which a regular expression seldom has).
	if src, flags, ok := RegexLiteral(s); ok && !strings.Contains(s, "**") && !strings.Contains(s, "/*") {
		return URLPattern{Source: src, Flags: flags}, nil
	}
	src, err := GlobSource(s)
	if err != nil {
		return URLPattern{}, err
	}
	return URLPattern{Source: src, Glob: true, Rel: strings.HasPrefix(s, "/")}, nil
}

// GlobSource is a URL glob as the regular expression (RE2 and JavaScript
// alike) it is matched with, the whole string, read as Playwright reads a
// URL glob:
//   - * is any characters but '/', and two or more stars any characters;
//     "**/" after a '/' is any number of whole path segments, none
//     included ("/**/a.js" matches "/a.js");
//   - {a,b} is either of the alternatives (not nested);
//   - \c is c itself (\* a star, \{ a brace);
//   - the rest, '?' included, is itself.
//
// An unmatched or nested brace is refused.
func GlobSource(g string) (string, error) {
	var b strings.Builder
	b.WriteByte('^')
	group := false
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '\\' && i+1 < len(g):
			i++
			globLiteral(&b, g[i])
		case c == '*':
			stars := 1
			for i+1 < len(g) && g[i+1] == '*' {
				stars++
				i++
			}
			switch {
			case stars == 1:
				b.WriteString("[^/]*")
			case i+1 < len(g) && g[i+1] == '/':
				i++
				if i-stars > 0 && g[i-stars-1] == '/' {
					b.WriteString(`(?:.+\/)?`) // whole segments, or none
				} else {
					b.WriteString(`.*\/`)
				}
			default:
				b.WriteString(".*")
			}
		case c == '{':
			if group {
				return "", globRefusal(g, "a '{' inside {...}: alternatives do not nest")
			}
			group = true
			b.WriteString("(?:")
		case c == '}':
			if !group {
				return "", globRefusal(g, "a '}' with no '{' before it")
			}
			group = false
			b.WriteByte(')')
		case c == ',' && group:
			b.WriteByte('|')
		default:
			globLiteral(&b, c)
		}
	}
	if group {
		return "", globRefusal(g, "a '{' with no '}' after it")
	}
	b.WriteByte('$')
	return b.String(), nil
}

// globLiteral writes c as a regular expression that matches c alone.
func globLiteral(b *strings.Builder, c byte) {
	if strings.IndexByte(`\^$.|?+*()[]{}/`, c) >= 0 {
		b.WriteByte('\\')
	}
	b.WriteByte(c)
}

func globRefusal(g, what string) error {
	return refusal.Invalid(`write {a,b} for either of a and b, and \{ or \} for a brace itself`, "URL glob %q: %s", g, what)
}
