package snaptext

import (
	"encoding/json"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadText is a text a snapshot showed the agent that says where the page
// is or what just happened: a heading's name, a status or alert's name or
// text (its own text, when it holds nothing else).
type ReadText struct {
	Role string
	Name string // the accessible name, when it has one
	Text string // else its text
}

// readRoles are the roles whose texts ReadTexts reads.
var readRoles = map[string]bool{"heading": true, "status": true, "alert": true}

// readKeyRE is a snapshot line's node: its role, its quoted name if any,
// then its [attributes].
var readKeyRE = regexp.MustCompile(`^([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?((?: \[[^\]]*\])*)$`)

// ReadTexts are the headings, statuses and alerts of a snapshot's text (a
// whole page, a part, or the changes an action answered with), in the
// order it shows them: what the agent read of where the page is and what
// happened, as it read it.
func ReadTexts(snapshot string) []ReadText {
	var out []ReadText
	for _, line := range strings.Split(snapshot, "\n") {
		item, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "- ")
		if !ok {
			continue
		}
		var v any
		if yaml.Unmarshal([]byte(item), &v) != nil {
			continue
		}
		key, text := "", ""
		switch x := v.(type) {
		case string:
			key = x
		case map[string]any:
			if len(x) != 1 {
				continue
			}
			for k, val := range x {
				key = k
				text, _ = val.(string) // nil: it holds more lines
			}
		default:
			continue
		}
		m := readKeyRE.FindStringSubmatch(key)
		if m == nil || !readRoles[m[1]] {
			continue
		}
		rt := ReadText{Role: m[1]}
		if m[2] != "" && json.Unmarshal([]byte(m[2]), &rt.Name) != nil {
			continue
		}
		if rt.Name == "" {
			rt.Text = strings.TrimSpace(text)
		}
		if rt.Name != "" || rt.Text != "" {
			out = append(out, rt)
		}
	}
	return out
}
