package browser

import (
	"regexp"
	"strings"
	"testing"
)

func TestParseURLPattern(t *testing.T) {
	tests := []struct {
		pattern string
		rel     bool
		match   []string
		nomatch []string
	}{
		{"**/done?step=2", false, []string{"http://h:1/wait/done?step=2"}, []string{"http://h:1/wait/done?step=3", "http://h:1/wait/doneXstep=2"}},
		{"http://h/*/x", false, []string{"http://h/a/x"}, []string{"http://h/a/b/x"}},
		{"/users/*", true, []string{"/users/7"}, []string{"/users/7/edit", "/admin/users/7"}},
		{"/users/", false, []string{"http://h/users/7"}, []string{"http://h/Users"}}, // a regular expression
		{`/USERS\/\d+/i`, false, []string{"http://h/users/7"}, []string{"http://h/users/x"}},
	}
	for _, tc := range tests {
		m, err := parseURLPattern(tc.pattern)
		if err != nil {
			t.Fatalf("parseURLPattern(%q): %v", tc.pattern, err)
		}
		if m.rel != tc.rel {
			t.Errorf("parseURLPattern(%q).rel = %v, want %v", tc.pattern, m.rel, tc.rel)
		}
		// These sources mean the same in Go's syntax as in JavaScript's.
		src := m.src
		if strings.Contains(m.flags, "i") {
			src = "(?i)" + src
		}
		re := regexp.MustCompile(src)
		for _, u := range tc.match {
			if !re.MatchString(u) {
				t.Errorf("%q (regex %s) does not match %s", tc.pattern, m.src, u)
			}
		}
		for _, u := range tc.nomatch {
			if re.MatchString(u) {
				t.Errorf("%q (regex %s) matches %s", tc.pattern, m.src, u)
			}
		}
	}
}
