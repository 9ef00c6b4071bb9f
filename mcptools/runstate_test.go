package mcptools

import (
	"reflect"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/storage"
)

// TestMergeStates: a flow that needs several setup flows starts in their
// states merged in order: a later cookie (same name, domain and path) and
// item (same origin and name) win, the others are all kept.
func TestMergeStates(t *testing.T) {
	a := &SavedState{st: &storage.State{
		Cookies: []storage.Cookie{{Name: "sid", Value: "a", Domain: "localhost", Path: "/"}, {Name: "lang", Value: "en", Domain: "localhost", Path: "/"}},
		Origins: []storage.OriginState{{Origin: "http://localhost:1", LocalStorage: []storage.NameValue{{Name: "user", Value: "ada"}, {Name: "theme", Value: "dark"}}}},
	}}
	b := &SavedState{st: &storage.State{
		Cookies: []storage.Cookie{{Name: "sid", Value: "b", Domain: "localhost", Path: "/"}, {Name: "sid", Value: "admin", Domain: "localhost", Path: "/admin"}},
		Origins: []storage.OriginState{
			{Origin: "http://localhost:1", LocalStorage: []storage.NameValue{{Name: "user", Value: "bob"}}},
			{Origin: "http://localhost:2", LocalStorage: []storage.NameValue{{Name: "x", Value: "1"}}},
		},
	}}
	got := mergeStates([]*SavedState{a, nil, b})
	want := &storage.State{
		Cookies: []storage.Cookie{{Name: "sid", Value: "b", Domain: "localhost", Path: "/"}, {Name: "lang", Value: "en", Domain: "localhost", Path: "/"},
			{Name: "sid", Value: "admin", Domain: "localhost", Path: "/admin"}},
		Origins: []storage.OriginState{
			{Origin: "http://localhost:1", LocalStorage: []storage.NameValue{{Name: "user", Value: "bob"}, {Name: "theme", Value: "dark"}}},
			{Origin: "http://localhost:2", LocalStorage: []storage.NameValue{{Name: "x", Value: "1"}}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged:\n%+v\nwant\n%+v", got, want)
	}
	if a.st.Cookies[0].Value != "a" || a.st.Origins[0].LocalStorage[0].Value != "ada" {
		t.Errorf("the merge changed a state it read: %+v", a.st)
	}
}
