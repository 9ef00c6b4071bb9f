package logs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func write(t *testing.T, path, s string, appendTo bool) {
	t.Helper()
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.log")
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line %d GET /item/%d\n", i, i)
	}
	write(t, path, b.String(), false)

	c, err := Read(path, ReadOptions{Since: -1, Lines: 5})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Lines, "|") != "line 296 GET /item/296|line 297 GET /item/297|line 298 GET /item/298|line 299 GET /item/299|line 300 GET /item/300" || c.Dropped != 295 {
		t.Errorf("tail = %q (dropped %d)", c.Lines, c.Dropped)
	}
	// Grep, then only what is new since the cursor; a partial line waits.
	c2, _ := Read(path, ReadOptions{Since: -1, Grep: regexp.MustCompile(`/item/2\d\d$`), Lines: 1000})
	if len(c2.Lines) != 100 {
		t.Errorf("grep found %d lines, want 100", len(c2.Lines))
	}
	write(t, path, "line 301 new\nline 302 half", true)
	c3, _ := Read(path, ReadOptions{Since: c.Cursor})
	if strings.Join(c3.Lines, "|") != "line 301 new" {
		t.Errorf("since cursor = %q", c3.Lines)
	}
	write(t, path, " done\n", true)
	c4, _ := Read(path, ReadOptions{Since: c3.Cursor})
	if strings.Join(c4.Lines, "|") != "line 302 half done" {
		t.Errorf("the completed line = %q", c4.Lines)
	}
	// A rotated (shorter) file is read from its start.
	write(t, path, "fresh\n", false)
	c5, _ := Read(path, ReadOptions{Since: c4.Cursor})
	if !c5.Reset || strings.Join(c5.Lines, "|") != "fresh" {
		t.Errorf("after rotation = %+v", c5)
	}
	// MaxBytes bounds the read and says so.
	write(t, path, b.String(), false)
	c6, _ := Read(path, ReadOptions{Since: 0, MaxBytes: 100, Lines: 1000})
	if c6.Skipped == 0 || len(c6.Lines) > 5 || !strings.HasPrefix(c6.Lines[len(c6.Lines)-1], "line 300") {
		t.Errorf("bounded read = %+v", c6)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), ReadOptions{}); err == nil {
		t.Error("reading a missing file did not fail")
	}
}
