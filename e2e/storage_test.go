package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// authAPI is a sign-in the server keeps: POST /auth/login sets an HttpOnly
// session cookie; GET /auth/me says whose it is.
func authAPI(mux *http.ServeMux, _ *fixture) {
	var mu sync.Mutex
	users := map[string]string{}
	mux.HandleFunc("POST /auth/login", func(w http.ResponseWriter, r *http.Request) {
		name, _ := io.ReadAll(r.Body)
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		sid := hex.EncodeToString(b)
		mu.Lock()
		users[sid] = string(name)
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: sid, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	})
	mux.HandleFunc("GET /auth/me", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("sid")
		mu.Lock()
		user := ""
		if err == nil {
			user = users[c.Value]
		}
		mu.Unlock()
		if user == "" {
			http.Error(w, "signed out", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"user": user})
	})
}

// TestStorageState: sign in in session A and save its state; session B
// put into that state is signed in with no login step (cookie and local
// storage); session C never sees A's cookies; the file is 0600 and the
// answers never show the cookie's value.
func TestStorageState(t *testing.T) {
	f := newFixture(t, authAPI)
	dir := t.TempDir()
	env, _ := fixtureEnv(t, "E2E_MCP_CAPS=storage", "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)
	app := f.URL + "/auth/app.html"
	in := func(id string, args map[string]any) map[string]any {
		if args == nil {
			args = map[string]any{}
		}
		args["sessionId"] = id
		return args
	}

	mustCall(t, c, "browser_navigate", in("a", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("a", map[string]any{"text": "Signed out"})) // A before signing in
	mustCall(t, c, "browser_type", in("a", map[string]any{"target": "label=Name", "text": "Ada", "submit": true}))
	mustCall(t, c, "browser_wait_for", in("a", map[string]any{"text": "Signed in as Ada (theme of Ada)"}))
	out := mustCall(t, c, "browser_cookie_list", in("a", nil))
	mustContain(t, "A's cookies", out, "1 cookie(s):", "- sid=", "HttpOnly", "SameSite=Lax")
	sid := strings.TrimSpace(strings.SplitN(mustCall(t, c, "browser_cookie_get", in("a", map[string]any{"name": "sid"})), "=", 2)[1])
	sid = strings.Fields(sid)[0]
	if len(sid) != 24 {
		t.Fatalf("cookie_get gives %q", sid)
	}
	if !strings.Contains(out, "- sid="+sid+";") {
		t.Errorf("cookie_list does not show the session cookie's value whole (%s):\n%s", sid, out)
	}

	state := filepath.Join(dir, "ada.json")
	out = mustCall(t, c, "browser_storage_state", in("a", map[string]any{"filename": state}))
	mustContain(t, "save", out, "Saved the storage state to "+state, "mode 0600", "1 cookie(s) (sid)", "local storage item(s)")
	if strings.Contains(out, sid) {
		t.Errorf("the save answer shows the cookie's value:\n%s", out)
	}
	fi, err := os.Stat(state)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the state file is %v, want 0600", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(state)
	var saved struct {
		Cookies []struct{ Name, Value string }
		Origins []struct {
			Origin       string
			LocalStorage []struct{ Name, Value string } `json:"localStorage"`
		}
	}
	if err := json.Unmarshal(b, &saved); err != nil || len(saved.Cookies) != 1 || saved.Cookies[0].Value != sid ||
		len(saved.Origins) != 1 || saved.Origins[0].Origin != f.URL || len(saved.Origins[0].LocalStorage) != 1 {
		t.Fatalf("the state file (err %v):\n%s", err, b)
	}

	// B: put into A's state before its first page, signed in at once.
	out = mustCall(t, c, "browser_set_storage_state", in("b", map[string]any{"filename": state}))
	mustContain(t, "restore", out, "Put 1 cookie(s) (sid)")
	mustCall(t, c, "browser_navigate", in("b", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("b", map[string]any{"text": "Signed in as Ada (theme of Ada)"})) // B, with no login step
	if strings.Contains(mustCall(t, c, "browser_navigate_back", in("b", nil)), "Signed out") {
		t.Errorf("B shows a step of its own restore")
	}

	// C: a session of its own never sees A's cookie.
	mustCall(t, c, "browser_navigate", in("c", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("c", map[string]any{"text": "Signed out"})) // C
	out = mustCall(t, c, "browser_cookie_list", in("c", nil))
	mustContain(t, "C's cookies", out, "0 cookie(s)")

	// Local storage and cookies by hand, in C.
	mustCall(t, c, "browser_localstorage_set", in("c", map[string]any{"key": "theme", "value": "sepia"}))
	out = mustCall(t, c, "browser_localstorage_list", in("c", nil))
	mustContain(t, "C's local storage", out, "1 local storage item(s) of "+f.URL, "- theme=sepia")
	out = mustCall(t, c, "browser_sessionstorage_get", in("c", map[string]any{"key": "visits"}))
	mustContain(t, "C's session storage", out, "visits=1")
	mustCall(t, c, "browser_cookie_set", in("c", map[string]any{"name": "sid", "value": sid}))
	mustCall(t, c, "browser_navigate", in("c", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("c", map[string]any{"text": "Signed in as Ada (sepia)"})) // C with A's cookie set by hand
	mustCall(t, c, "browser_cookie_delete", in("c", map[string]any{"name": "sid"}))
	mustCall(t, c, "browser_localstorage_clear", in("c", nil))
	mustCall(t, c, "browser_navigate", in("c", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("c", map[string]any{"text": "Signed out"})) // C signed out again
	out = mustCall(t, c, "browser_localstorage_get", in("c", map[string]any{"key": "theme"}))
	mustContain(t, "a key cleared", out, `Item "theme" not found`)

	// session_start's storageState: a session with a dev server starts
	// signed in (the cookie is the host's, whatever the port).
	mustCall(t, c, "session_start", in("d", map[string]any{"commandPath": devfixture, "storageState": state}))
	mustCall(t, c, "browser_navigate", in("d", map[string]any{"url": app}))
	mustCall(t, c, "browser_wait_for", in("d", map[string]any{"text": "Signed in as Ada (theme of Ada)"})) // D, started in the state
	mustFail(t, c, "session_start", in("e", map[string]any{"commandPath": devfixture, "storageState": filepath.Join(dir, "none.json")}), "invalid_input")

	// --storage-state: every session of the server starts signed in, with
	// no tool of the storage group offered.
	env2, _ := serverEnv(t)
	c2 := startClient(t, append(env2, "E2E_MCP_STORAGE_STATE="+state))
	mustCall(t, c2, "browser_navigate", map[string]any{"url": app})
	mustCall(t, c2, "browser_wait_for", map[string]any{"text": "Signed in as Ada (theme of Ada)"}) // a session of a server started with --storage-state

	// A state that is refused, by our checks or by the browser, leaves the
	// session's cookies as they were.
	mustCall(t, c, "browser_cookie_set", in("c", map[string]any{"name": "kept", "value": "k1"}))
	host := strings.TrimPrefix(strings.Split(f.URL, ":")[1], "//")
	for name, cookie := range map[string]string{
		"a nameless cookie":            `{"name": "", "value": "x", "domain": "` + host + `", "path": "/"}`,
		"a cookie the browser refuses": `{"name": "n", "value": "x", "domain": "javascript://nothing"}`,
	} {
		refused := filepath.Join(dir, "refused.json")
		_ = os.WriteFile(refused, []byte(`{"cookies": [{"name": "fresh", "value": "f", "domain": "`+host+`", "path": "/"}, `+cookie+`], "origins": []}`), 0o600)
		mustFail(t, c, "browser_set_storage_state", in("c", map[string]any{"filename": refused}), "invalid_input")
		out = mustCall(t, c, "browser_cookie_list", in("c", nil))
		if !strings.Contains(out, "1 cookie(s)") || !strings.Contains(out, "kept=") || strings.Contains(out, "fresh=") {
			t.Errorf("after a state with %s was refused, the session's cookies are:\n%s", name, out)
		}
	}

	// Bad input.
	mustFail(t, c, "browser_set_storage_state", in("c", map[string]any{"filename": "/etc/passwd"}), "not_allowed")
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte("cookies: no"), 0o600)
	mustFail(t, c, "browser_set_storage_state", in("c", map[string]any{"filename": bad}), "invalid_input")
}

// TestStorageAbsence: a cookie or storage key that is not there is an
// answer, not a failure (issue 39, as Playwright MCP): every tool of the
// storage group that names one cookie or item (get and delete, found in
// tools/list by their name or key argument) answers a missing one with a
// result saying it is not found, a delete that nothing was deleted, and
// leaves what is there alone; present ones read as name=value and a delete
// says what it deleted.
func TestStorageAbsence(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=storage"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"})
	mustCall(t, c, "browser_cookie_set", map[string]any{"name": "kept", "value": "c1"})
	mustCall(t, c, "browser_localstorage_set", map[string]any{"key": "kept", "value": "l1"})
	mustCall(t, c, "browser_sessionstorage_set", map[string]any{"key": "kept", "value": "s1"})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, tool := range list.Tools {
		props := tool.InputSchema.Properties
		if tool.RawInputSchema != nil {
			var s struct{ Properties map[string]any }
			_ = json.Unmarshal(tool.RawInputSchema, &s)
			props = s.Properties
		}
		_, name := props["name"]
		_, key := props["key"]
		_, value := props["value"]
		if !strings.Contains(tool.Name, "cookie") && !strings.Contains(tool.Name, "storage") || !name && !key || value {
			continue // not a storage tool that names one thing and sets nothing
		}
		named = append(named, tool.Name)
		arg := "name"
		if key {
			arg = "key"
		}
		res := call(t, c, tool.Name, map[string]any{arg: "missing"})
		out := text(res)
		if res.IsError || !strings.Contains(out, `"missing" not found`) {
			t.Errorf("%s of a missing %s: want a result saying it is not found, got (isError=%v):\n%s", tool.Name, arg, res.IsError, out)
		}
		if strings.HasSuffix(tool.Name, "_delete") && !strings.Contains(out, "nothing deleted") {
			t.Errorf("%s of a missing %s does not say nothing was deleted:\n%s", tool.Name, arg, out)
		}
	}
	slices.Sort(named)
	want := []string{"browser_cookie_delete", "browser_cookie_get", "browser_localstorage_delete", "browser_localstorage_get",
		"browser_sessionstorage_delete", "browser_sessionstorage_get"}
	if !slices.Equal(named, want) {
		t.Errorf("the storage tools that name one cookie or item: %v, want %v", named, want)
	}

	// What is there is untouched, and reads as name=value.
	mustContain(t, "the kept cookie", mustCall(t, c, "browser_cookie_get", map[string]any{"name": "kept"}), "kept=c1")
	mustContain(t, "the kept local item", mustCall(t, c, "browser_localstorage_get", map[string]any{"key": "kept"}), "kept=l1")
	mustContain(t, "the kept session item", mustCall(t, c, "browser_sessionstorage_get", map[string]any{"key": "kept"}), "kept=s1")

	// A delete of what is there says so; then it is not found.
	mustContain(t, "a cookie deleted", mustCall(t, c, "browser_cookie_delete", map[string]any{"name": "kept"}), "Deleted 1 cookie(s) named kept.")
	mustContain(t, "an item deleted", mustCall(t, c, "browser_localstorage_delete", map[string]any{"key": "kept"}), `Deleted local storage item "kept" of `+f.URL)
	mustContain(t, "the deleted cookie", mustCall(t, c, "browser_cookie_get", map[string]any{"name": "kept"}), `Cookie "kept" not found`)
	mustContain(t, "the deleted item", mustCall(t, c, "browser_localstorage_get", map[string]any{"key": "kept"}), `Item "kept" not found`)
	mustContain(t, "a clear", mustCall(t, c, "browser_sessionstorage_clear", nil), "Deleted 1 session storage item(s) of "+f.URL)
	mustContain(t, "a clear of nothing", mustCall(t, c, "browser_sessionstorage_clear", nil), "Deleted 0 session storage item(s)")
}

// TestCookieDeleteKeepsTheRest: deleting one cookie leaves the others as
// they were: the jar is replaced with the ones kept, each set again by the
// domain the browser gave it, and a host-only cookie (no Domain attribute)
// stays the host's (the browser reads a domain without its leading dot so)
// while a domain cookie stays its subdomains' too.
func TestCookieDeleteKeepsTheRest(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=storage"))
	// A name, not 127.0.0.1: an IP address has no domain cookies. Chrome
	// resolves every *.localhost name to the loopback address.
	page := strings.Replace(f.URL, "127.0.0.1", "app.localhost", 1) + "/index.html"
	mustCall(t, c, "browser_navigate", map[string]any{"url": page})
	mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => { document.cookie = "host=1"; document.cookie = "dom=2; domain=app.localhost"; document.cookie = "gone=3"; }`})
	before := mustCall(t, c, "browser_cookie_list", nil)
	mustContain(t, "the cookies the page set", before, "- host=1; domain app.localhost;", "- dom=2; domain .app.localhost;", "- gone=3; domain app.localhost;")
	mustContain(t, "the delete", mustCall(t, c, "browser_cookie_delete", map[string]any{"name": "gone"}), "Deleted 1 cookie(s) named gone.")
	after := mustCall(t, c, "browser_cookie_list", nil)
	mustContain(t, "the cookies kept", after, "2 cookie(s):", "- host=1; domain app.localhost;", "- dom=2; domain .app.localhost;")
}
