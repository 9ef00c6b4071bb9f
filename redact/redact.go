package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Mask is what a secret is shown as.
const Mask = "•••"

// MinLen is the shortest value masked inside a text: a shorter one would
// mask ordinary letters. Shorter secrets are still masked where they are
// known to stand (an argument, a field, a header).
const MinLen = 3

// WordLen is the shortest value masked wherever it occurs, inside other
// words too. A shorter one (a password that is a word: "short", "admin",
// "Password1") is masked only as a whole word: the heading "Keyboard
// shortcuts" is not a password "short", nor the path /shortcuts.
const WordLen = 12

// maxValues bounds the values a set keeps of its own; the oldest go
// first. A session that marks more secrets than this is not a session we
// can protect by value, and the bound keeps masking linear in what it
// masks. Each set has its own bound: one scope's values never push out
// another's.
const maxValues = 256

// secretKey matches the names of arguments and fields whose values are
// secrets, at any depth: passwords, tokens, keys, credentials.
var secretKey = regexp.MustCompile(`(?i)(pass(word|wd|phrase)?$|secret|token|api[_-]?key|authorization|cookie|credential|private[_-]?key)`)

// secretHeaders are the request and response headers that carry
// credentials.
var secretHeaders = map[string]bool{
	"authorization": true, "proxy-authorization": true, "cookie": true, "set-cookie": true,
	"x-api-key": true, "x-auth-token": true, "x-csrf-token": true, "x-xsrf-token": true,
}

// IsSecretKey says whether an argument or field of this name holds a
// secret.
func IsSecretKey(name string) bool { return secretKey.MatchString(name) }

// IsSecretHeader says whether a header of this name carries a credential.
func IsSecretHeader(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return secretHeaders[n] || secretKey.MatchString(n)
}

// HeaderLine splits a 'Name: value' line and says whether its value is a
// secret.
func HeaderLine(line string) (name, value string, secret bool) {
	name, value, ok := strings.Cut(line, ":")
	if !ok {
		return "", "", false
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	return name, value, value != "" && IsSecretHeader(name)
}

// CredentialParts are the values to mark for a credential header's value:
// the value, and for "Scheme credentials" (Bearer, Basic...) the
// credentials alone, which a page or a log may show without the scheme.
func CredentialParts(value string) []string {
	out := []string{value}
	if _, cred, ok := strings.Cut(value, " "); ok && strings.TrimSpace(cred) != "" {
		out = append(out, strings.TrimSpace(cred))
	}
	return out
}

// Set is the secrets of one scope: a session, or the server. It masks
// its own values and its parent's. The server's log masks every set's
// values ([Process]). Safe for concurrent use; the zero value is not
// usable: see [NewSet].
type Set struct {
	parent *Set
	mu     sync.RWMutex
	vals   []string // longest first, so a secret inside another is masked as part of it
	order  []string // in the order added, for the bound
	// encoded are the values as they appear encoded where they differ
	// from the values: inside JSON strings (a quote, a backslash, a
	// control), and URL-encoded in a form body or a query string (a
	// space, a !), as a page sends a password it was given; of is the
	// value each stands for.
	encoded []string
	of      map[string]string
	// members are, for Process only, the sets that hold values.
	members map[*Set]struct{}
}

// NewSet returns an empty set whose masking includes parent's values
// (parent may be nil).
func NewSet(parent *Set) *Set { return &Set{parent: parent} }

// Process masks the server's own log: every value of every set that holds
// one and is not closed (never an answer, which must not tell one client
// another's secret, not even by masking it).
var Process = &Set{members: map[*Set]struct{}{}}

// Add marks values as secrets (empty ones are ignored).
func (s *Set) Add(values ...string) {
	if s == nil {
		return
	}
	if s.add(values) && s != Process {
		Process.mu.Lock()
		Process.members[s] = struct{}{}
		Process.mu.Unlock()
	}
}

// Close forgets the set's values: its scope (a session) has ended. The
// server's log no longer masks them.
func (s *Set) Close() {
	if s == nil || s == Process {
		return
	}
	Process.mu.Lock()
	delete(Process.members, s)
	Process.mu.Unlock()
	s.mu.Lock()
	s.vals, s.order, s.encoded, s.of = nil, nil, nil, nil
	s.mu.Unlock()
}

func (s *Set) add(values []string) (changed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if v == "" || contains(s.order, v) {
			continue
		}
		s.order = append(s.order, v)
		changed = true
	}
	if !changed {
		return len(s.order) > 0
	}
	if len(s.order) > maxValues {
		s.order = s.order[len(s.order)-maxValues:]
	}
	s.vals = append(s.vals[:0], s.order...)
	sort.SliceStable(s.vals, func(i, j int) bool { return len(s.vals[i]) > len(s.vals[j]) })
	s.encoded, s.of = s.encoded[:0], map[string]string{}
	for _, v := range s.vals {
		if len(v) < MinLen {
			continue // masked only where it stands, never inside text
		}
		for _, e := range []string{jsonInner(v), urlEncoded(v, formSafe, "+"), urlEncoded(v, componentSafe, "%20"), urlEncoded(v, unreserved, "%20")} {
			if _, seen := s.of[e]; e != v && !seen {
				s.encoded = append(s.encoded, e)
				s.of[e] = v
			}
		}
	}
	return true
}

// scopes are the sets whose values s masks: s and its parents, or for
// Process itself and every member.
func (s *Set) scopes() []*Set {
	if s == Process {
		Process.mu.RLock()
		out := make([]*Set, 0, len(Process.members)+1)
		out = append(out, Process) // what was marked for the process alone
		for m := range Process.members {
			out = append(out, m)
		}
		Process.mu.RUnlock()
		return out
	}
	var out []*Set
	for ; s != nil; s = s.parent {
		out = append(out, s)
	}
	return out
}

// pattern is a text to mask: a value or one of its encoded forms, and the
// value it stands for (whose length decides how it is matched).
type pattern struct{ text, value string }

// patterns are the texts s masks inside other text, longest first.
func (s *Set) patterns(keep []string) []pattern {
	var out []pattern
	for _, sc := range s.scopes() {
		sc.mu.RLock()
		for _, v := range sc.vals {
			if len(v) >= MinLen && !contains(keep, v) {
				out = append(out, pattern{v, v})
			}
		}
		for _, e := range sc.encoded {
			if v := sc.of[e]; len(e) >= MinLen && !contains(keep, v) {
				out = append(out, pattern{e, v})
			}
		}
		sc.mu.RUnlock()
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].text) > len(out[j].text) })
	return out
}

// The bytes each URL encoding leaves as they are, besides letters and
// digits: an HTML form's (application/x-www-form-urlencoded, as
// URLSearchParams writes it), encodeURIComponent's, and RFC 3986's
// unreserved characters (what strict encoders keep).
const (
	formSafe      = "*-._"
	componentSafe = "-_.!~*'()"
	unreserved    = "-_.~"
)

// urlEncoded is v percent-encoded (upper-case hex, as browsers write it),
// keeping letters, digits and the bytes of safe, a space written as space.
func urlEncoded(v, safe, space string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteString(space)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Has says whether v is one of the set's values (its parent's included).
func (s *Set) Has(v string) bool {
	for _, sc := range s.scopes() {
		sc.mu.RLock()
		ok := contains(sc.order, v)
		sc.mu.RUnlock()
		if ok {
			return true
		}
	}
	return false
}

// Values are the set's own values and its parent's, longest first.
func (s *Set) Values() []string {
	var out []string
	for _, sc := range s.scopes() {
		sc.mu.RLock()
		out = append(out, sc.vals...)
		sc.mu.RUnlock()
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// String is in with every secret of the set masked, as it is and
// encoded (in a JSON string, URL-encoded): a value of [WordLen] or more
// wherever it occurs, a shorter one where it is a whole word ([Find]).
func (s *Set) String(in string) string {
	return s.Except(in, nil)
}

// Except is like String but leaves the values in keep as they are, and
// their encoded forms: an answer that shows a value the caller asked to
// read.
func (s *Set) Except(in string, keep []string) string {
	if s == nil || in == "" {
		return in
	}
	for _, p := range s.patterns(keep) {
		if strings.Contains(in, p.text) {
			in = replace(in, p.text, len(p.value) < WordLen)
		}
	}
	return in
}

// Find is where v occurs in text as a secret of its length is masked:
// every occurrence for a value of [WordLen] bytes or more, else each
// that is a whole word (no letter, digit or underscore joined to it on
// either side; an escape such as %22, \n or \u0022 before it counts as
// a separation, as the text around a JSON or URL-encoded value has
// one). Values under [MinLen] are found nowhere.
func Find(text, v string) [][2]int {
	return find(text, v, len(v) < WordLen)
}

func find(text, v string, word bool) [][2]int {
	if len(v) < MinLen && word {
		return nil
	}
	var out [][2]int
	for from := 0; from <= len(text)-len(v); {
		i := strings.Index(text[from:], v)
		if i < 0 {
			break
		}
		at := from + i
		if !word || (wordStart(text, at, v) && wordEnd(text, at+len(v), v)) {
			out = append(out, [2]int{at, at + len(v)})
			from = at + len(v)
			continue
		}
		from = at + 1
	}
	return out
}

// replace masks the occurrences of v in text (whole words only, when word).
func replace(text, v string, word bool) string {
	if !word {
		return strings.ReplaceAll(text, v, Mask)
	}
	at := find(text, v, true)
	if len(at) == 0 {
		return text
	}
	var b strings.Builder
	prev := 0
	for _, r := range at {
		b.WriteString(text[prev:r[0]])
		b.WriteString(Mask)
		prev = r[1]
	}
	b.WriteString(text[prev:])
	return b.String()
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordStart says whether v at text[at:] starts a word: v does not start
// with a word character, or what comes before is none (or ends an escape).
func wordStart(text string, at int, v string) bool {
	first, _ := utf8.DecodeRuneInString(v)
	if at == 0 || !isWord(first) {
		return true
	}
	before, _ := utf8.DecodeLastRuneInString(text[:at])
	return !isWord(before) || endsEscape(text[:at])
}

// wordEnd says whether v ending at text[end:] ends a word.
func wordEnd(text string, end int, v string) bool {
	last, _ := utf8.DecodeLastRuneInString(v)
	if end >= len(text) || !isWord(last) {
		return true
	}
	after, _ := utf8.DecodeRuneInString(text[end:])
	return !isWord(after)
}

// endsEscape says whether s ends with an escape that stands for a
// character: %XX (URL), \n \t \r \b \f or \uXXXX (JSON).
func endsEscape(s string) bool {
	n := len(s)
	hex := func(from int) bool {
		for i := from; i < n; i++ {
			c := s[i]
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
				return false
			}
		}
		return true
	}
	switch {
	case n >= 3 && s[n-3] == '%' && hex(n-2):
		return true
	case n >= 2 && s[n-2] == '\\' && strings.IndexByte("ntrbf", s[n-1]) >= 0:
		return true
	case n >= 6 && s[n-6] == '\\' && s[n-5] == 'u' && hex(n-4):
		return true
	}
	return false
}

// Value is a copy of v (as JSON decodes: maps, lists, strings...) with
// every secret masked: the values of secret-looking keys, secret header
// lines, and the set's values inside every string.
func (s *Set) Value(v any) any {
	return walk(v, func(x string) any { return s.String(maskHeaderLine(x)) })
}

// Positions is a copy of v (as JSON decodes) with secrets masked only
// where they stand: the values of secret-looking keys, secret header
// lines, and strings that are one of the set's values whole (however
// short). Nothing inside other text is touched: for the arguments an
// answer shows its own agent, who typed them.
func (s *Set) Positions(v any) any {
	return walk(v, func(x string) any {
		if x != "" && s.Has(x) {
			return Mask
		}
		return maskHeaderLine(x)
	})
}

// walk is a copy of v with the strings of secret-looking keys (and of
// credential headers in a header map) masked, and every other string
// what leaf makes of it.
func walk(v any, leaf func(string) any) any {
	switch x := v.(type) {
	case string:
		return leaf(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if _, isStr := e.(string); isStr && IsSecretKey(k) {
				out[k] = Mask
				continue
			}
			out[k] = walk(e, leaf)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = walk(e, leaf)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = leaf(e)
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if IsSecretKey(k) || IsSecretHeader(k) {
				out[k] = Mask
				continue
			}
			out[k] = leaf(e)
		}
		return out
	}
	return v
}

// Args is a copy of a call's arguments with every secret masked (see
// [Set.Value]).
func (s *Set) Args(args map[string]any) map[string]any {
	if args == nil {
		return nil
	}
	m, _ := s.Value(args).(map[string]any)
	return m
}

// JSON masks a JSON document: the values of secret-looking keys and
// headers, and the set's values in every string. A document that does not
// parse is masked as text.
func (s *Set) JSON(b []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return s.Bytes(b)
	}
	out, err := json.Marshal(s.jsonValue(v))
	if err != nil {
		return s.Bytes(b)
	}
	return out
}

// jsonValue is Value for a decoded JSON document, which also knows the
// shapes the DevTools protocol carries secrets in: {name, value} pairs of
// a secret header or of a cookie.
func (s *Set) jsonValue(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				out[i] = s.jsonValue(e)
			}
			return out
		}
		return s.Value(v)
	}
	out := make(map[string]any, len(m))
	name, _ := m["name"].(string)
	_, isCookie := m["domain"]
	for k, e := range m {
		switch {
		case k == "value" && (isCookie || IsSecretHeader(name)):
			out[k] = Mask
		case IsSecretKey(k) || IsSecretHeader(k):
			if _, isStr := e.(string); isStr {
				out[k] = Mask
				continue
			}
			out[k] = s.jsonValue(e)
		default:
			out[k] = s.jsonValue(e)
		}
	}
	return out
}

// Bytes is b with every secret of the set masked, as String masks a
// text.
func (s *Set) Bytes(b []byte) []byte {
	if s == nil || len(b) == 0 {
		return b
	}
	var text string
	changed := false
	for _, p := range s.patterns(nil) {
		if !changed {
			if !bytes.Contains(b, []byte(p.text)) {
				continue
			}
			text, changed = string(b), true
		}
		if strings.Contains(text, p.text) {
			text = replace(text, p.text, len(p.value) < WordLen)
		}
	}
	if !changed {
		return b
	}
	return []byte(text)
}

// maskHeaderLine masks the value of a 'Name: value' line whose header
// carries a credential.
func maskHeaderLine(s string) string {
	if len(s) > 4096 || strings.ContainsAny(s, "\n\r") {
		return s
	}
	if name, _, secret := HeaderLine(s); secret && validHeaderName(name) {
		return name + ": " + Mask
	}
	return s
}

func validHeaderName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if r != '-' && r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// jsonInner is v as it appears between the quotes of a JSON string.
func jsonInner(v string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	out := strings.TrimSuffix(b.String(), "\n")
	return strings.TrimSuffix(strings.TrimPrefix(out, `"`), `"`)
}

// Writer masks every write to w with s: a log sink, where each write is
// one whole entry.
func Writer(w io.Writer, s *Set) io.Writer { return &writer{w: w, s: s} }

type writer struct {
	w io.Writer
	s *Set
}

func (w *writer) Write(p []byte) (int, error) {
	// Bytes never changes p: what it replaces it writes anew.
	if _, err := w.w.Write(w.s.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
