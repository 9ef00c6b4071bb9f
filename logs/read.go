package logs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// ReadOptions select what [Read] returns from a log file.
type ReadOptions struct {
	// Lines is the most lines to return (the last ones); 0 means 100.
	Lines int
	// Grep keeps only lines matching this regular expression.
	Grep *regexp.Regexp
	// Since is a cursor from an earlier Read: only what was written after
	// it is read. -1 (or any negative) means from the end's last Lines.
	Since int64
	// MaxBytes bounds how much of the file is read; 0 means 256 KiB.
	MaxBytes int64
}

// Chunk is what Read found.
type Chunk struct {
	Lines []string
	// Cursor is where the next Read with Since should start.
	Cursor int64
	// Skipped says how many bytes were not read because of MaxBytes
	// (the read starts that much later).
	Skipped int64
	// Dropped is how many matching lines were left out beyond Lines.
	Dropped int
	// Reset is true when the file was shorter than the cursor (rotated or
	// truncated) and was read from its start.
	Reset bool
}

// Read returns the last lines of a log file, or the lines written since a
// cursor, filtered and bounded, and a cursor for the next call. Partial last
// lines (still being written) are left for the next call.
func Read(path string, o ReadOptions) (*Chunk, error) {
	if o.Lines <= 0 {
		o.Lines = 100
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 10
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	c := &Chunk{}
	start := o.Since
	if start < 0 {
		start = max(0, size-o.MaxBytes)
	} else if start > size {
		c.Reset, start = true, 0
	}
	if size-start > o.MaxBytes {
		c.Skipped = size - o.MaxBytes - start
		start = size - o.MaxBytes
	}
	buf := make([]byte, size-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	// Keep whole lines: drop a partial first line when the read started
	// mid-file, and leave a partial last line for the next call.
	if start > 0 && (o.Since < 0 || c.Skipped > 0) {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf, start = buf[i+1:], start+int64(i+1)
		}
	}
	end := bytes.LastIndexByte(buf, '\n') + 1
	c.Cursor = start + int64(end)
	for _, l := range strings.Split(string(buf[:end]), "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" || (o.Grep != nil && !o.Grep.MatchString(l)) {
			continue
		}
		c.Lines = append(c.Lines, l)
	}
	if len(c.Lines) > o.Lines {
		c.Dropped = len(c.Lines) - o.Lines
		c.Lines = c.Lines[c.Dropped:]
	}
	return c, nil
}
