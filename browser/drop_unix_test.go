//go:build unix

package browser

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadDropFiles: the files a drop carries into the page are refused by
// their size before a byte is read (a sparse 17 MB file), together as
// well as each, and a FIFO put where a file was is refused at once rather
// than waited on (os.ReadFile waits for a writer forever).
func TestReadDropFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "note.txt")
	if err := os.WriteFile(small, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "big.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(17 << 20); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	ten := filepath.Join(dir, "ten.bin")
	if err := os.WriteFile(ten, make([]byte, 10<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}

	got, err := readDropFiles([]string{small}, maxDropBytes)
	if err != nil || len(got) != 1 || got[0].Name != "note.txt" || got[0].B64 != "aGVsbG8=" || !strings.HasPrefix(got[0].Type, "text/plain") {
		t.Fatalf("a small file: %+v, %v", got, err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{sparse}, "big.bin is 17,825,792 bytes: files and data dropped together take at most 16 MB of files; nothing was read"},
		{[]string{ten, ten}, "ten.bin is 10,485,760 bytes"},
		{[]string{fifo}, "pipe is not a regular file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := readDropFiles(c.files, maxDropBytes)
			done <- err
		}()
		select {
		case err := <-done:
			var be *Error
			if !errors.As(err, &be) || be.Kind != KindInvalidInput || !strings.Contains(be.Message, c.want) {
				t.Errorf("%v: %v, want invalid input saying %q", c.files, err, c.want)
			}
		case <-time.After(10 * time.Second):
			// Not a timing bound: a call that waits on a FIFO never ends.
			t.Fatalf("%v: still reading after 10 s", c.files)
		}
	}
}
