package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// replicaIDRE is what --replica-id accepts: a name that needs no escaping
// in a header, a regular expression or a balancer's configuration.
var replicaIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// replicaSessionIDs makes the MCP session ids of a named replica,
// mcp-session-NAME.UUID, so that a load balancer can send every request of
// a session to the replica that made it by the id alone (docs/replicas.md):
// an initialize carries no id, so a balancer that hashes the id cannot know
// where the id it is about to get will be made. Ids are otherwise those of
// mcp-go's stateful manager; an id of another replica is unknown here (404).
type replicaSessionIDs struct {
	prefix string // mcp-session-NAME.
	inner  server.SessionIdManager
}

const mcpSessionPrefix = "mcp-session-"

// sessionIDs is the HTTP server's session id manager: mcp-go's stateful
// one, or with a replica name one whose ids carry it.
func sessionIDs(replica string) server.SessionIdManager {
	if replica == "" {
		return &server.InsecureStatefulSessionIdManager{}
	}
	return newReplicaSessionIDs(replica)
}

func newReplicaSessionIDs(name string) *replicaSessionIDs {
	return &replicaSessionIDs{prefix: mcpSessionPrefix + name + ".", inner: &server.InsecureStatefulSessionIdManager{}}
}

// Generate returns a new id, mcp-session-NAME.UUID.
func (r *replicaSessionIDs) Generate() string {
	return r.prefix + strings.TrimPrefix(r.inner.Generate(), mcpSessionPrefix)
}

// innerID is the id mcp-go's manager knows for one of ours.
func (r *replicaSessionIDs) innerID(id string) (string, error) {
	rest, ok := strings.CutPrefix(id, r.prefix)
	if !ok {
		return "", fmt.Errorf("session not found: %s", id)
	}
	return mcpSessionPrefix + rest, nil
}

// Validate reports whether id is a live (or ended) session of this replica.
func (r *replicaSessionIDs) Validate(id string) (bool, error) {
	in, err := r.innerID(id)
	if err != nil {
		return false, err
	}
	return r.inner.Validate(in)
}

// Terminate ends the session id names.
func (r *replicaSessionIDs) Terminate(id string) (bool, error) {
	in, err := r.innerID(id)
	if err != nil {
		return false, nil // not ours: nothing to end
	}
	return r.inner.Terminate(in)
}
