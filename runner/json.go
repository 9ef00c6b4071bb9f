package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// jsonReport writes the run as one JSON document (run --reporter json,
// runDoc) when it ends: to --json's file, or to stdout.
type jsonReport struct {
	path    string // "" for stdout
	stdout  io.Writer
	o       Options
	secrets *redact.Set
}

func (j *jsonReport) flowEnded(flowResult) {}

func (j *jsonReport) runEnded(s summary) error {
	return writeJSON(j.path, j.stdout, docOf(s, j.o, j.secrets, samePath))
}

// writeJSON writes a document as indented JSON to the file path, or to
// stdout when path is "".
func writeJSON(path string, stdout io.Writer, doc any) error {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "" {
		_, err := stdout.Write(b)
		return err
	}
	if err := mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), b); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	return nil
}
