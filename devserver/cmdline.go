package devserver

import (
	"errors"
	"regexp"
	"strings"
)

// splitCommandLine splits a command line into words as a POSIX shell does,
// without running one: blanks separate words; '...' is literal; in "..." a
// backslash escapes \ " $ ` and newline; outside quotes a backslash escapes
// any character. With expand, $NAME and ${NAME} outside single quotes become
// expand's value where it has one, and stay as written otherwise.
func splitCommandLine(s string, expand func(name string) (string, bool)) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	rs := []rune(s)
	const (
		plain = iota
		single
		double
	)
	mode := plain
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch mode {
		case single:
			if c == '\'' {
				mode = plain
			} else {
				cur.WriteRune(c)
			}
			continue
		case double:
			switch c {
			case '"':
				mode = plain
			case '\\':
				if i+1 < len(rs) && strings.ContainsRune("\\\"$`\n", rs[i+1]) {
					i++
					if rs[i] != '\n' {
						cur.WriteRune(rs[i])
					}
				} else {
					cur.WriteRune(c)
				}
			case '$':
				i = expandVar(rs, i, &cur, expand)
			default:
				cur.WriteRune(c)
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			mode, inWord = single, true
		case '"':
			mode, inWord = double, true
		case '\\':
			inWord = true
			if i+1 < len(rs) {
				i++
				if rs[i] != '\n' {
					cur.WriteRune(rs[i])
				}
			}
		case '$':
			inWord = true
			i = expandVar(rs, i, &cur, expand)
		default:
			inWord = true
			cur.WriteRune(c)
		}
	}
	if mode != plain {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// expandVar handles the '$' at rs[i]: it writes the expansion (or the text
// as written) and returns the index of the last rune consumed.
func expandVar(rs []rune, i int, cur *strings.Builder, expand func(string) (string, bool)) int {
	isName := func(r rune, first bool) bool {
		return r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (!first && r >= '0' && r <= '9')
	}
	j, braced := i+1, false
	if j < len(rs) && rs[j] == '{' {
		braced, j = true, j+1
	}
	k := j
	for k < len(rs) && isName(rs[k], k == j) {
		k++
	}
	name := string(rs[j:k])
	if name == "" || (braced && (k >= len(rs) || rs[k] != '}')) {
		cur.WriteRune('$')
		return i
	}
	end := k - 1
	if braced {
		end = k
	}
	if expand != nil {
		if v, ok := expand(name); ok {
			cur.WriteString(v)
			return end
		}
	}
	cur.WriteString(string(rs[i : end+1]))
	return end
}

var assignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// splitAssignments separates leading NAME=value words from the command.
func splitAssignments(words []string) (assigns, argv []string) {
	i := 0
	for i < len(words) && assignRE.MatchString(words[i]) {
		i++
	}
	return words[:i], words[i:]
}
