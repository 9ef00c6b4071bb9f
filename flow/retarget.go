package flow

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A flow a person keeps (comments, blank lines, quoting, the order of its
// keys) is edited in place: Retarget changes the bytes of a step's target
// and of its fingerprint, found in the file's YAML node tree, and nothing
// else. The file is never marshalled again, and each edit is checked: the
// file must read back as the flow it was with only that step's target and
// fingerprint changed.

// TargetEdit is a new target (and fingerprint) for one step of a flow.
type TargetEdit struct {
	// Step is the step's index in the flow's steps, from 0.
	Step int
	// Target is the new target, as flow text (a $ escaped: Escape).
	Target string
	// Print is the new fingerprint, or nil to keep the step's.
	Print *Fingerprint
}

// EditError says why one step's edit was not made.
type EditError struct {
	Step   int // from 0
	Reason string
}

func (e *EditError) Error() string {
	return fmt.Sprintf("step %d was not rewritten: %s", e.Step+1, e.Reason)
}

// Retarget is a flow file's text with each edit's step given its new
// target and fingerprint, every other byte as it was. An edit that cannot
// be made exactly so (a target written as a block scalar, an anchor other
// steps share, a step that is not in the file as a map) is not made:
// errs has an *EditError for it, and the other edits are made.
func Retarget(src []byte, edits []TargetEdit) (out []byte, errs []error) {
	out = src
	for _, e := range edits {
		next, err := retargetOne(out, e)
		if err != nil {
			errs = append(errs, &EditError{Step: e.Step, Reason: err.Error()})
			continue
		}
		out = next
	}
	return out, errs
}

// retargetOne makes one edit and checks it.
func retargetOne(src []byte, e TargetEdit) ([]byte, error) {
	before, err := Parse(src)
	if err != nil {
		return nil, fmt.Errorf("the flow does not read: %w", err)
	}
	if e.Step < 0 || e.Step >= len(before.Steps) {
		return nil, fmt.Errorf("the flow has %d steps", len(before.Steps))
	}
	old, ok := before.Steps[e.Step].Args["target"].(string)
	if !ok {
		return nil, errors.New("it has no target")
	}
	// A target that reads a variable or a data row's field is each run's
	// own: one run's value written over it would break the others.
	if ref := firstReference(old); ref != "" {
		return nil, fmt.Errorf("its target reads %s, which each run (a data row, the environment) sets", ref)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	t := newTextMap(src)
	step, inFlow, err := stepNode(&doc, e.Step)
	if err != nil {
		return nil, err
	}
	var action, value, fpValue *yaml.Node
	for i := 0; i+1 < len(step.Content); i += 2 {
		if step.Content[i].Value == fingerprintKey {
			fpValue = step.Content[i+1]
		} else {
			action, value = step.Content[i], step.Content[i+1]
		}
	}
	if action == nil {
		return nil, errors.New("it has no action")
	}
	inFlow = inFlow || step.Style&yaml.FlowStyle != 0
	target, targetFlow := value, inFlow || value.Style&yaml.FlowStyle != 0
	if value.Kind == yaml.MappingNode {
		target = nil
		for i := 0; i+1 < len(value.Content); i += 2 {
			if value.Content[i].Value == "target" {
				target = value.Content[i+1]
			}
		}
	}
	if target == nil || (target.Kind != yaml.ScalarNode && target.Kind != yaml.AliasNode) {
		return nil, errors.New("its target is not a text of its own in the file")
	}
	var reps []replacement
	from, to, err := t.span(target, targetFlow)
	if err != nil {
		return nil, fmt.Errorf("its target: %w", err)
	}
	text, err := scalarText(e.Target, target.Style, targetFlow)
	if err != nil {
		return nil, err
	}
	reps = append(reps, replacement{from, to, text})
	if e.Print != nil {
		fp, err := printText(e.Print)
		if err != nil {
			return nil, err
		}
		switch {
		case fpValue != nil:
			from, to, err := t.span(fpValue, inFlow || fpValue.Style&yaml.FlowStyle != 0)
			if err != nil {
				return nil, fmt.Errorf("its fingerprint: %w", err)
			}
			if t.hasComment(from, to) {
				return nil, errors.New("its fingerprint holds a comment")
			}
			reps = append(reps, replacement{from, to, fp})
		case inFlow:
			// {click: x} becomes {click: x, fingerprint: {...}}.
			_, end, err := t.span(value, true)
			if err != nil {
				return nil, err
			}
			reps = append(reps, replacement{end, end, ", " + fingerprintKey + ": " + fp})
		default:
			// A line of its own under the action, after the action's
			// last line (and its comment).
			_, end, err := t.span(value, value.Style&yaml.FlowStyle != 0)
			if err != nil {
				return nil, err
			}
			at, eol := t.lineEnd(end)
			reps = append(reps, replacement{at, at, eol + strings.Repeat(" ", action.Column-1) + fingerprintKey + ": " + fp})
		}
	}
	out := apply(src, reps)
	want := *before
	want.Steps = append([]Step(nil), before.Steps...)
	st := &want.Steps[e.Step]
	args := make(map[string]any, len(st.Args))
	for k, v := range st.Args {
		args[k] = v
	}
	args["target"] = e.Target
	st.Args = args
	if e.Print != nil {
		st.Fingerprint = e.Print
	}
	got, err := Parse(out)
	if err != nil || !reflect.DeepEqual(withoutPos(*got), withoutPos(want)) {
		return nil, errors.New("the file would not read back as the same flow with only this step changed (an anchor other steps share?)")
	}
	return out, nil
}

// stepNode is the mapping node of the i-th step (counted as Flow.Steps
// counts them, inside groups too), and whether it sits in a flow
// collection ([...] or {...}).
func stepNode(doc *yaml.Node, i int) (*yaml.Node, bool, error) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false, errors.New("the file is not one YAML map")
	}
	root := doc.Content[0]
	for k := 0; k+1 < len(root.Content); k += 2 {
		if root.Content[k].Value != "steps" {
			continue
		}
		n := i
		step, inFlow := nthStep(root.Content[k+1], &n, root.Style&yaml.FlowStyle != 0)
		if step == nil {
			return nil, false, errors.New("the steps are not a list in the file")
		}
		if step.Kind != yaml.MappingNode {
			return nil, false, errors.New("the step is not a map in the file")
		}
		return step, inFlow, nil
	}
	return nil, false, errors.New("the file has no steps")
}

// nthStep finds the *n-th step (from 0) of a list of steps and groups,
// counting down *n as it passes steps, and says whether it sits in a flow
// collection (inFlow: the list is inside one).
func nthStep(steps *yaml.Node, n *int, inFlow bool) (*yaml.Node, bool) {
	if steps.Kind != yaml.SequenceNode {
		return nil, false
	}
	inFlow = inFlow || steps.Style&yaml.FlowStyle != 0
	for _, item := range steps.Content {
		if !isGroup(item) {
			if *n == 0 {
				return item, inFlow
			}
			*n--
			continue
		}
		for j := 0; j+1 < len(item.Content); j += 2 {
			if item.Content[j].Value == "steps" {
				if st, f := nthStep(item.Content[j+1], n, inFlow || item.Style&yaml.FlowStyle != 0); st != nil {
					return st, f
				}
			}
		}
	}
	return nil, false
}

// replacement is bytes [from, to) of a file replaced by text.
type replacement struct {
	from, to int
	text     string
}

// apply makes non-overlapping replacements, given in any order.
func apply(src []byte, reps []replacement) []byte {
	// The last first, so that the earlier offsets hold.
	slices.SortFunc(reps, func(a, b replacement) int { return b.from - a.from })
	out := append([]byte(nil), src...)
	for _, r := range reps {
		out = append(out[:r.from:r.from], append([]byte(r.text), out[r.to:]...)...)
	}
	return out
}

// scalarText writes a text as a YAML scalar that reads back as it where
// it stands (inside a flow collection or not): in the style the old text
// had when it can, else plain, single- or double-quoted.
func scalarText(v string, was yaml.Style, inFlow bool) (string, error) {
	styles := []yaml.Style{0, yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle}
	switch {
	case was&yaml.SingleQuotedStyle != 0:
		styles = []yaml.Style{yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle}
	case was&yaml.DoubleQuotedStyle != 0:
		styles = []yaml.Style{yaml.DoubleQuotedStyle}
	}
	for _, s := range styles {
		var text string
		switch s {
		case 0:
			text = v
		case yaml.SingleQuotedStyle:
			text = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		default:
			text = doubleQuoted(v)
		}
		if !strings.ContainsAny(text, "\r\n") && readsAs(text, v, inFlow) {
			return text, nil
		}
	}
	return "", fmt.Errorf("%q cannot be written as a YAML text", v)
}

// readsAs says whether text, as a map's value (in a flow map or a block
// one), reads as the text v.
func readsAs(text, v string, inFlow bool) bool {
	doc := "k: " + text + "\n"
	if inFlow {
		doc = "{k: " + text + "}\n"
	}
	var n yaml.Node
	if yaml.Unmarshal([]byte(doc), &n) != nil || len(n.Content) != 1 || len(n.Content[0].Content) != 2 {
		return false
	}
	got := n.Content[0].Content[1]
	return got.Kind == yaml.ScalarNode && got.ShortTag() == "!!str" && got.Value == v
}

// doubleQuoted is a text as a YAML double-quoted scalar on one line.
func doubleQuoted(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case isControl(r) || r == 0xfeff:
			if r <= 0xff {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// printText is a fingerprint as a one-line YAML flow map.
func printText(fp *Fingerprint) (string, error) {
	b, err := yaml.Marshal(fp.node())
	if err != nil {
		return "", err
	}
	s := strings.TrimSuffix(string(b), "\n")
	if strings.ContainsAny(s, "\r\n") {
		return "", errors.New("its fingerprint does not fit on a line")
	}
	return s, nil
}

// textMap finds a node's bytes in the file it was read from: yaml.v3
// gives each node's line and column (in characters, from 1), and the end
// is found by reading the file from there.
type textMap struct {
	src   []byte
	lines []int // the offset of each line's start
}

func newTextMap(src []byte) *textMap {
	t := &textMap{src: src, lines: []int{0}}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		t.lines[0] = 3 // yaml.v3 counts columns after a byte order mark
	}
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == '\r' && i+1 < len(src) && src[i+1] == '\n':
			n = 2
			fallthrough
		case r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			t.lines = append(t.lines, i+n)
		}
		i += n
	}
	return t
}

// offset is the byte offset of a node's start.
func (t *textMap) offset(n *yaml.Node) (int, error) {
	if n.Line < 1 || n.Line > len(t.lines) {
		return 0, errors.New("its place in the file is unknown")
	}
	at := t.lines[n.Line-1]
	for c := 1; c < n.Column; c++ {
		if at >= len(t.src) {
			return 0, errors.New("its place in the file is unknown")
		}
		_, size := utf8.DecodeRune(t.src[at:])
		at += size
	}
	return at, nil
}

// span is the bytes of a node's value in the file, without its anchor or
// tag: a scalar, an alias, a flow collection, or a block collection up to
// the end of its last value.
func (t *textMap) span(n *yaml.Node, inFlow bool) (int, int, error) {
	at, err := t.offset(n)
	if err != nil {
		return 0, 0, err
	}
	if n.Kind != yaml.AliasNode {
		at = t.skipProperties(at)
	}
	end, err := t.end(n, at, inFlow)
	return at, end, err
}

// skipProperties is the offset after a node's anchor (&a) and tag (!!str)
// and the spaces after them.
func (t *textMap) skipProperties(at int) int {
	for at < len(t.src) && (t.src[at] == '&' || t.src[at] == '!') {
		for at < len(t.src) && !isBlank(t.src[at]) {
			at++
		}
		for at < len(t.src) && isBlank(t.src[at]) {
			at++
		}
	}
	return at
}

// end is the offset after a node whose value starts at at.
func (t *textMap) end(n *yaml.Node, at int, inFlow bool) (int, error) {
	src := t.src
	switch {
	case n.Kind == yaml.AliasNode:
		end := at + 1
		for end < len(src) && !isBlank(src[end]) && !strings.ContainsRune(",[]{}", rune(src[end])) {
			end++
		}
		return end, nil
	case n.Kind == yaml.ScalarNode:
		return t.scalarEnd(n, at, inFlow)
	case n.Style&yaml.FlowStyle != 0:
		return t.flowEnd(at)
	case len(n.Content) == 0:
		return 0, errors.New("an empty collection")
	}
	last := n.Content[len(n.Content)-1]
	_, end, err := t.span(last, inFlow)
	return end, err
}

// scalarEnd is the offset after a scalar starting at at.
func (t *textMap) scalarEnd(n *yaml.Node, at int, inFlow bool) (int, error) {
	src := t.src
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return 0, errors.New("it is written as a block of lines (| or >)")
	case n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0:
		return t.quotedEnd(at)
	}
	end := at
	for end < len(src) && !isBreak(src[end]) {
		c := src[end]
		if c == '#' && end > at && isBlank(src[end-1]) {
			break
		}
		if inFlow && strings.IndexByte(",[]{}", c) >= 0 {
			break
		}
		if c == ':' && (end+1 == len(src) || isBlank(src[end+1]) || isBreak(src[end+1]) || (inFlow && strings.IndexByte(",[]{}", src[end+1]) >= 0)) {
			break
		}
		end++
	}
	for end > at && isBlank(src[end-1]) {
		end--
	}
	if string(src[at:end]) != n.Value {
		return 0, errors.New("it is written over more than one line")
	}
	return end, nil
}

// quotedEnd is the offset after the quoted scalar starting at at.
func (t *textMap) quotedEnd(at int) (int, error) {
	src := t.src
	if at >= len(src) || (src[at] != '\'' && src[at] != '"') {
		return 0, errors.New("its quote is not where the file says")
	}
	q := src[at]
	for i := at + 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		case src[i] == q:
			return i + 1, nil
		}
	}
	return 0, errors.New("its quote does not end")
}

// flowEnd is the offset after the flow collection ([...] or {...})
// starting at at: its brackets counted, its quoted texts and comments
// skipped.
func (t *textMap) flowEnd(at int) (int, error) {
	depth := 0
	stop, err := t.scan(at, len(t.src), func(c byte) bool {
		switch c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
		return depth == 0
	}, nil)
	if err == nil && stop < 0 {
		err = errors.New("its brackets do not close")
	}
	return stop, err
}

// hasComment says whether bytes [from, to) hold a comment.
func (t *textMap) hasComment(from, to int) bool {
	found := false
	_, _ = t.scan(from, to, func(byte) bool { return false }, func() { found = true })
	return found
}

// scan reads bytes [from, to) as YAML tokens: each byte outside quoted
// texts and comments goes to each, a comment to comment. It returns the
// offset after the byte each stopped at (by returning true), or -1.
func (t *textMap) scan(from, to int, each func(byte) bool, comment func()) (int, error) {
	src := t.src
	prev := byte('\n') // the last byte that is not a space: a quote starts a text only after these
	for i := from; i < to; i++ {
		c := src[i]
		switch {
		case (c == '\'' || c == '"') && strings.IndexByte("\n{[,:-?", prev) >= 0:
			end, err := t.quotedEnd(i)
			if err != nil {
				return -1, err
			}
			i, prev = end-1, c
			continue
		case c == '#' && (i == 0 || isBlank(src[i-1]) || isBreak(src[i-1])):
			if comment != nil {
				comment()
			}
			for i+1 < to && !isBreak(src[i+1]) {
				i++
			}
			continue
		case isBreak(c):
			prev = '\n'
		case !isBlank(c):
			prev = c
		}
		if each(c) {
			return i + 1, nil
		}
	}
	return -1, nil
}

// lineEnd is where a line ends after at (before its line break), and the
// line break to put before a new line there: the line's own, or at the
// end of a file without one, the file's.
func (t *textMap) lineEnd(at int) (int, string) {
	src := t.src
	for at < len(src) && !isBreak(src[at]) {
		at++
	}
	switch {
	case bytes.HasPrefix(src[at:], []byte("\r\n")) || (at == len(src) && bytes.Contains(src, []byte("\r\n"))):
		return at, "\r\n"
	case at < len(src):
		return at, string(src[at])
	}
	return at, "\n"
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
func isBreak(c byte) bool { return c == '\n' || c == '\r' }

// withoutPos is f with its steps' positions zeroed: a repaired step may
// gain a fingerprint line, which moves the steps after it.
func withoutPos(f Flow) Flow {
	f.Steps = append([]Step(nil), f.Steps...)
	for i := range f.Steps {
		f.Steps[i].Pos = Pos{}
	}
	return f
}
