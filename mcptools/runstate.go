package mcptools

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser/storage"
)

// SavedState is a session's storage state (cookies, each origin's web
// storage) as the flow runner keeps it between flows: in memory, never in
// a file, for the flows that need a setup flow start in the state it
// ended with (runner's setup flows).
type SavedState struct{ st *storage.State }

// SessionStorageState reads session id's storage state, as
// browser_storage_state does, without writing it anywhere.
func (d *Deps) SessionStorageState(ctx context.Context, id string) (*SavedState, error) {
	s, ctx, err := d.Sessions.acquire(ctx, id, "browser_storage_state")
	if err != nil {
		return nil, err
	}
	defer s.release()
	p, err := s.Page(ctx, d.Browser)
	if err != nil {
		return nil, err
	}
	st, err := s.tabs.StorageState(ctx, p)
	if err != nil {
		return nil, err
	}
	return &SavedState{st: st}, nil
}

// SetSessionStorageState puts saved states into session id, as
// browser_set_storage_state puts a file's, merged in order: a later
// state's cookie (by name, domain and path) and item (by origin and name)
// win over an earlier one's.
func (d *Deps) SetSessionStorageState(ctx context.Context, id string, states ...*SavedState) error {
	s, ctx, err := d.Sessions.acquire(ctx, id, "browser_set_storage_state")
	if err != nil {
		return err
	}
	defer s.release()
	p, err := s.Page(ctx, d.Browser)
	if err != nil {
		return err
	}
	_, err = s.tabs.SetStorageState(ctx, mergeStates(states), p)
	return err
}

// mergeStates is states merged in order, a later one's cookie or item
// winning over an earlier one's.
func mergeStates(states []*SavedState) *storage.State {
	out := &storage.State{Origins: []storage.OriginState{}}
	type cookieKey struct{ name, domain, path string }
	cookies := map[cookieKey]int{}
	origins := map[string]int{}
	for _, sv := range states {
		if sv == nil || sv.st == nil {
			continue
		}
		for _, c := range sv.st.Cookies {
			k := cookieKey{c.Name, c.Domain, c.Path}
			if i, ok := cookies[k]; ok {
				out.Cookies[i] = c
				continue
			}
			cookies[k] = len(out.Cookies)
			out.Cookies = append(out.Cookies, c)
		}
		for _, o := range sv.st.Origins {
			i, ok := origins[o.Origin]
			if !ok {
				origins[o.Origin] = len(out.Origins)
				out.Origins = append(out.Origins, storage.OriginState{Origin: o.Origin})
				i = len(out.Origins) - 1
			}
			m := &out.Origins[i]
			m.LocalStorage = mergeItems(m.LocalStorage, o.LocalStorage)
			m.SessionStorage = mergeItems(m.SessionStorage, o.SessionStorage)
		}
	}
	return out
}

// mergeItems is items with more's added, more's winning by name.
func mergeItems(items, more []storage.NameValue) []storage.NameValue {
	for _, nv := range more {
		replaced := false
		for i := range items {
			if items[i].Name == nv.Name {
				items[i], replaced = nv, true
			}
		}
		if !replaced {
			items = append(items, nv)
		}
	}
	return items
}
