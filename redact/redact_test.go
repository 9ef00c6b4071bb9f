package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSetMasksItsValuesAndItsParents(t *testing.T) {
	root := NewSet(nil)
	root.Add("ci-secret-1")
	s := NewSet(root)
	s.Add("hunter2", "", "hunter2-and-more")
	other := NewSet(root)
	other.Add("other-tenant-pw")

	got := s.String("typed hunter2-and-more, then hunter2, env ci-secret-1, and other-tenant-pw")
	want := "typed •••, then •••, env •••, and other-tenant-pw"
	if got != want {
		t.Fatalf("String:\n got %q\nwant %q", got, want)
	}
	if !s.Has("ci-secret-1") || s.Has("other-tenant-pw") {
		t.Fatal("Has must see the set and its parent, never a sibling")
	}
	// The process's set holds every scope's values, for the logs.
	for _, v := range []string{"ci-secret-1", "hunter2", "other-tenant-pw"} {
		if !Process.Has(v) {
			t.Fatalf("Process lacks %q", v)
		}
	}
	if got := s.Except("hunter2 and ci-secret-1", []string{"hunter2"}); got != "hunter2 and •••" {
		t.Fatalf("Except: %q", got)
	}
}

func TestShortValuesAreMaskedOnlyWhereTheyStand(t *testing.T) {
	s := NewSet(nil)
	s.Add("ab")
	if got := s.String("a cab"); got != "a cab" {
		t.Fatalf("a two-character secret masked inside text: %q", got)
	}
	args := s.Args(map[string]any{"password": "ab", "text": "cab"})
	if args["password"] != Mask || args["text"] != "cab" {
		t.Fatalf("Args: %v", args)
	}
}

func TestValueMasksKeysHeadersAndValuesAtAnyDepth(t *testing.T) {
	s := NewSet(nil)
	s.Add("s3cr3t-value")
	in := map[string]any{
		"httpPassword": "pw-by-key",
		"headers":      []any{"Authorization: Bearer abc.def", "X-Trace: 1", "Cookie: sid=1"},
		"fields": []any{
			map[string]any{"target": "#pw", "value": "s3cr3t-value"},
			map[string]any{"apiKey": "k-1"},
		},
		"nested":  map[string]string{"Authorization": "Basic xyz", "Accept": "text/html"},
		"count":   3,
		"comment": "the value s3cr3t-value again",
	}
	got := s.Value(in).(map[string]any)
	b, _ := json.Marshal(got)
	for _, leak := range []string{"pw-by-key", "abc.def", "sid=1", "s3cr3t-value", "k-1", "Basic xyz"} {
		if bytes.Contains(b, []byte(leak)) {
			t.Errorf("%q leaked: %s", leak, b)
		}
	}
	for _, kept := range []string{"X-Trace: 1", "text/html", "#pw", `"count":3`} {
		if !bytes.Contains(b, []byte(kept)) {
			t.Errorf("%q lost: %s", kept, b)
		}
	}
	if in["httpPassword"] != "pw-by-key" {
		t.Fatal("Value changed its input")
	}
}

func TestBytesMasksJSONEscapedForms(t *testing.T) {
	s := NewSet(nil)
	s.Add(`pa"ss\word`)
	line, _ := json.Marshal(map[string]string{"msg": `typed pa"ss\word`})
	if got := s.Bytes(line); bytes.Contains(got, []byte(`ss\\word`)) || !bytes.Contains(got, []byte(Mask)) {
		t.Fatalf("escaped form not masked: %s", got)
	}
	var out bytes.Buffer
	w := Writer(&out, s)
	if _, err := w.Write([]byte("raw pa\"ss\\word\n")); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "word") {
		t.Fatalf("Writer: %q", out.String())
	}
}

func TestJSONKnowsTheProtocolsShapes(t *testing.T) {
	s := NewSet(nil)
	doc := `{"method":"Fetch.continueWithAuth","params":{"authChallengeResponse":{"response":"ProvideCredentials","username":"u","password":"basic-pw"}}}`
	if got := string(s.JSON([]byte(doc))); strings.Contains(got, "basic-pw") {
		t.Fatalf("password: %s", got)
	}
	doc = `{"cookies":[{"name":"sid","value":"cookie-v","domain":"a.test"}],"headers":[{"name":"Authorization","value":"Bearer t0k"},{"name":"Accept","value":"*/*"}]}`
	got := string(s.JSON([]byte(doc)))
	if strings.Contains(got, "cookie-v") || strings.Contains(got, "t0k") || !strings.Contains(got, "*/*") {
		t.Fatalf("shapes: %s", got)
	}
	if got := string(s.JSON([]byte("not json, Authorization"))); got != "not json, Authorization" {
		t.Fatalf("text: %s", got)
	}
}

func TestHeaderLine(t *testing.T) {
	for _, c := range []struct {
		line   string
		secret bool
	}{
		{"Authorization: Bearer x", true}, {"authorization:Basic y", true}, {"X-Api-Key: k", true},
		{"X-Session-Token: t", true}, {"Accept: */*", false}, {"Authorization:", false}, {"no colon", false},
	} {
		if _, _, got := HeaderLine(c.line); got != c.secret {
			t.Errorf("%q: secret=%v", c.line, got)
		}
	}
}

func TestBound(t *testing.T) {
	s := NewSet(nil)
	for i := 0; i < maxValues+10; i++ {
		s.Add(strings.Repeat("x", 3) + string(rune('a'+i%26)) + strings.Repeat("y", i))
	}
	if n := len(s.Values()); n != maxValues {
		t.Fatalf("%d values kept", n)
	}
}

// TestURLEncodedForms: a password a page sends in a form body or a query
// string is URL-encoded on the way (a form's + for a space and %21 for !,
// encodeURIComponent's %20), and a trace holds the page's requests: the
// encoded forms are masked as the value is, by String and Bytes alike, and
// Except keeps a kept value's encoded forms too.
func TestURLEncodedForms(t *testing.T) {
	s := NewSet(nil)
	s.Add("hunter2!x y~*")
	for _, in := range []string{
		"email=ada%40example.com&password=hunter2%21x+y%7E*", // a form (URLSearchParams)
		"/login?pw=hunter2!x%20y~*",                          // encodeURIComponent
		"pw=hunter2%21x%20y~%2A",                             // Go's url.PathEscape and others
	} {
		if got := s.String(in); strings.Contains(got, "hunter2") {
			t.Errorf("String(%q) = %q: the encoded password is left", in, got)
		}
		if got := string(s.Bytes([]byte(in))); strings.Contains(got, "hunter2") {
			t.Errorf("Bytes(%q) = %q: the encoded password is left", in, got)
		}
	}
	if got := s.Except("pw=hunter2%21x+y%7E*", []string{"hunter2!x y~*"}); got != "pw=hunter2%21x+y%7E*" {
		t.Errorf("Except masked the encoded form of a kept value: %q", got)
	}
}

// TestShortValuesEncodedAreNotMaskedInText: a secret under MinLen is masked
// only where it stands, and so are its encoded forms, however long.
func TestShortValuesEncodedAreNotMaskedInText(t *testing.T) {
	s := NewSet(nil)
	s.Add("a!", `b"`)
	for _, in := range []string{"a%21b", `{"msg":"say b\" loud"}`} {
		if got := s.String(in); got != in {
			t.Errorf("String(%q) = %q", in, got)
		}
		if got := string(s.Bytes([]byte(in))); got != in {
			t.Errorf("Bytes(%q) = %q", in, got)
		}
	}
}

// TestWordPasswordsAreMaskedAsWords: a password that is an ordinary word
// (issue 37: "short" turned the heading "Keyboard shortcuts" into
// "Keyboard •••cuts") is masked where it is a word of its own, never
// inside another word; where it stands in a form body, a JSON string or a
// query, escapes and all, it is still a word. A long value is masked
// wherever it occurs.
func TestWordPasswordsAreMaskedAsWords(t *testing.T) {
	s := NewSet(nil)
	s.Add("short", "test", "admin", "password", "Password1", "correct-horse-battery")
	for _, c := range []struct{ in, want string }{
		{"Keyboard shortcuts", "Keyboard shortcuts"},
		{"navigate: /shortcuts", "navigate: /shortcuts"},
		{"The latest tests passed", "The latest tests passed"},
		{"Admin administrator admins", "Admin administrator admins"},
		{"Change your password here", "Change your ••• here"},
		{"Passwords, password_reset, Password10", "Passwords, password_reset, Password10"},
		{"typed short, then test.", "typed •••, then •••."},
		{`{"user":"admin","pw":"Password1"}`, `{"user":"•••","pw":"•••"}`},
		{"user=admin&pw=Password1!", "user=•••&pw=•••!"},
		{"q=%22short%22", "q=%22•••%22"},
		{`"line\nshort\u0022"`, `"line\n•••\u0022"`},
		{"pw:short", "pw:•••"},
		{"écrit short", "écrit •••"},
		{"éshort", "éshort"},
		{"xcorrect-horse-batteryx", "x•••x"},
	} {
		if got := s.String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(s.Bytes([]byte(c.in))); got != c.want {
			t.Errorf("Bytes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Find("a short, shortcut: short", "short"); len(got) != 2 || got[0] != [2]int{2, 7} || got[1] != [2]int{19, 24} {
		t.Errorf("Find = %v", got)
	}
}

// TestPositions: an answer shows its agent the arguments it gave, with
// secrets masked only where they stand: a secret key's value, a
// credential header, a string that is a secret whole (however short);
// never inside other text.
func TestPositions(t *testing.T) {
	s := NewSet(nil)
	s.Add("short", "pw")
	got := s.Positions(map[string]any{
		"text":     "short",
		"password": "anything",
		"headers":  []any{"Authorization: Bearer xyz", "X-Trace: on"},
		"url":      "/shortcuts?x=short",
		"n":        2,
		"fields":   []any{map[string]any{"value": "pw"}},
	})
	b, _ := json.Marshal(got)
	want := `{"fields":[{"value":"•••"}],"headers":["Authorization: •••","X-Trace: on"],"n":2,"password":"•••","text":"•••","url":"/shortcuts?x=short"}`
	if string(b) != want {
		t.Errorf("Positions:\n got %s\nwant %s", b, want)
	}
}

// TestProcessBoundIsPerScope: the server's log masks every open scope's
// values; one scope that marks hundreds of secrets pushes out only its own
// oldest, never another scope's, and a closed scope's are forgotten.
func TestProcessBoundIsPerScope(t *testing.T) {
	quiet, busy := NewSet(nil), NewSet(nil)
	quiet.Add("quiet-scope-secret")
	for i := 0; i < 3*maxValues; i++ {
		busy.Add(fmt.Sprintf("busy-scope-secret-%04d", i))
	}
	if got := Process.String("log: quiet-scope-secret"); got != "log: •••" {
		t.Errorf("another scope's secrets pushed this one out of the log mask: %q", got)
	}
	if got := Process.String("log: busy-scope-secret-0000"); got == "log: •••" {
		t.Errorf("a scope keeps more than %d values", maxValues)
	}
	if got := Process.String("log: " + fmt.Sprintf("busy-scope-secret-%04d", 3*maxValues-1)); got != "log: •••" {
		t.Errorf("the busy scope's newest value is not masked: %q", got)
	}
	busy.Close()
	quiet.Close()
	if Process.Has("quiet-scope-secret") || len(quiet.Values()) != 0 {
		t.Error("a closed scope's values are kept")
	}
	Process.mu.RLock()
	_, kept := Process.members[busy]
	Process.mu.RUnlock()
	if kept {
		t.Error("Process keeps a closed set")
	}
}
