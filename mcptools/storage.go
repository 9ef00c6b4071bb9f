package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/storage"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// The storage group (--caps storage): the session's cookies and web
// storage, and its whole storage state saved to a file and put back, with
// Playwright MCP's tool and argument names. A cookie or item that is not
// there is an answer (notFound), not an error. Answers show a storage
// item's value whole only when asked for by name (cookies, as theirs,
// always); state files are written 0600.

// maxStateFile bounds a storage state file read.
const maxStateFile = 10 << 20

// StorageStateParams are the arguments of browser_storage_state.
type StorageStateParams struct {
	Filename string `json:"filename,omitempty" jsonschema:"File to write (default: a new temp file)"`
	SessionArg
}

func storageStateTool(d *Deps) Tool {
	return define(d, "browser_storage_state", ToolsetSession,
		"Save the session's cookies and local and session storage to a JSON file (Playwright's storageState format).",
		annotations{title: "Save storage state"},
		func(ctx context.Context, s *Session, a StorageStateParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			out, err := d.outputPath(ctx, "filename", a.Filename, "storage-*.json")
			if err != nil {
				return nil, err
			}
			out.mode = 0o600
			st, err := s.tabs.StorageState(ctx, p)
			if err != nil {
				out.discard()
				return nil, err
			}
			data, _ := json.MarshalIndent(st, "", "  ")
			if err := out.write(append(data, '\n')); err != nil {
				out.discard()
				return nil, err
			}
			var r response
			r.resultf("Saved the storage state to %s (mode 0600, %d bytes): %s.", out.path, len(data), describeState(st))
			r.resultf("It holds credentials: keep it out of version control. browser_set_storage_state or session_start's storageState (or --storage-state) put it into a session.")
			r.set("path", out.path)
			return r.build(), nil
		})
}

// describeState counts what a state holds, naming cookies but no values.
func describeState(st *storage.State) string {
	domains := map[string]bool{}
	var names []string
	for _, c := range st.Cookies {
		domains[strings.TrimPrefix(c.Domain, ".")] = true
		if len(names) < 12 {
			names = append(names, c.Name)
		}
	}
	s := fmt.Sprintf("%d cookie(s)", len(st.Cookies))
	if len(names) > 0 {
		s += fmt.Sprintf(" (%s) of %d domain(s)", strings.Join(names, ", "), len(domains))
	}
	items, sessionItems := 0, 0
	for _, o := range st.Origins {
		items += len(o.LocalStorage)
		sessionItems += len(o.SessionStorage)
	}
	s += fmt.Sprintf(", %d local storage item(s)", items)
	if sessionItems > 0 {
		s += fmt.Sprintf(", %d session storage item(s)", sessionItems)
	}
	return s + fmt.Sprintf(" of %d origin(s)", len(st.Origins))
}

// SetStorageStateParams are the arguments of browser_set_storage_state.
type SetStorageStateParams struct {
	Filename string `json:"filename" jsonschema:"A file browser_storage_state (or Playwright) wrote"`
	SessionArg
}

func setStorageStateTool(d *Deps) Tool {
	return define(d, "browser_set_storage_state", ToolsetSession,
		"Put a saved storage state into the session: its cookies and each origin's storage replace the session's.",
		annotations{title: "Restore storage state", idempotent: true},
		func(ctx context.Context, s *Session, a SetStorageStateParams) (*mcp.CallToolResult, error) {
			st, err := d.readState(ctx, "filename", a.Filename)
			if err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			left, err := s.tabs.SetStorageState(ctx, st, p)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("Put %s into the session.", describeState(st))
			if len(left) > 0 {
				r.resultf("Session storage of %s left out: it goes only into a tab that has shown nothing yet (a new session's).", strings.Join(left, ", "))
			}
			return r.build(), nil
		})
}

// readState reads and checks a storage state file under the read roots.
func (d *Deps) readState(ctx context.Context, field, path string) (*storage.State, error) {
	if path == "" {
		return nil, invalidInput(field, "empty: give the path of a storage state file")
	}
	paths, err := d.readablePaths(ctx, field, []string{path})
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(paths[0]); err == nil && fi.Size() > maxStateFile {
		return nil, invalidInput(field, "%q is %d bytes, more than a storage state may be (%d)", path, fi.Size(), maxStateFile)
	}
	return ReadStorageState(paths[0])
}

// ReadStorageState reads a storage state file (for --storage-state too).
func ReadStorageState(path string) (*storage.State, error) {
	b, err := os.ReadFile(path) //nolint:gosec // a path checked against the file roots, or the operator's flag
	if err != nil {
		return nil, invalidInput("storageState", "%v", err)
	}
	var st storage.State
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&st); err != nil {
		return nil, invalidInput("storageState", "%s is not a storage state (JSON with cookies and origins): %v", path, err)
	}
	return &st, nil
}

// CookieListParams are the arguments of browser_cookie_list.
type CookieListParams struct {
	Domain string `json:"domain,omitempty" jsonschema:"Only cookies of this domain"`
	Path   string `json:"path,omitempty" jsonschema:"Only cookies of this path"`
	SessionArg
}

// CookieNameParams name a cookie.
type CookieNameParams struct {
	Name   string `json:"name"`
	Domain string `json:"domain,omitempty"`
	SessionArg
}

// CookieSetParams are the arguments of browser_cookie_set.
type CookieSetParams struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain,omitempty" jsonschema:"Default: the current page's host"`
	Path     string  `json:"path,omitempty"`
	Expires  float64 `json:"expires,omitempty" jsonschema:"Unix seconds (default: a session cookie)"`
	HTTPOnly bool    `json:"httpOnly,omitempty"`
	Secure   bool    `json:"secure,omitempty"`
	SameSite string  `json:"sameSite,omitempty" jsonschema:"enum=Strict,enum=Lax,enum=None"`
	SessionArg
}

// CookieClearParams are the arguments of browser_cookie_clear.
type CookieClearParams struct {
	SessionArg
}

// longCookieValue is the length from which a cookie's line says how long
// its value is, so that a long value is seen as one.
const longCookieValue = 200

// maxCookieListBytes bounds browser_cookie_list's lines: the cookies past
// it are counted, not shown. A browser keeps a cookie to 4 KB, so values
// are shown whole.
const maxCookieListBytes = 48 << 10

// cookieLine shows a cookie, its value whole.
func cookieLine(c storage.Cookie) string {
	v := c.Value
	if len(v) >= longCookieValue {
		v += fmt.Sprintf(" (%d chars)", len(c.Value))
	}
	line := fmt.Sprintf("- %s=%s; domain %s; path %s", c.Name, v, c.Domain, c.Path)
	var flags []string
	if c.HTTPOnly {
		flags = append(flags, "HttpOnly")
	}
	if c.Secure {
		flags = append(flags, "Secure")
	}
	if c.SameSite != "" {
		flags = append(flags, "SameSite="+c.SameSite)
	}
	if c.Expires > 0 {
		flags = append(flags, "expires "+time.Unix(int64(c.Expires), 0).UTC().Format(time.RFC3339))
	} else {
		flags = append(flags, "session")
	}
	return line + "; " + strings.Join(flags, ", ")
}

func cookieListTool(d *Deps) Tool {
	return define(d, "browser_cookie_list", ToolsetSession, "List the session's cookies.",
		annotations{title: "List cookies", readOnly: true},
		func(ctx context.Context, s *Session, a CookieListParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			all, err := s.tabs.Cookies(ctx)
			if err != nil {
				return nil, err
			}
			var r response
			var shown []storage.Cookie
			for _, c := range all {
				if (a.Domain == "" || strings.TrimPrefix(c.Domain, ".") == strings.TrimPrefix(a.Domain, ".")) && (a.Path == "" || c.Path == a.Path) {
					shown = append(shown, c)
				}
			}
			sort.Slice(shown, func(i, j int) bool { return shown[i].Domain+shown[i].Name < shown[j].Domain+shown[j].Name })
			r.resultf("%d cookie(s):", len(shown))
			names := []string{}
			size := 0
			for _, c := range shown {
				names = append(names, c.Name)
			}
			for i, c := range shown {
				line := cookieLine(c)
				if size += len(line); size > maxCookieListBytes {
					r.resultf("(%d more cookie(s) not shown, past %d KB: give domain or path, or browser_cookie_get a name)", len(shown)-i, maxCookieListBytes>>10)
					break
				}
				r.resultf("%s", line)
			}
			r.set("names", names)
			return r.build(), nil
		})
}

func cookieGetTool(d *Deps) Tool {
	return define(d, "browser_cookie_get", ToolsetSession, "The value of a cookie, by name.",
		annotations{title: "Get a cookie", readOnly: true},
		func(ctx context.Context, s *Session, a CookieNameParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			all, err := s.tabs.Cookies(ctx)
			if err != nil {
				return nil, err
			}
			var found []storage.Cookie
			for _, c := range all {
				if c.Name == a.Name && (a.Domain == "" || strings.TrimPrefix(c.Domain, ".") == strings.TrimPrefix(a.Domain, ".")) {
					found = append(found, c)
				}
			}
			var r response
			if len(found) == 0 {
				// Absence answers the question; it is no failure of the call.
				r.resultf("%s: the session has no cookie of that name (browser_cookie_list lists its cookies).", notFound("Cookie", a.Name, a.Domain))
				found = []storage.Cookie{}
			}
			for _, c := range found {
				r.resultf("%s=%s (domain %s, path %s)", c.Name, c.Value, c.Domain, c.Path)
			}
			r.set("cookies", found)
			return r.build(), nil
		})
}

func cookieSetTool(d *Deps) Tool {
	return define(d, "browser_cookie_set", ToolsetSession, "Set a cookie in the session.",
		annotations{title: "Set a cookie", idempotent: true},
		func(ctx context.Context, s *Session, a CookieSetParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			c := storage.Cookie{Name: a.Name, Value: a.Value, Domain: a.Domain, Path: a.Path, Expires: a.Expires,
				HTTPOnly: a.HTTPOnly, Secure: a.Secure, SameSite: a.SameSite}
			if c.Domain == "" {
				u := p.LastInfo().URL
				if !strings.HasPrefix(u, "http") {
					return nil, invalidInput("domain", "the current page (%s) has no host: give the cookie's domain", u)
				}
				c.Domain = u
			}
			if err := s.tabs.SetCookies(ctx, []storage.Cookie{c}); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Set cookie %s.", a.Name)
			return r.build(), nil
		})
}

func cookieDeleteTool(d *Deps) Tool {
	return define(d, "browser_cookie_delete", ToolsetSession, "Delete a cookie, by name.",
		annotations{title: "Delete a cookie", idempotent: true},
		func(ctx context.Context, s *Session, a CookieNameParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			if a.Name == "" {
				return nil, invalidInput("name", "empty: browser_cookie_clear deletes every cookie")
			}
			n, err := s.tabs.DeleteCookies(ctx, a.Name, a.Domain)
			if err != nil {
				return nil, err
			}
			var r response
			if n == 0 {
				r.resultf("%s: nothing deleted.", notFound("Cookie", a.Name, a.Domain))
			} else {
				r.resultf("Deleted %d cookie(s) named %s.", n, a.Name)
			}
			r.set("deleted", n)
			return r.build(), nil
		})
}

func cookieClearTool(d *Deps) Tool {
	return define(d, "browser_cookie_clear", ToolsetSession, "Delete every cookie of the session.",
		annotations{title: "Clear cookies", idempotent: true, destructive: true},
		func(ctx context.Context, s *Session, _ CookieClearParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			n, err := s.tabs.DeleteCookies(ctx, "", "")
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("Deleted %d cookie(s).", n)
			r.set("deleted", n)
			return r.build(), nil
		})
}

// notFound says that the storage tools' cookie or item named name (of
// domain, if given) is not there: the one phrasing of an absence, which
// get and delete answer as a result, not an error (a query whose answer is
// "none" has not failed).
func notFound(what, name, domain string) string {
	s := fmt.Sprintf("%s %q not found", what, name)
	if domain != "" {
		s += " for domain " + domain
	}
	return s
}

// WebStorageParams are the arguments of the local and session storage
// tools that take all items of the origin (list, clear).
type WebStorageParams struct {
	SessionArg
}

// WebStorageKeyParams name one item (get, delete).
type WebStorageKeyParams struct {
	Key string `json:"key"`
	SessionArg
}

// WebStorageSetParams are the arguments of the set tools.
type WebStorageSetParams struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	SessionArg
}

// webStorageTools are browser_localstorage_* or browser_sessionstorage_*:
// list, get, set, delete and clear, on the current tab's origin.
func webStorageTools(d *Deps, session bool) []Tool {
	kind, area := "localstorage", "local storage"
	if session {
		kind, area = "sessionstorage", "session storage"
	}
	name := func(action string) string { return "browser_" + kind + "_" + action }
	run := func(ctx context.Context, s *Session, action, key, value string) (*mcp.CallToolResult, error) {
		if (action == "get" || action == "set" || action == "delete") && key == "" {
			return nil, invalidInput("key", "empty: name the item")
		}
		p, err := s.Page(ctx, d.Browser)
		if err != nil {
			return nil, err
		}
		items, origin, err := p.WebStorage(ctx, session, action, key, value)
		if err != nil {
			return nil, err
		}
		var r response
		switch action {
		case "list":
			r.resultf("%d %s item(s) of %s:", len(items), area, origin)
			for i, it := range items {
				// The structured items say no more than the text.
				items[i].Value = text.Clip(it.Value, 80)
				r.resultf("- %s=%s", it.Name, items[i].Value)
			}
		case "get":
			if len(items) == 0 {
				// Absence answers the question; it is no failure of the call.
				r.resultf("%s: the %s of %s has no such key (%s lists its items).", notFound("Item", key, ""), area, origin, name("list"))
			}
			for _, it := range items {
				r.resultf("%s=%s", it.Name, it.Value)
			}
		case "set":
			r.resultf("Set %s item %q of %s.", area, key, origin)
		case "delete":
			if len(items) == 0 {
				r.resultf("%s in the %s of %s: nothing deleted.", notFound("Item", key, ""), area, origin)
			} else {
				r.resultf("Deleted %s item %q of %s.", area, key, origin)
			}
		case "clear":
			r.resultf("Deleted %d %s item(s) of %s.", len(items), area, origin)
		}
		if action == "delete" || action == "clear" {
			// What went, by key: its values were not asked for.
			for i := range items {
				items[i].Value = ""
			}
			r.set("deleted", len(items))
		}
		if items == nil {
			items = []storage.NameValue{}
		}
		r.set("origin", origin)
		r.set("items", items)
		return r.build(), nil
	}
	all := func(action, desc string, a annotations) Tool {
		return define(d, name(action), ToolsetSession, desc, a,
			func(ctx context.Context, s *Session, _ WebStorageParams) (*mcp.CallToolResult, error) {
				return run(ctx, s, action, "", "")
			})
	}
	one := func(action, desc string, a annotations) Tool {
		return define(d, name(action), ToolsetSession, desc, a,
			func(ctx context.Context, s *Session, a WebStorageKeyParams) (*mcp.CallToolResult, error) {
				return run(ctx, s, action, a.Key, "")
			})
	}
	set := define(d, name("set"), ToolsetSession, "Set a "+area+" item.", annotations{title: "Set " + area, idempotent: true},
		func(ctx context.Context, s *Session, a WebStorageSetParams) (*mcp.CallToolResult, error) {
			return run(ctx, s, "set", a.Key, a.Value)
		})
	return []Tool{
		all("list", "List the "+area+" items of the current page's origin.", annotations{title: "List " + area, readOnly: true}),
		one("get", "Get a "+area+" item by key.", annotations{title: "Get " + area, readOnly: true}),
		set,
		one("delete", "Delete a "+area+" item.", annotations{title: "Delete " + area, idempotent: true}),
		all("clear", "Delete every "+area+" item of the current page's origin.", annotations{title: "Clear " + area, idempotent: true, destructive: true}),
	}
}

// storageTools are the storage group's tools, in Playwright MCP's order.
func storageTools(d *Deps) []Tool {
	tools := []Tool{cookieListTool(d), cookieGetTool(d), cookieSetTool(d), cookieDeleteTool(d), cookieClearTool(d)}
	tools = append(tools, webStorageTools(d, false)...)
	tools = append(tools, webStorageTools(d, true)...)
	return append(tools, storageStateTool(d), setStorageStateTool(d))
}
