package redact

import (
	"bytes"
	"encoding/json"
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
