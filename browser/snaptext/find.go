package snaptext

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// FindMatch is one snapshot line that matched a search ([FindInSnapshot];
// browser's Page.Find searches a page's whole snapshot).
type FindMatch struct {
	// Line is the snapshot line, trimmed (a table row is one line).
	Line string `json:"line"`
	// Ref is the ref of the matching element on the line, or else the ref
	// of the nearest element above it that has one (Under is then that
	// element's line).
	Ref   string `json:"ref,omitempty"`
	Under string `json:"under,omitempty"`
	// Role and Name are those of the element Ref names, when it is on the line.
	Role string `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
	// Path is the lines the match is nested in, from the root of the
	// snapshot down (trimmed, as Line).
	Path []string `json:"path,omitempty"`
	// At and PathAt are the snapshot line numbers of Line and of Path's
	// lines: two matches share the lines above them where these agree.
	At     int   `json:"-"`
	PathAt []int `json:"-"`
	// Controls are, for a match that is a container without a ref of its
	// own (a card, a list item), the lines inside it that have refs: at
	// most maxControls, the first ones; More says how many were left out.
	Controls []FindMatch `json:"controls,omitempty"`
	More     int         `json:"moreControls,omitempty"`
}

// maxControls bounds the controls listed under one container match: a
// card's buttons and links, not a whole page section.
const maxControls = 8

// FindQuery is what [FindInSnapshot] looks for; every field given must match.
type FindQuery struct {
	Text  string         // in a line's text, case-insensitive
	Regex *regexp.Regexp // or matching a line's text
	// Source is the regex as the agent gave it, for answers.
	Source string
	Role   string // an element of this role
	Name   string // whose name contains this, case-insensitive
}

// String describes the query for an answer.
func (q FindQuery) String() string {
	var parts []string
	if q.Text != "" {
		parts = append(parts, strconv.Quote(q.Text))
	}
	switch {
	case selector.IsRegexArg(q.Source):
		parts = append(parts, q.Source)
	case q.Source != "":
		parts = append(parts, "/"+q.Source+"/")
	case q.Regex != nil:
		parts = append(parts, "/"+q.Regex.String()+"/")
	}
	if q.Role != "" {
		parts = append(parts, "role "+q.Role)
	}
	if q.Name != "" {
		parts = append(parts, "name "+strconv.Quote(q.Name))
	}
	return strings.Join(parts, ", ")
}

// refInLineRE finds the ref of a snapshot line.
var refInLineRE = regexp.MustCompile(`\[ref=([a-z0-9]+)\]`)

// itemRE finds the elements of a snapshot line: the line's own, and on a
// one-line table row each cell and the controls in it. Groups: role, the
// quoted name, the attributes.
var itemRE = regexp.MustCompile(`(?:^|: |\| |, )([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?((?: \[[a-z]+(?:=[^\]]*)?\])*)`)

// lineItem is one element of a snapshot line.
type lineItem struct {
	role, name, ref string
	text            string // role and name, for a text search
}

func lineItems(body string) []lineItem {
	var out []lineItem
	for _, m := range itemRE.FindAllStringSubmatch(body, -1) {
		it := lineItem{role: m[1]}
		if m[2] != "" {
			if n, err := strconv.Unquote(m[2]); err == nil {
				it.name = n
			}
		}
		if r := refInLineRE.FindStringSubmatch(m[3]); r != nil {
			it.ref = r[1]
		}
		it.text = it.role + " " + it.name
		out = append(out, it)
	}
	return out
}

func foldText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// FindInSnapshot searches snapshot YAML line by line; refs and the YAML
// list markers are not part of what is searched.
func FindInSnapshot(yaml string, q FindQuery, limit int) ([]FindMatch, int) {
	needle, name := foldText(q.Text), foldText(q.Name)
	type open struct {
		indent int
		line   string
		ref    string
		at     int
	}
	var stack []open // the lines above, each less indented than the next
	var out []FindMatch
	total := 0
	lines := strings.Split(yaml, "\n")
	for li, line := range lines {
		body := strings.TrimSpace(line)
		if body == "" {
			continue
		}
		ind := indent(line)
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		ref := ""
		if m := refInLineRE.FindStringSubmatch(body); m != nil {
			ref = m[1]
		}
		stack = append(stack, open{ind, body, ref, li})
		hay := strings.TrimPrefix(refInLineRE.ReplaceAllString(body, ""), "- ")
		switch {
		case q.Regex != nil && !q.Regex.MatchString(hay):
			continue
		case needle != "" && !strings.Contains(foldText(hay), needle):
			continue
		}
		// The element on the line that matches: of the role and name asked
		// for, else the first whose text holds the search, else the line's.
		var hit *lineItem
		items := lineItems(strings.TrimPrefix(body, "- "))
		for i := range items {
			it := &items[i]
			if q.Role != "" && it.role != q.Role || name != "" && !strings.Contains(foldText(it.name), name) {
				continue
			}
			if q.Role == "" && name == "" {
				if it.ref == "" || needle != "" && !strings.Contains(foldText(it.text), needle) ||
					q.Regex != nil && !q.Regex.MatchString(it.text) {
					continue
				}
			}
			hit = it
			break
		}
		if hit == nil && (q.Role != "" || name != "") {
			continue
		}
		total++
		if len(out) >= limit {
			continue
		}
		m := FindMatch{Line: body, Ref: ref, At: li}
		for _, o := range stack[:len(stack)-1] {
			m.Path, m.PathAt = append(m.Path, o.line), append(m.PathAt, o.at)
		}
		if hit != nil {
			m.Ref, m.Role, m.Name = hit.ref, hit.role, hit.name
		} else if len(items) > 0 && items[0].ref == ref {
			m.Role, m.Name = items[0].role, items[0].name
		}
		if hit == nil || hit.ref == "" {
			m.Controls, m.More = controlsUnder(lines[li+1:], ind)
		}
		for i := len(stack) - 2; i >= 0 && m.Ref == ""; i-- {
			if stack[i].ref != "" {
				m.Ref, m.Under = stack[i].ref, stack[i].line
			}
		}
		out = append(out, m)
	}
	return out, total
}

// controlsUnder lists the lines with refs among the lines that follow a
// line indented ind and are nested under it, each with the first element of
// the line that has a ref; at most maxControls, and how many more.
func controlsUnder(lines []string, ind int) ([]FindMatch, int) {
	var out []FindMatch
	more := 0
	for _, line := range lines {
		body := strings.TrimSpace(line)
		if body == "" {
			continue
		}
		if indent(line) <= ind {
			break
		}
		if !refInLineRE.MatchString(body) {
			continue
		}
		if len(out) == maxControls {
			more++
			continue
		}
		c := FindMatch{Line: body}
		for _, it := range lineItems(strings.TrimPrefix(body, "- ")) {
			if it.ref != "" {
				c.Ref, c.Role, c.Name = it.ref, it.role, it.name
				break
			}
		}
		out = append(out, c)
	}
	return out, more
}
