package flow

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// A flow may run once per row of a data table, as a Playwright test in a
// `for (const row of rows)` loop: `data:` is a list of maps (field: value)
// or a CSV file beside the flow (`data: users.csv`, its first line the
// fields), and `${row.FIELD}` in a text of its steps is that row's field.
// A row's `name` field names its run (`sign-up [ada]`); without one the
// run is `sign-up [row 2]`. A step that reads a field a row does not have
// is an error when the flow is read, naming the row and the field.

// rowPrefix starts a reference to a data row's field: ${row.email}.
const rowPrefix = "row."

// maxRows bounds a data table.
const maxRows = 10000

// readData reads data: a list of maps of scalars (the rows), or the path
// of a CSV file (relative to the flow's file; Load reads it).
func readData(n *yaml.Node) (rows []map[string]string, file string, err error) {
	switch {
	case n.Kind == 0 || n.Tag == "!!null":
		return nil, "", nil
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		if ext := strings.ToLower(filepath.Ext(n.Value)); ext != ".csv" || filepath.IsAbs(n.Value) || strings.HasPrefix(n.Value, "/") {
			return nil, "", fmt.Errorf("line %d: data: %q: name a CSV file beside the flow (relative to it), or give a list of rows", n.Line, n.Value)
		}
		return nil, n.Value, nil
	case n.Kind != yaml.SequenceNode || len(n.Content) == 0:
		return nil, "", fmt.Errorf("line %d: data is a list of rows (maps of field: value) or a CSV file, e.g. `data: users.csv`", n.Line)
	}
	if len(n.Content) > maxRows {
		return nil, "", fmt.Errorf("line %d: data has %d rows, more than %d", n.Line, len(n.Content), maxRows)
	}
	for i, r := range n.Content {
		if r.Kind != yaml.MappingNode {
			return nil, "", fmt.Errorf("line %d: data row %d is not a map of field: value", r.Line, i+1)
		}
		row := map[string]string{}
		for k := 0; k+1 < len(r.Content); k += 2 {
			key, v := r.Content[k], r.Content[k+1]
			if !isName(key.Value) {
				return nil, "", fmt.Errorf("line %d: data row %d: %q is not a field name (a letter or _, then letters, digits or _)", key.Line, i+1, key.Value)
			}
			if v.Kind != yaml.ScalarNode {
				return nil, "", fmt.Errorf("line %d: data row %d: %s is not a text or a number", v.Line, i+1, key.Value)
			}
			if v.Tag == "!!null" {
				row[key.Value] = ""
				continue
			}
			row[key.Value] = v.Value
		}
		rows = append(rows, row)
	}
	return rows, "", nil
}

// ReadCSV reads a data table from a CSV file: its first line the fields
// (names, as in ${row.FIELD}), each further line a row.
func ReadCSV(path string) ([]map[string]string, error) {
	fh, err := os.Open(path) //nolint:gosec // a data file beside a flow the user runs
	if err != nil {
		return nil, err
	}
	defer func() { _ = fh.Close() }()
	r := csv.NewReader(fh)
	head, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty: the first line names the fields", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, h := range head {
		head[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !isName(head[i]) {
			return nil, fmt.Errorf("%s: line 1: %q is not a field name (a letter or _, then letters, digits or _)", path, h)
		}
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(rows) == maxRows {
			return nil, fmt.Errorf("%s: more than %d rows", path, maxRows)
		}
		row := map[string]string{}
		for i, h := range head {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows under its line of fields", path)
	}
	return rows, nil
}

// rowFields are the fields of the data row the flow's steps read, each
// with the first step (from 1) that reads it.
func (f *Flow) rowFields() (map[string]int, error) {
	fields := map[string]int{}
	for i, st := range f.Steps {
		_, err := MapTexts(st.Args, func(s string) (any, error) {
			parts, err := Parts(s)
			for _, p := range parts {
				if _, ok := fields[p.Row]; p.Row != "" && !ok {
					fields[p.Row] = i + 1
				}
			}
			return s, err
		})
		if err != nil {
			return nil, fmt.Errorf("step %d, %s: %w", i+1, st.Action, err)
		}
	}
	return fields, nil
}

// checkRows says what is wrong with the flow's data and the fields its
// steps read: a field a row does not have (naming the row, the field and
// the step), a field read with no data to read it from.
func (f *Flow) checkRows() error {
	fields, err := f.rowFields()
	if err != nil {
		return err
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(f.Data) == 0 {
		if len(names) > 0 {
			return fmt.Errorf("flow %s: step %d reads ${row.%s}, and the flow has no data: rows to read it from", f.Name, fields[names[0]], names[0])
		}
		return nil
	}
	for i, row := range f.Data {
		for _, n := range names {
			if _, ok := row[n]; !ok {
				return fmt.Errorf("flow %s: data row %d has no field %s (step %d reads ${row.%s})", f.Name, i+1, n, fields[n], n)
			}
		}
	}
	return nil
}

// RowName is the name of the flow's run for its i-th data row (from 0):
// "NAME [its name field]", else "NAME [row i+1]".
func (f *Flow) RowName(i int) string {
	if n := strings.TrimSpace(f.Data[i]["name"]); n != "" && CheckName(n) == nil {
		return fmt.Sprintf("%s [%s]", f.Name, n)
	}
	return fmt.Sprintf("%s [row %d]", f.Name, i+1)
}

// ForRow is the flow for its i-th data row (from 0): named RowName(i),
// every ${row.FIELD} of its steps replaced by the row's field, written as
// a literal (a $ in it stays a $); the environment's references stay for
// the run to read. It has no data of its own.
func (f *Flow) ForRow(i int) (*Flow, error) {
	if i < 0 || i >= len(f.Data) {
		return nil, fmt.Errorf("flow %s has no data row %d", f.Name, i+1)
	}
	row := f.Data[i]
	g := *f
	g.Name, g.Data, g.DataFile = f.RowName(i), nil, ""
	g.Steps = make([]Step, len(f.Steps))
	for k, st := range f.Steps {
		args, err := MapTexts(st.Args, func(s string) (any, error) { return rowText(s, row, i) })
		if err != nil {
			return nil, fmt.Errorf("flow %s: step %d, %s: %w", f.Name, k+1, st.Action, err)
		}
		st.Args, _ = args.(map[string]any)
		if st.Args == nil {
			st.Args = map[string]any{}
		}
		g.Steps[k] = st
	}
	return &g, nil
}

// rowText is a flow text with its ${row.FIELD} replaced by the row's
// fields, as literals; a text that reads none is returned as it is.
func rowText(s string, row map[string]string, i int) (string, error) {
	parts, err := Parts(s)
	if err != nil {
		return "", err
	}
	reads := false
	for _, p := range parts {
		reads = reads || p.Row != ""
	}
	if !reads {
		return s, nil
	}
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Row != "":
			v, ok := row[p.Row]
			if !ok {
				return "", fmt.Errorf("data row %d has no field %s", i+1, p.Row)
			}
			b.WriteString(Escape(v))
		case p.Var != "":
			b.WriteString("${" + p.Var + "}")
		default:
			b.WriteString(Escape(p.Text))
		}
	}
	return b.String(), nil
}

// dataNode is data: as Marshal writes it: the CSV file's path, or the
// rows, each a map of its fields in order.
func (f *Flow) dataNode() *yaml.Node {
	if f.DataFile != "" {
		return text(f.DataFile)
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, row := range f.Data {
		keys := make([]string, 0, len(row))
		for k := range row {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := mapping()
		m.Style = yaml.FlowStyle
		for _, k := range keys {
			m.add(k, text(row[k]))
		}
		seq.Content = append(seq.Content, (*yaml.Node)(m))
	}
	return seq
}
