package storage

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// Session storage, which Playwright leaves out, is kept for the origins the
// current tab shows; it comes back only into a tab that has shown nothing
// yet (a new session's).

// State is what a session holds of a user's state.
type State struct {
	Cookies []Cookie      `json:"cookies"`
	Origins []OriginState `json:"origins"`
}

// Cookie is a cookie as Playwright writes it. Expires is in seconds since
// the epoch, -1 for a session cookie; SameSite is Strict, Lax or None.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite,omitempty"`
}

// OriginState is the web storage of one origin.
type OriginState struct {
	Origin         string      `json:"origin"`
	LocalStorage   []NameValue `json:"localStorage"`
	SessionStorage []NameValue `json:"sessionStorage,omitempty"`
}

// NameValue is one storage item.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CheckOrigins refuses a state one of whose origins is not an http(s)
// origin, scheme://host[:port] (a trailing slash is taken).
func (st *State) CheckOrigins() error {
	for _, o := range st.Origins {
		if webOrigin(o.Origin) == "" || webOrigin(o.Origin) != strings.TrimSuffix(o.Origin, "/") {
			return refusal.Invalid("an origin is scheme://host[:port], as http://localhost:3000", "origin %q", o.Origin)
		}
	}
	return nil
}

// webOrigin is the origin of an http(s) URL, or "".
func webOrigin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// maxOrigins bounds the origins a session remembers having shown.
const maxOrigins = 200

// Origins are the origins a session's documents came from, so that their
// local storage is saved even when no tab shows them any more. They are
// under their own lock: a tab's events note them while holding the tab's.
// The zero value is empty and ready.
type Origins struct {
	mu  sync.Mutex
	set map[string]bool
}

// Note remembers the origin of rawURL, if it is an http(s) URL and fewer
// than maxOrigins are known.
func (o *Origins) Note(rawURL string) {
	origin := webOrigin(rawURL)
	if origin == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.set == nil {
		o.set = map[string]bool{}
	}
	if len(o.set) < maxOrigins {
		o.set[origin] = true
	}
}

// List is the origins noted, sorted.
func (o *Origins) List() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Sorted(maps.Keys(o.set))
}

// StepScript is the page expression of a step on the local (or, with
// session, the session) storage of a document: list, get, set, delete or
// clear the item key (value for set). It evaluates to a [StepResult].
func StepScript(session bool, action, key, value string) string {
	area := "localStorage"
	if session {
		area = "sessionStorage"
	}
	return fmt.Sprintf(`(() => { const s = %s, a = %q, k = %s, v = %s;
  if (!/^https?:/.test(location.protocol)) return { origin: location.origin, error: 'no web storage on ' + location.href };
  const one = () => s.getItem(k) === null ? [] : [{ name: k, value: s.getItem(k) }];
  const keys = () => Array.from({ length: s.length }, (_, i) => s.key(i));
  let items = [];
  if (a === 'get') items = one();
  else if (a === 'list') items = keys().map(name => ({ name, value: s.getItem(name) }));
  else if (a === 'set') s.setItem(k, v);
  else if (a === 'delete') { items = one(); s.removeItem(k); }
  else if (a === 'clear') { items = keys().map(name => ({ name, value: '' })); s.clear(); }
  return { origin: location.origin, items };
})()`, area, action, jsString(key), jsString(value))
}

// StepResult is what a [StepScript] found: the document's origin, the
// items, or why the document has no web storage (Error).
type StepResult struct {
	Origin string      `json:"origin"`
	Items  []NameValue `json:"items"`
	Error  string      `json:"error"`
}

// FillScript is the page expression that replaces the items of a storage
// area ("localStorage" or "sessionStorage") of the document's origin with
// items.
func FillScript(area string, items []NameValue) string {
	b, _ := json.Marshal(items)
	return fmt.Sprintf(`(() => { const s = %s; s.clear(); for (const it of %s) s.setItem(String(it.name), String(it.value)); return true; })()`, area, b)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
