package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Playwright MCP's config file may be an INI file too: KEY = VALUE lines
// whose keys are the JSON file's, written with dots
// (browser.contextOptions.viewport = 1280x720), and [section] lines that
// put their name and a dot before the keys that follow ([timeouts], then
// action = 5000). An INI file's values are text: the key's kind
// (pwConfigKeys) says what the text stands for (true or false, a number,
// WIDTHxHEIGHT), a list is one KEY[] = VALUE line an item, and the keys of
// an object are written under it (browser.cdpHeaders.Authorization = ...,
// secrets.API_KEY = ...). The file becomes the tree the JSON file is, read
// by the same walk (walkPWConfig): the same keys, values and refusals.
//
// As theirs reads it: `;` and `#` begin a comment, at the start of a line
// or after a value not in quotes (`\;` and `\#` are the characters); a
// value in double quotes is a JSON string, one in single quotes is the text
// between them. Unlike theirs, a line that is not a section, a comment or
// KEY = VALUE is refused, and so are a key given twice, a value that is not
// of its key's kind and a list given to a key of one value: theirs reads
// those as true, the last value, false or nothing.

// iniError is a line of an INI config file that cannot be read, and why.
type iniError struct {
	Line int
	Msg  string
}

func (e *iniError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// iniLine is one KEY = VALUE line of an INI file.
type iniLine struct {
	n      int    // its line number, from 1
	key    string // with its section's name and a dot before it
	value  string
	quoted bool // the value was in quotes: its text, whatever it says
	item   bool // KEY[] = VALUE: an item of a list
}

// parseINI reads the KEY = VALUE lines of an INI file, each with its
// section's name before its key.
func parseINI(b []byte) ([]iniLine, error) {
	var out []iniLine
	section := ""
	for i, raw := range strings.Split(string(b), "\n") {
		n, line := i+1, strings.TrimSpace(raw)
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return nil, &iniError{n, "a section line is [NAME]: no ] closes it"}
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" && rest[0] != ';' && rest[0] != '#' {
				return nil, &iniError{n, "a section line is [NAME] alone (a comment may follow, after ; or #)"}
			}
			name, _, err := iniText(line[1:end])
			if err != nil {
				return nil, &iniError{n, "the section's name: " + err.Error()}
			}
			if err := checkDotted(name); err != nil {
				return nil, &iniError{n, fmt.Sprintf("section [%s]: %v", name, err)}
			}
			section = name + "."
			continue
		}
		rawKey, rawValue, ok := strings.Cut(line, "=")
		if !ok {
			return nil, &iniError{n, "want KEY = VALUE (a comment begins with ; or #)"}
		}
		key, _, err := iniText(rawKey)
		if err != nil {
			return nil, &iniError{n, "the key: " + err.Error()}
		}
		l := iniLine{n: n}
		if k, ok := strings.CutSuffix(key, "[]"); ok {
			key, l.item = strings.TrimSpace(k), true
		}
		if key == "" {
			return nil, &iniError{n, "a value with no key: want KEY = VALUE"}
		}
		if err := checkDotted(key); err != nil {
			return nil, &iniError{n, fmt.Sprintf("key %q: %v", key, err)}
		}
		l.key = section + key
		if l.value, l.quoted, err = iniText(rawValue); err != nil {
			return nil, &iniError{n, l.key + ": " + err.Error()}
		}
		out = append(out, l)
	}
	return out, nil
}

// checkDotted refuses a key or section name with an empty part.
func checkDotted(name string) error {
	if name == "" {
		return fmt.Errorf("an empty name")
	}
	if strings.Contains(name, "..") || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
		return fmt.Errorf("an empty name between dots")
	}
	return nil
}

// iniText is a key's or a value's text: what is in its quotes, or what
// stands before its comment.
func iniText(s string) (text string, quoted bool, err error) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		if s[0] == '\'' {
			return s[1 : len(s)-1], true, nil
		}
		if err := json.Unmarshal([]byte(s), &text); err != nil {
			return "", false, fmt.Errorf("not a JSON string in double quotes (use single quotes for the text as it is)")
		}
		return text, true, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`\;#`, s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case c == ';' || c == '#':
			return strings.TrimSpace(b.String()), false, nil
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String()), false, nil
}

// iniConfigTree is an INI config file as the tree of keys a JSON one is.
func iniConfigTree(b []byte) (map[string]any, error) {
	lines, err := parseINI(b)
	if err != nil {
		return nil, err
	}
	// The lines of each key, in the file's order of keys.
	var keys []string
	byKey := map[string][]iniLine{}
	for _, l := range lines {
		prev := byKey[l.key]
		if len(prev) > 0 && (!prev[0].item || !l.item) {
			msg := fmt.Sprintf("%s is given again (first on line %d)", l.key, prev[0].n)
			if kind, _ := iniKind(l.key); kind == kindList {
				msg += fmt.Sprintf(": a list is one %s[] = VALUE line an item", l.key)
			}
			return nil, &iniError{l.n, msg}
		}
		if len(prev) == 0 {
			keys = append(keys, l.key)
		}
		byKey[l.key] = append(prev, l)
	}
	tree := map[string]any{}
	at := map[string]int{} // the line that gave each key of the tree its value or group
	for _, key := range keys {
		ls := byKey[key]
		v, err := iniValue(key, ls)
		if err != nil {
			return nil, err
		}
		if err := setDotted(tree, key, v, ls[0].n, at); err != nil {
			return nil, err
		}
	}
	return tree, nil
}

// iniKind is the kind of value an INI key takes: its own key's, a string
// for a key under an object (a header, a proxy's server, a secret), or 0
// for a key this server refuses or does not know (the walk says which).
func iniKind(key string) (pwKind, error) {
	if k, ok := pwConfigKeys[key]; ok {
		if k.kind == kindObject {
			return 0, fmt.Errorf("it holds keys: write each as %s.NAME = VALUE", key)
		}
		return k.kind, nil
	}
	if strings.HasPrefix(key, "secrets.") {
		return kindString, nil
	}
	for p := key; ; {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return 0, nil
		}
		p = p[:i]
		if k, ok := pwConfigKeys[p]; ok {
			if k.kind == kindObject {
				return kindString, nil
			}
			return 0, fmt.Errorf("%s takes a value, not keys under it", p)
		}
	}
}

// iniValue is the JSON value the lines of one key give it.
func iniValue(key string, ls []iniLine) (any, error) {
	fail := func(n int, format string, a ...any) error {
		return &iniError{n, key + ": " + fmt.Sprintf(format, a...)}
	}
	kind, err := iniKind(key)
	if err != nil {
		return nil, fail(ls[0].n, "%v", err)
	}
	if ls[0].item {
		if kind != kindList && kind != 0 {
			return nil, fail(ls[0].n, "takes one value, not a list: write %s = VALUE", key)
		}
		items := make([]any, len(ls))
		for i, l := range ls {
			if items[i], err = iniOf(kind, l); err != nil {
				return nil, fail(l.n, "%v", err)
			}
		}
		return items, nil
	}
	if kind == kindList {
		if strings.Contains(ls[0].value, ",") {
			return nil, fail(ls[0].n, "a list is one %s[] = VALUE line an item, not values separated by commas", key)
		}
		return []any{ls[0].value}, nil
	}
	v, err := iniOf(kind, ls[0])
	if err != nil {
		return nil, fail(ls[0].n, "%v", err)
	}
	return v, nil
}

// iniOf is the JSON value of one line's text, as its key's kind reads it
// (a list's item is a string). The text is not quoted back: it may be a
// secret.
func iniOf(kind pwKind, l iniLine) (any, error) {
	s := l.value
	switch kind {
	case kindString, kindList:
		return s, nil
	case kindBool, kindNotBool:
		switch s {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
		return nil, fmt.Errorf("want true or false")
	case kindInt, kindBytes, kindMillis, kindNumber:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("want a number")
		}
		return f, nil
	case kindSize:
		w, h, ok := strings.Cut(strings.ToLower(s), "x")
		wf, werr := strconv.ParseFloat(strings.TrimSpace(w), 64)
		hf, herr := strconv.ParseFloat(strings.TrimSpace(h), 64)
		if !ok || werr != nil || herr != nil || !(wf > 0) || !(hf > 0) || math.IsInf(wf, 0) || math.IsInf(hf, 0) {
			return nil, fmt.Errorf("want WIDTHxHEIGHT, as 1280x720")
		}
		return map[string]any{"width": wf, "height": hf}, nil
	}
	// A key the walk refuses or does not know: read as theirs reads one.
	if l.quoted {
		return s, nil
	}
	if s == "true" || s == "false" {
		return s == "true", nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f, nil
	}
	return s, nil
}

// setDotted puts v in tree at the dotted key, making the objects on its
// way; at notes the line that made each, to name both lines of a key that
// is given a value and keys under it.
func setDotted(tree map[string]any, key string, v any, n int, at map[string]int) error {
	parts := strings.Split(key, ".")
	m := tree
	for i, p := range parts[:len(parts)-1] {
		path := strings.Join(parts[:i+1], ".")
		switch sub := m[p].(type) {
		case map[string]any:
			m = sub
		case nil:
			next := map[string]any{}
			m[p], at[path], m = next, n, next
		default:
			return &iniError{n, fmt.Sprintf("%s: %s has a value (line %d): it cannot hold keys too", key, path, at[path])}
		}
	}
	last := parts[len(parts)-1]
	if _, ok := m[last]; ok {
		return &iniError{n, fmt.Sprintf("%s holds keys (line %d): it cannot have a value too", key, at[key])}
	}
	m[last], at[key] = v, n
	return nil
}

// pwConfigTree is a config file's tree of keys, from its JSON or its INI,
// told apart as theirs does: a .ini file is INI; any other is JSON when it
// reads as JSON or begins with {, and INI when it does not.
func pwConfigTree(ini bool, b []byte) (map[string]any, error) {
	if !ini {
		var v any
		err := json.Unmarshal(b, &v)
		switch {
		case err == nil:
			if v == nil {
				return map[string]any{}, nil // null: nothing set
			}
			root, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("not a JSON object (nor an INI file)")
			}
			return root, nil
		case bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")):
			return nil, fmt.Errorf("not a JSON object: %v", err)
		}
	}
	tree, err := iniConfigTree(b)
	if err != nil && !ini {
		return nil, fmt.Errorf("read as INI (it is not JSON): %w", err)
	}
	return tree, err
}
