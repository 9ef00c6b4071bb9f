package flow

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// A flow may need other flows (`needs: login.yaml`, or a list): setup
// flows, as Playwright Test's setup projects. e2e-mcp run replays each
// needed flow once per run, before the flows that need it, and each of
// those starts in the storage state (cookies, web storage) its setup flows
// ended with. The paths are relative to the flow's file, written with /.
// A flow that needs others starts in their state, not in a storageState:
// file, so a flow has one or the other.

// readNeeds reads needs: a path, or a list of paths, each a YAML file.
func readNeeds(n *yaml.Node) ([]string, error) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	var out []string
	for _, it := range items {
		if it.Kind != yaml.ScalarNode || it.ShortTag() != "!!str" {
			return nil, fmt.Errorf("line %d: needs is a flow file or a list of them, e.g. `needs: login.yaml`", it.Line)
		}
		if err := CheckNeed(it.Value); err != nil {
			return nil, fmt.Errorf("line %d: needs: %w", it.Line, err)
		}
		out = append(out, it.Value)
	}
	return out, nil
}

// CheckNeed says what is wrong with a path of needs:, or nil: a YAML file,
// relative to the flow's (absolute paths are not, so that a suite moves
// with its directory).
func CheckNeed(p string) error {
	ext := strings.ToLower(path.Ext(p))
	switch {
	case p == "":
		return fmt.Errorf("an empty path: name the setup flow's file, relative to this one")
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || len(p) > 1 && p[1] == ':':
		return fmt.Errorf("%q is absolute: name the setup flow's file relative to this one", p)
	case ext != ".yaml" && ext != ".yml":
		return fmt.Errorf("%q is not a flow file (*.yaml or *.yml)", p)
	case strings.IndexFunc(p, isControl) >= 0:
		return fmt.Errorf("%q: a path is one line of text", p)
	}
	return nil
}

// needsNode is needs: as Marshal writes it: one path, or a list.
func needsNode(needs []string) *yaml.Node {
	if len(needs) == 1 {
		return text(needs[0])
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, n := range needs {
		seq.Content = append(seq.Content, text(n))
	}
	return seq
}
