package httpauth

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// WellKnownPath is where RFC 9728 protected-resource metadata is served.
const WellKnownPath = "/.well-known/oauth-protected-resource"

// ResourceMetadata is the RFC 9728 protected-resource metadata document the Guard serves.
type ResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	ResourceName           string   `json:"resource_name,omitempty"`
}

type metadataDoc struct {
	doc   ResourceMetadata
	body  []byte
	url   string          // absolute URL advertised in WWW-Authenticate
	paths map[string]bool // paths the document is served at
}

// newMetadataDoc builds the document. It is served at WellKnownPath and, for a resource with a path
// ("https://host/mcp"), also at the RFC 9728 §3.1 location WellKnownPath+"/mcp", which is the URL 401 answers
// advertise (clients such as mcp-go's check that the document's resource matches the URL they address).
func newMetadataDoc(o OAuthOptions) *metadataDoc {
	doc := ResourceMetadata{
		Resource:               o.Resource,
		AuthorizationServers:   o.AuthorizationServers,
		BearerMethodsSupported: []string{"header"},
		ScopesSupported:        o.Scopes,
		ResourceName:           o.ResourceName,
	}
	if len(doc.AuthorizationServers) == 0 {
		doc.AuthorizationServers = []string{o.Issuer}
	}
	body, _ := json.Marshal(doc) // strings and string slices always marshal
	m := &metadataDoc{doc: doc, body: append(body, '\n'), paths: map[string]bool{WellKnownPath: true}}
	u, _ := url.Parse(o.Resource) // checked by newVerifier
	path := WellKnownPath
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		path += p
		m.paths[path] = true
	}
	m.url = (&url.URL{Scheme: u.Scheme, Host: u.Host}).String() + path
	return m
}

func (m *metadataDoc) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(m.body)
}
