package redact

import (
	"regexp"
	"strings"
)

// The one way a URL or a command line the server was given (an endpoint, a
// grid, a dev-server command, a JWKS URL) is shown in a message, a log, an
// answer, /health or browser_get_config. Masking such a text by value (a
// [Set]) is not enough: a browser service's API key in a query was never
// marked as a secret. These functions mask by position instead, and keep
// what tells the operator which one it was: the scheme, the host, the
// port, the path and the names of the query's parameters.

// schemeRE finds where a URL starts in a text: a scheme and "://";
// startsURL says a text starts with one.
var (
	schemeRE  = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://`)
	startsURL = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
)

// userinfoRE is a URL's user and password (after its "://"); portRE
// says that what it took for a password is a port and a path after it
// (https://host:8080/@someone).
var (
	userinfoRE = regexp.MustCompile(`^([^/@:\s?#]*):([^@\s]*)@`)
	portRE     = regexp.MustCompile(`^\d*([/?#]|$)`)
)

// bareUserinfoRE is user:password@ without a scheme before it (a URL
// given without one, as a mistaken setting may be).
var bareUserinfoRE = regexp.MustCompile(`([A-Za-z0-9._~%+-]+):[^\s@"'<>]+@([A-Za-z0-9\[])`)

// assignRE is a KEY=VALUE word of a command line (an environment
// assignment, or a flag's --name=value), with what quotes it.
var assignRE = regexp.MustCompile(`^([("'` + "`" + `]*)(-{0,2}[A-Za-z_][A-Za-z0-9_.-]*)=(.*)$`)

// URL is raw as a message may show it: its userinfo (a password, or a user
// name alone, which services take as the key), every query value (the
// parameters' names stay) and its fragment masked, so that
// wss://acct:KEY@host:443/chromium?token=T&region=eu#x is shown as
// wss://•••@host:443/chromium?token=•••&region=•••#•••. A text that
// holds URLs among other words (a list of them, an error that quotes one)
// has each masked; [CommandLine] also masks a command's secret arguments.
func URL(raw string) string {
	var b strings.Builder
	for {
		loc := schemeRE.FindStringIndex(raw)
		if loc == nil {
			b.WriteString(bareUserinfoRE.ReplaceAllString(raw, Mask+"@${2}"))
			return b.String()
		}
		var opener byte
		if loc[0] > 0 {
			opener = raw[loc[0]-1]
		}
		b.WriteString(bareUserinfoRE.ReplaceAllString(raw[:loc[0]], Mask+"@${2}"))
		end := urlEnd(raw, loc[1], opener)
		b.WriteString(maskURL(raw[loc[0]:end], loc[1]-loc[0]))
		raw = raw[end:]
	}
}

// urlEnd is where a URL that starts before from ends in s: at a space, at
// a comma that starts another URL (a list of them), and when a quote opens
// it (an error that quotes it, a JSON string) at that quote or a backslash
// (an escaped one). Elsewhere a quote is part of it: a query may hold JSON.
func urlEnd(s string, from int, opener byte) int {
	closer := byte(0)
	switch opener {
	case '"', '\'', '`':
		closer = opener
	case '<':
		closer = '>'
	}
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ', c == 0x7f, closer != 0 && (c == closer || c == '\\'):
			return i
		case c == ',' && startsURL.MatchString(s[i+1:]):
			return i
		}
	}
	return len(s)
}

// maskURL masks one URL; its authority starts at from (after "://").
func maskURL(u string, from int) string {
	rest := u[from:]
	authEnd := strings.IndexAny(rest, "/?#")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	auth, tail := rest[:authEnd], rest[authEnd:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = Mask + auth[at:]
	} else if m := userinfoRE.FindStringSubmatch(rest); m != nil && !portRE.MatchString(m[2]) {
		// A password its writer did not percent-encode may hold what
		// ends an authority (a /, a ?, a #): it ends at its @ all the same.
		rest = rest[len(m[0]):]
		authEnd = strings.IndexAny(rest, "/?#")
		if authEnd < 0 {
			authEnd = len(rest)
		}
		auth, tail = Mask+"@"+rest[:authEnd], rest[authEnd:]
	}
	path, frag, hasFrag := strings.Cut(tail, "#")
	path, query, hasQuery := strings.Cut(path, "?")
	var b strings.Builder
	b.WriteString(u[:from])
	b.WriteString(auth)
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		for i, p := range strings.Split(query, "&") {
			if i > 0 {
				b.WriteByte('&')
			}
			name, value, ok := strings.Cut(p, "=")
			switch {
			case ok && value == "":
				b.WriteString(name + "=")
			case ok:
				b.WriteString(name + "=" + Mask)
			case p != "":
				b.WriteString(Mask) // a bare value: it may be the key itself
			}
		}
	}
	if hasFrag {
		b.WriteByte('#')
		if frag != "" {
			b.WriteString(Mask)
		}
	}
	return b.String()
}

// CommandLine is a command line (or any text: an error, a list of URLs) as
// a message may show it: every URL in it masked as [URL] does, the values
// of KEY=VALUE assignments whose name says secret ([IsSecretEnv]:
// DB_PASSWORD=•••, not SESSION_COOKIE_DOMAIN=localhost) and of
// --name=value flags whose name looks secret ([IsSecretKey]:
// --api-key=•••), and the word after such a
// flag given alone (--token •••). What is not secret stays as it was, the
// spaces between the words too.
func CommandLine(s string) string {
	var b strings.Builder
	maskNext := false
	for len(s) > 0 {
		i := strings.IndexFunc(s, isSpace)
		if i == 0 {
			j := strings.IndexFunc(s, func(r rune) bool { return !isSpace(r) })
			if j < 0 {
				j = len(s)
			}
			b.WriteString(s[:j])
			s = s[j:]
			continue
		}
		if i < 0 {
			i = len(s)
		}
		word := s[:i]
		s = s[i:]
		if maskNext && !strings.HasPrefix(word, "-") {
			maskNext = false
			b.WriteString(Mask)
			continue
		}
		maskNext = false
		b.WriteString(maskWord(word, &maskNext))
	}
	return b.String()
}

// CommandArgs are a command's arguments, one word each, as [CommandLine]
// shows them: a secret flag's value masked when it is the next argument
// (--token, T) as when it is joined (--token=T).
func CommandArgs(args []string) []string {
	out := make([]string, len(args))
	maskNext := false
	for i, a := range args {
		if maskNext && !strings.HasPrefix(a, "-") {
			out[i], maskNext = Mask, false
			continue
		}
		maskNext = false
		if strings.ContainsFunc(a, isSpace) {
			out[i] = CommandLine(a) // a word of words: sh -c "..."
			continue
		}
		out[i] = maskWord(a, &maskNext)
	}
	return out
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// maskWord masks one word of a command line; next is set when the word is
// a secret flag whose value is the next word.
func maskWord(w string, next *bool) string {
	if m := assignRE.FindStringSubmatch(w); m != nil {
		quote, name, value := m[1], m[2], m[3]
		// A --flag=value by the flag's name; an environment assignment by
		// IsSecretEnv's rule (SESSION_COOKIE_DOMAIN=localhost is none).
		secret := IsSecretEnv(name)
		if strings.HasPrefix(name, "-") {
			secret = IsSecretKey(strings.TrimLeft(name, "-"))
		}
		if secret {
			closing := ""
			if quote != "" && strings.HasSuffix(value, quote[len(quote)-1:]) {
				closing = quote[len(quote)-1:]
			}
			return quote + name + "=" + Mask + closing
		}
		return quote + name + "=" + URL(value)
	}
	if bare := strings.TrimLeft(w, "(\"'`"); strings.HasPrefix(bare, "-") && IsSecretKey(strings.TrimLeft(bare, "-")) {
		*next = true
		return w
	}
	return URL(w)
}

// Err is err with its message shown as [CommandLine] shows a text: an
// error that quotes the URL it dialled (query and all) says which one
// without its credentials. errors.Is and errors.As still see err.
func Err(err error) error {
	if err == nil {
		return nil
	}
	return &maskedError{err}
}

type maskedError struct{ err error }

func (e *maskedError) Error() string { return CommandLine(e.err.Error()) }
func (e *maskedError) Unwrap() error { return e.err }
