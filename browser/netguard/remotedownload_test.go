package netguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveDataURL: a data: URL's bytes, base64 (padded or not) or
// percent-encoded text, are what a remote browser's download of it saves,
// unless there are more than the limit.
func TestSaveDataURL(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ url, want, err string }{
		{"data:text/csv;base64,YSxiCjEsMgo=", "a,b\n1,2\n", ""},
		{"data:text/csv;base64,YSxiCjEsMgo", "a,b\n1,2\n", ""},
		{"data:text/plain,a%2Cb%0A", "a,b\n", ""},
		{"data:,", "", ""},
		{"data:text/plain;base64,%%%", "", "base64"},
		{"data:text/plain", "", "without a comma"},
		{"data:text/plain,123456789", "", "larger than 8 bytes"},
	} {
		path := filepath.Join(dir, fmt.Sprint(i))
		n, err := saveDataURL(c.url, path, 8)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one about %s", c.url, err, c.err)
			}
			continue
		}
		b, rerr := os.ReadFile(path)
		if err != nil || rerr != nil || string(b) != c.want || n != int64(len(c.want)) {
			t.Errorf("%s: saved %q (%d bytes), %v %v; want %q", c.url, b, n, err, rerr, c.want)
		}
	}
}
