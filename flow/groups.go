package flow

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"
)

// A flow written by hand may name parts of its steps, as Playwright's
// test.step does:
//
//	steps:
//	  - navigate: /
//	  - group: Sign in
//	    steps:
//	      - type: {target: label=Email, text: ada@example.com}
//	      - type: {target: label=Password, text: '${E2E_SECRET_1}'}
//	      - click: 'role=button[name="Sign in"]'
//	  - expect: {target: role=status, check: text, expected: Welcome}
//
// A group holds steps and other groups, never nothing. The flow's steps
// stay one list (Flow.Steps), numbered in order whatever group a step is
// in, so that everything that counts steps (a failure's "step 4", --heal's
// edit, session_check_flow) counts them alike; a group only names a run of
// them. e2e-mcp run shows the groups in its console and JUnit (a failing
// step's group path: "Sign in > type label=Password"), in the HTML report
// and in the trace (as test.step); convert writes each as an
// `await test.step(NAME, async () => {...})`. The recorder never writes
// groups: an agent's steps are flat.

// Group is a named run of a flow's steps: Steps[From:To], never empty.
type Group struct {
	Name     string
	From, To int
	// Parent is the index in the flow's Groups of the group this one is
	// in, -1 for none. Groups are listed in the order they open, so a
	// group comes after the groups it is in.
	Parent int
}

// maxGroupDepth bounds how deep groups nest.
const maxGroupDepth = 16

// GroupsAt lists the groups step i (from 0) is in, outermost first, as
// indices in f.Groups.
func (f *Flow) GroupsAt(i int) []int {
	var out []int
	for gi, g := range f.Groups {
		if g.From <= i && i < g.To {
			out = append(out, gi)
		}
	}
	return out
}

// GroupPath is the names of the groups step i is in, outermost first.
func (f *Flow) GroupPath(i int) []string {
	var out []string
	for _, gi := range f.GroupsAt(i) {
		out = append(out, f.Groups[gi].Name)
	}
	return out
}

// isGroup says whether a step's node is a group: a map with a group key.
func isGroup(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "group" {
			return true
		}
	}
	return false
}

// readSteps reads a list of steps and groups (the flow's steps, or a
// group's, parent its index in f.Groups) into f.Steps and f.Groups.
func (f *Flow) readSteps(n *yaml.Node, parent, depth int) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: steps is a list of steps, e.g. `steps: [back]` or one `- click: '#go'` a line", n.Line)
	}
	for _, item := range n.Content {
		if item.Kind == yaml.ScalarNode && item.Tag == "!!null" {
			continue // a bare "-": no step, as yaml.v3 reads a list of them
		}
		if !isGroup(item) {
			var st Step
			if err := item.Decode(&st); err != nil {
				return err
			}
			f.Steps = append(f.Steps, st)
			continue
		}
		if err := f.readGroup(item, parent, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// readGroup reads `- group: NAME` and its `steps:`.
func (f *Flow) readGroup(n *yaml.Node, parent, depth int) error {
	var name, steps *yaml.Node
	actor := ""
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i]; k.Value {
		case "group":
			name = n.Content[i+1]
		case "steps":
			steps = n.Content[i+1]
		case actorKey: // actors.go
			if err := readActor(n.Content[i+1], &actor); err != nil {
				return err
			}
		default:
			return fmt.Errorf("line %d: a group has only the keys group (its name), steps and actor, not %q: indent its steps under its steps key", k.Line, k.Value)
		}
	}
	if name.Kind != yaml.ScalarNode || name.ShortTag() != "!!str" || strings.TrimSpace(name.Value) == "" {
		return fmt.Errorf("line %d: a group's name is a text, e.g. `- group: Sign in`", n.Line)
	}
	if err := CheckName(name.Value); err != nil {
		return fmt.Errorf("line %d: group %q: %s", n.Line, name.Value, strings.Replace(err.Error(), "a flow name", "a group's name", 1))
	}
	if depth > maxGroupDepth {
		return fmt.Errorf("line %d: group %q: groups nest at most %d deep", n.Line, name.Value, maxGroupDepth)
	}
	if steps == nil || steps.Tag == "!!null" || (steps.Kind == yaml.SequenceNode && len(steps.Content) == 0) {
		return fmt.Errorf("line %d: group %q has no steps: give them under its steps key", n.Line, name.Value)
	}
	gi := len(f.Groups)
	f.Groups = append(f.Groups, Group{Name: name.Value, From: len(f.Steps), Parent: parent})
	if err := f.readSteps(steps, gi, depth); err != nil {
		return err
	}
	f.Groups[gi].To = len(f.Steps)
	for i := f.Groups[gi].From; i < f.Groups[gi].To && actor != ""; i++ {
		if f.Steps[i].Actor == "" { // a step's own, or an inner group's, wins
			f.Steps[i].Actor = actor
		}
	}
	if f.Groups[gi].To == f.Groups[gi].From {
		return fmt.Errorf("line %d: group %q has no steps: give them under its steps key", n.Line, name.Value)
	}
	return nil
}

// stepsNode is Steps[from:to] as YAML, the groups whose parent is parent
// written as groups with their steps.
func (f *Flow) stepsNode(from, to, parent int) (*yaml.Node, error) {
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i := from; i < to; {
		gi := f.groupFrom(i, parent)
		if gi < 0 {
			n, err := f.Steps[i].node()
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
			i++
			continue
		}
		g := f.Groups[gi]
		inner, err := f.stepsNode(g.From, g.To, gi)
		if err != nil {
			return nil, err
		}
		m := mapping()
		m.add("group", text(g.Name))
		m.add("steps", inner)
		seq.Content = append(seq.Content, (*yaml.Node)(m))
		i = max(g.To, i+1)
	}
	return seq, nil
}

// groupFrom is the group of parent that starts at step i, or -1.
func (f *Flow) groupFrom(i, parent int) int {
	for gi, g := range f.Groups {
		if g.Parent == parent && g.From == i && g.To > g.From {
			return gi
		}
	}
	return -1
}

// maxTag bounds a tag's length.
const maxTag = 100

// readTags reads `tags:`: a list of tags, or one.
func readTags(n *yaml.Node) ([]string, error) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	var tags []string
	for _, t := range items {
		if t.Kind != yaml.ScalarNode || t.ShortTag() != "!!str" {
			return nil, fmt.Errorf("line %d: tags is a list of words, e.g. `tags: [smoke, \"@checkout\"]`", t.Line)
		}
		if err := CheckTag(t.Value); err != nil {
			return nil, fmt.Errorf("line %d: tags: %w", t.Line, err)
		}
		tags = append(tags, t.Value)
	}
	return tags, nil
}

// CheckTag says what is wrong with a tag, or nil: a tag is one word (an @
// or not), so that the text --grep reads (file, name and tags joined by
// spaces) holds it whole.
func CheckTag(tag string) error {
	switch {
	case tag == "" || tag == "@":
		return fmt.Errorf("an empty tag: a tag is one word, such as smoke or @smoke")
	case strings.IndexFunc(tag, func(r rune) bool { return unicode.IsSpace(r) || isControl(r) }) >= 0:
		return fmt.Errorf("%q is not one word: a tag is one word, such as smoke or @smoke", tag)
	case len(tag) > maxTag:
		return fmt.Errorf("a tag has at most %d bytes, this one %d", maxTag, len(tag))
	}
	return nil
}

// readTimeout reads `timeout:`, a duration with its unit.
func readTimeout(n *yaml.Node) (time.Duration, error) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return 0, nil
	}
	if n.Kind != yaml.ScalarNode {
		return 0, fmt.Errorf("line %d: timeout is a duration, such as 30s or 2m", n.Line)
	}
	d, err := ParseTimeout(n.Value)
	if err != nil {
		return 0, fmt.Errorf("line %d: timeout: %w", n.Line, err)
	}
	return d, nil
}

// ParseTimeout reads a flow's timeout (and run --timeout's): a duration
// with its unit (30s, 2m, 1m30s, 1500ms), more than 0.
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		if _, nerr := fmt.Sscanf(strings.TrimSpace(s), "%f", new(float64)); nerr == nil {
			return 0, fmt.Errorf("%q has no unit: write 30s, 2m or 1500ms", s)
		}
		return 0, fmt.Errorf("%q is not a duration such as 30s, 2m or 1500ms", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q: a timeout is more than 0", s)
	}
	return d, nil
}

// FormatDuration writes a duration as a person would: 2m, 90s, 1500ms.
func FormatDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	}
	return d.String()
}
