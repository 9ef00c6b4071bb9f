// Package flow is the file format of a recorded test: what an agent did
// through MCP, written so that a person can read and edit it and
// `e2e-mcp run` can replay it in CI. docs/flow.schema.json describes it.
//
//	name: sign-up
//	tags: [smoke, "@signup"]
//	timeout: 1m
//	dev:
//	  run: python3 app.py $PORT
//	  cwd: .
//	needs: login.yaml
//	steps:
//	  - navigate: /signup.html
//	  - group: Fill the form
//	    steps:
//	      - type: {target: 'role=textbox[name="Name"]', text: Ada}
//	      - click: 'role=button[name="Sign up"]'
//	  - expect: {target: 'role=status', check: text, expected: 'Welcome, Ada!'}
//
// Each step is one action: a short form (the action's main argument) or a
// map of the tool's arguments. Targets are selectors, never snapshot refs.
// A flow written by hand may also have tags (for run --grep), a timeout
// (for its steps), named groups of steps (groups.go) and setup flows it
// needs (needs.go), and data rows it runs once each for (data.go).
// A recorded step with a target also carries its fingerprint (Fingerprint),
// what the target was, for a replay on a page that changed.
// Text may name environment variables (${PASSWORD}) so that secrets are
// never written out; $$ is a $ (text.go).
package flow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Flow is one recorded test.
type Flow struct {
	Name string
	// Tags label the flow for `e2e-mcp run --grep` (`tags: [smoke,
	// "@checkout"]`), as Playwright's test tags: one word each, an @ or
	// not, as written.
	Tags []string
	// Timeout bounds the time of the flow's steps (`timeout: 2m`); 0 when
	// the flow gives none (then run --timeout's, if any).
	Timeout time.Duration
	// Dev is the dev server to start first, if any.
	Dev *Dev
	// BaseURL resolves relative URLs when there is no dev server.
	BaseURL string
	// StorageState is a storage state file the session starts in (signed
	// in), relative to the flow's directory.
	StorageState string
	// Needs are the setup flows this one needs (`needs: login.yaml`),
	// relative to its file: run replays them first and starts this one in
	// the storage state they ended with (needs.go).
	Needs []string
	// Data are the rows the flow runs once each for (`data:`, a list of
	// maps or a CSV file beside it: DataFile, read by Load), its steps'
	// ${row.FIELD} each row's field (data.go); none for one run.
	Data     []map[string]string
	DataFile string
	// Steps are every step of the flow, in order, those inside groups
	// too: a step's number is its place here (groups.go).
	Steps []Step
	// Groups name runs of Steps (`- group: Sign in`), in the order they
	// open (groups.go); none in a recorded flow.
	Groups []Group
	// Notes are written as comments at the top of the file (Marshal): what
	// the export wants a reader to know, such as a flow that checks
	// nothing. Parse does not read them back.
	Notes []string
}

// Dev says how to start the app's dev server: a contract command, or any
// dev command line (run) with the port in $PORT.
type Dev struct {
	Run       string   `yaml:"run,omitempty"`
	Command   []string `yaml:"command,omitempty"`
	Cwd       string   `yaml:"cwd,omitempty"`
	ReadyPath string   `yaml:"readyPath,omitempty"`
}

// argNameRE is what the name of a tool's argument looks like.
var argNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)

// Step is one action and its arguments (the tool's, without browser_).
type Step struct {
	Action string
	Args   map[string]any
	// Fingerprint is what the step's target was when it was recorded
	// (nil in a flow written by hand or by an older version): a replay
	// that no longer finds the target looks for the same element by it.
	Fingerprint *Fingerprint
	// Actor is who takes the step (`actor: bob`): each actor of a flow
	// has a browser context (cookies, storage, tabs) of its own, as a
	// Playwright test opens several contexts; "" is the flow's own
	// session (actors.go).
	Actor string
	// Pos is where the step is in the file it was read from (zero for a
	// step made in code): reports point at it, as GitHub's annotations on
	// the failing step's line do.
	Pos Pos
	// dir is the directory of the flow file the step was loaded from
	// (Load), against which Tool resolves the relative files it reads
	// (FileArgs); "" for a step not read from a file.
	dir string
}

// Pos is a place in a flow file: its line and column, from 1.
type Pos struct {
	Line, Column int
}

// Checks reports whether the step asserts something of the page (an
// expect, or an accessibility audit that fails on findings) or of an HTTP
// answer (a request with expect), rather than acting or waiting.
func (s Step) Checks() bool {
	_, failOn := s.Args["failOn"]
	_, expects := s.Args["expect"]
	return s.Action == "expect" || s.Action == "audit_a11y" && failOn || s.Action == "request" && expects
}

// NoChecks is what an export says of a flow whose steps assert nothing
// (Flow.Checks): it passes whatever the page shows.
const NoChecks = "the flow checks nothing: it acts and waits but asserts no outcome, so it passes whatever the page shows; add expect steps for what the page should show"

// Checks reports whether any step of the flow asserts something.
func (f *Flow) Checks() bool {
	for _, st := range f.Steps {
		if st.Checks() {
			return true
		}
	}
	return false
}

// Fingerprint is a step's target as the recorder saw it, written beside
// the action (`fingerprint: {role: button, name: Sign up, ...}`). It is
// never passed to the tool: `e2e-mcp run` reads it only to diagnose (and,
// with --heal, repair) a target that finds nothing or more than one
// element. Every field is optional.
type Fingerprint struct {
	Role        string `yaml:"role,omitempty" json:"role,omitempty"`
	Name        string `yaml:"name,omitempty" json:"name,omitempty"`
	TestID      string `yaml:"testId,omitempty" json:"testId,omitempty"`
	Label       string `yaml:"label,omitempty" json:"label,omitempty"`
	Placeholder string `yaml:"placeholder,omitempty" json:"placeholder,omitempty"`
	// Href is a link's target as written in the page.
	Href string `yaml:"href,omitempty" json:"href,omitempty"`
	Tag  string `yaml:"tag,omitempty" json:"tag,omitempty"`
	// Type is the kind of field the target is, for a step that types or
	// sets a value: an <input>'s type (text, email, password...),
	// textarea, select or contenteditable; "" for any other element, and
	// in a fingerprint recorded before e2e-mcp noted it.
	Type string `yaml:"type,omitempty" json:"type,omitempty"`
	// Secret says the field hides what is typed into it: a password
	// field, or a text masked with CSS (-webkit-text-security). A heal
	// never moves a step onto a field of another Type or Secret.
	Secret bool `yaml:"secret,omitempty" json:"secret,omitempty"`
	// Within names the target's landmark and form ancestors, outermost
	// first, then the heading it comes under: 'form "Sign up"',
	// 'heading "Create your account"'.
	Within []string `yaml:"within,omitempty" json:"within,omitempty"`
}

// fingerprintKey is the step's key beside its action.
const fingerprintKey = "fingerprint"

// Tool is the MCP tool of a step and its arguments, every text at any
// depth expanded with the environment (lookup, as os.LookupEnv). A
// reference to an unset variable is an *UnsetError.
func (s Step) Tool(lookup func(string) (string, bool)) (string, map[string]any, error) {
	a, ok := verbOf(s.Action, s.Args)
	if !ok {
		return "", nil, fmt.Errorf("unknown action %q (known: %s)", s.Action, strings.Join(knownActions(), ", "))
	}
	args, err := MapTexts(s.Args, func(t string) (any, error) { return Expand(t, lookup) })
	if err != nil {
		return "", nil, err
	}
	m, _ := args.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	if s.dir != "" {
		for _, k := range FileArgs[a.Name] {
			if v, ok := m[k]; ok { // one not given stays out: a null is no path
				m[k] = inDir(v, s.dir)
			}
		}
	}
	return a.Tool, m, nil
}

// inDir is a file argument (a path, or a list of them) with each relative
// path joined to dir.
func inDir(v any, dir string) any {
	switch x := v.(type) {
	case string:
		if x != "" && !filepath.IsAbs(x) {
			return filepath.Join(dir, filepath.FromSlash(x))
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = inDir(e, dir)
		}
		return out
	}
	return v
}

func knownActions() []string {
	var out []string
	for _, v := range Verbs {
		out = append(out, v.Name)
	}
	sort.Strings(out)
	return out
}

// UnmarshalYAML reads a one-key map: action: value or action: {args}.
func (s *Step) UnmarshalYAML(n *yaml.Node) error {
	s.Pos = Pos{Line: n.Line, Column: n.Column}
	if n.Kind == yaml.ScalarNode { // "- back"
		s.Action, s.Args = n.Value, map[string]any{}
		return s.check(n)
	}
	if n.Kind != yaml.MappingNode || len(n.Content) < 2 {
		return fmt.Errorf("line %d: a step is one action, e.g. `- click: 'role=button[name=\"Save\"]'`", n.Line)
	}
	// The action, and beside it its fingerprint and its actor, in any
	// order.
	var key, v *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == fingerprintKey && s.Fingerprint == nil:
			s.Fingerprint = &Fingerprint{}
			if err := decodeStrict(val, s.Fingerprint); err != nil {
				return fmt.Errorf("line %d: fingerprint: %w", val.Line, err)
			}
		case k.Value == actorKey && s.Actor == "":
			if err := readActor(val, &s.Actor); err != nil {
				return err
			}
		case key == nil:
			key, v = k, val
		default:
			return fmt.Errorf("line %d: a step is one action, e.g. `- click: 'role=button[name=\"Save\"]'`, and its fingerprint and actor: %q and %q are two", n.Line, key.Value, k.Value)
		}
	}
	if key == nil {
		return fmt.Errorf("line %d: a step is one action, e.g. `- click: 'role=button[name=\"Save\"]'`; this one has none", n.Line)
	}
	s.Action, s.Args = key.Value, map[string]any{}
	if err := s.check(n); err != nil {
		return err
	}
	if err := checkTexts(v, s.Action); err != nil {
		return err
	}
	switch v.Kind {
	case yaml.MappingNode:
		if err := v.Decode(&s.Args); err != nil {
			return err
		}
		for k := range s.Args {
			if !argNameRE.MatchString(k) {
				return fmt.Errorf("line %d: %s: %q is not an argument name (such as target or text)", n.Line, s.Action, k)
			}
		}
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			break
		}
		verb, _ := verbOf(s.Action, nil)
		if verb.Short == "" {
			return fmt.Errorf("line %d: %s takes a map of arguments", n.Line, s.Action)
		}
		s.Args[verb.Short] = v.Value
	default:
		return fmt.Errorf("line %d: %s: give a value or a map of arguments", n.Line, s.Action)
	}
	return nil
}

// decodeStrict decodes a node into out, refusing a key out does not have.
func decodeStrict(n *yaml.Node, out any) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	return dec.Decode(out)
}

// checkTexts reads every text of a step's value as a flow text (Parts):
// a malformed ${ is an error with its line.
func checkTexts(n *yaml.Node, action string) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			if _, err := Parts(n.Value); err != nil {
				return fmt.Errorf("line %d: %s: %w", n.Line, action, err)
			}
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := checkTexts(n.Content[i], action); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if err := checkTexts(c, action); err != nil {
				return err
			}
		}
	case yaml.AliasNode:
		// A text defined elsewhere; a list or map is checked where the
		// step runs (Step.Tool), never followed here, where it could
		// loop.
		if n.Alias != nil && n.Alias.Kind == yaml.ScalarNode {
			return checkTexts(n.Alias, action)
		}
	}
	return nil
}

func (s *Step) check(n *yaml.Node) error {
	if _, ok := verbOf(s.Action, nil); !ok {
		return fmt.Errorf("line %d: unknown action %q (known: %s)", n.Line, s.Action, strings.Join(knownActions(), ", "))
	}
	return nil
}

// flowFile is a flow file's keys as yaml.v3 decodes them (a key it does
// not know is an error); the tags, the timeout and the steps are read from
// their nodes, which know their lines.
type flowFile struct {
	Name         string    `yaml:"name"`
	Tags         yaml.Node `yaml:"tags"`
	Timeout      yaml.Node `yaml:"timeout"`
	Dev          *Dev      `yaml:"dev"`
	BaseURL      string    `yaml:"baseURL"`
	StorageState string    `yaml:"storageState"`
	Needs        yaml.Node `yaml:"needs"`
	Data         yaml.Node `yaml:"data"`
	Steps        yaml.Node `yaml:"steps"`
}

// Parse reads a flow file's text.
func Parse(b []byte) (*Flow, error) {
	var ff flowFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&ff); err != nil {
		return nil, err
	}
	if ff.Name == "" {
		return nil, fmt.Errorf("the flow has no name")
	}
	f := &Flow{Name: ff.Name, Dev: ff.Dev, BaseURL: ff.BaseURL, StorageState: ff.StorageState}
	var err error
	if f.Tags, err = readTags(&ff.Tags); err != nil {
		return nil, err
	}
	if f.Timeout, err = readTimeout(&ff.Timeout); err != nil {
		return nil, err
	}
	if f.Needs, err = readNeeds(&ff.Needs); err != nil {
		return nil, err
	}
	if f.Data, f.DataFile, err = readData(&ff.Data); err != nil {
		return nil, err
	}
	if len(f.Needs) > 0 && f.StorageState != "" {
		return nil, fmt.Errorf("flow %s has both storageState: and needs: it starts in the storage state its setup flows end with, or in a file's, not both", f.Name)
	}
	if ff.Steps.Kind == 0 || ff.Steps.Tag == "!!null" || (ff.Steps.Kind == yaml.SequenceNode && len(ff.Steps.Content) == 0) {
		return nil, fmt.Errorf("flow %s has no steps", f.Name)
	}
	if err := f.readSteps(&ff.Steps, -1, 0); err != nil {
		return nil, err
	}
	if len(f.Steps) == 0 {
		return nil, fmt.Errorf("flow %s has no steps", f.Name)
	}
	if f.DataFile == "" { // else Load checks, once it read the file
		if err := f.checkRows(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Load reads a flow file. Its steps read relative files (FileArgs) from
// the file's directory.
func Load(path string) (*Flow, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the user names the flow files to run
	if err != nil {
		return nil, err
	}
	f, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	for i := range f.Steps {
		f.Steps[i].dir = dir
	}
	if f.DataFile != "" {
		if f.Data, err = ReadCSV(filepath.Join(dir, filepath.FromSlash(f.DataFile))); err != nil {
			return nil, fmt.Errorf("%s: data: %w", path, err)
		}
		if err := f.checkRows(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return f, nil
}

// Marshal writes a flow as YAML. Every text that holds a line break or
// another control character is written double-quoted on one line, with
// escapes: a multi-line value can never put a line of its own choosing at
// the start of a line of the file (a flow written over a script must not
// become one), and no text loses a character on its way (yaml.v3 writes a
// text that starts with a line break as a block that drops it).
//
// The document is built node by node: encoding the Flow value itself would
// make yaml.v3 write texts its own way first.
func (f *Flow) Marshal() ([]byte, error) {
	doc := mapping()
	if len(f.Notes) > 0 {
		var lines []string
		for _, n := range f.Notes {
			for _, l := range strings.Split(n, "\n") {
				lines = append(lines, "# "+strings.Map(func(r rune) rune {
					if isControl(r) {
						return ' '
					}
					return r
				}, l))
			}
		}
		doc.HeadComment = strings.Join(lines, "\n")
	}
	doc.add("name", text(f.Name))
	if len(f.Tags) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, t := range f.Tags {
			seq.Content = append(seq.Content, text(t))
		}
		doc.add("tags", seq)
	}
	if f.Timeout > 0 {
		doc.add("timeout", text(FormatDuration(f.Timeout)))
	}
	if d := f.Dev; d != nil {
		dev := mapping()
		dev.addIf("run", d.Run)
		if len(d.Command) > 0 {
			seq := &yaml.Node{Kind: yaml.SequenceNode}
			for _, c := range d.Command {
				seq.Content = append(seq.Content, text(c))
			}
			dev.add("command", seq)
		}
		dev.addIf("cwd", d.Cwd)
		dev.addIf("readyPath", d.ReadyPath)
		doc.add("dev", (*yaml.Node)(dev))
	}
	doc.addIf("baseURL", f.BaseURL)
	doc.addIf("storageState", f.StorageState)
	if len(f.Needs) > 0 {
		doc.add("needs", needsNode(f.Needs))
	}
	if f.DataFile != "" || len(f.Data) > 0 {
		doc.add("data", f.dataNode())
	}
	steps, err := f.stepsNode(0, len(f.Steps), -1)
	if err != nil {
		return nil, err
	}
	doc.add("steps", steps)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode((*yaml.Node)(doc)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MarshalYAML writes the short form when the step has only its main
// argument.
func (s Step) MarshalYAML() (any, error) { return s.node() }

// node is the step as YAML: `action: value` when the step has only its
// main argument, `action: {args}` otherwise, `action:` with none.
func (s Step) node() (*yaml.Node, error) {
	n, err := s.actionNode()
	if err != nil {
		return n, err
	}
	if s.Actor != "" {
		(*yamlMap)(n).add(actorKey, text(s.Actor))
	}
	if s.Fingerprint != nil {
		(*yamlMap)(n).add(fingerprintKey, s.Fingerprint.node())
	}
	return n, nil
}

// node is the fingerprint as a one-line YAML map, its keys in a fixed
// order.
func (fp *Fingerprint) node() *yaml.Node {
	m := mapping()
	m.Style = yaml.FlowStyle
	m.addIf("role", fp.Role)
	m.addIf("name", fp.Name)
	m.addIf("testId", fp.TestID)
	m.addIf("label", fp.Label)
	m.addIf("placeholder", fp.Placeholder)
	m.addIf("href", fp.Href)
	m.addIf("tag", fp.Tag)
	m.addIf("type", fp.Type)
	if fp.Secret {
		m.add("secret", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if len(fp.Within) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, w := range fp.Within {
			seq.Content = append(seq.Content, text(w))
		}
		m.add("within", seq)
	}
	return (*yaml.Node)(m)
}

// actionNode is the step's action and arguments.
func (s Step) actionNode() (*yaml.Node, error) {
	m := mapping()
	v, _ := verbOf(s.Action, s.Args)
	short := v.Short
	if len(s.Args) == 0 {
		m.add(s.Action, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: ""})
		return (*yaml.Node)(m), nil
	}
	if v, ok := s.Args[short]; ok && short != "" && len(s.Args) == 1 {
		n, err := valueNode(v)
		if err != nil {
			return nil, err
		}
		m.add(s.Action, n)
		return (*yaml.Node)(m), nil
	}
	n, err := valueNode(s.Args)
	if err != nil {
		return nil, err
	}
	m.add(s.Action, n)
	return (*yaml.Node)(m), nil
}

// yamlMap is a mapping node under construction.
type yamlMap yaml.Node

func mapping() *yamlMap { return &yamlMap{Kind: yaml.MappingNode} }

func (m *yamlMap) add(key string, v *yaml.Node) {
	m.Content = append(m.Content, text(key), v)
}

// addIf adds a text unless it is empty.
func (m *yamlMap) addIf(key, v string) {
	if v != "" {
		m.add(key, text(v))
	}
}

// text is a string scalar: double-quoted when it holds a control character
// (yaml.v3 quotes it anyway when it would read as another type).
func text(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.IndexFunc(s, isControl) >= 0 {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// valueNode is an argument value (as JSON decodes it: texts, numbers,
// booleans, null, lists and maps) as YAML; map keys are sorted.
func valueNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case string:
		return text(x), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := mapping()
		for _, k := range keys {
			n, err := valueNode(x[k])
			if err != nil {
				return nil, err
			}
			m.add(k, n)
		}
		return (*yaml.Node)(m), nil
	case []any:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n, err := valueNode(e)
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
		}
		return seq, nil
	case []string:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			seq.Content = append(seq.Content, text(e))
		}
		return seq, nil
	}
	// Numbers, booleans, null: no text of the agent's in them.
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return &n, nil
}

// isControl reports the characters a one-line text must not carry raw:
// line breaks (also Unicode's), tabs and the other C0/C1 controls.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0x85
}

// CheckName says what is wrong with a flow name, or nil: a name is one line
// of printable text.
func CheckName(name string) error {
	if strings.IndexFunc(name, isControl) >= 0 {
		return fmt.Errorf("a flow name is one line of text, without line breaks or control characters")
	}
	if len(name) > 200 {
		return fmt.Errorf("a flow name has at most 200 bytes, this one %d", len(name))
	}
	return nil
}
