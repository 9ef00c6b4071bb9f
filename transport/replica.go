package transport

import (
	"regexp"
)

// replicaIDRE is what --replica-id accepts: a name that needs no escaping
// in a header, a regular expression or a balancer's configuration.
var replicaIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// ValidReplicaID says whether name may name a replica (--replica-id): it
// needs no escaping in a header, a regular expression or a balancer's
// configuration.
func ValidReplicaID(name string) bool { return replicaIDRE.MatchString(name) }

const mcpSessionPrefix = "mcp-session-"

// sessionPrefix is how the MCP session ids of this server begin:
// mcp-session-UUID as mcp-go makes them, or with a replica name
// mcp-session-NAME.UUID, so that a load balancer can send every request of
// a session to the replica that made it by the id alone (docs/replicas.md):
// an initialize carries no id, so a balancer that hashes the id cannot know
// where the id it is about to get will be made. An id of another replica is
// unknown here (404).
func sessionPrefix(replica string) string {
	if replica == "" {
		return mcpSessionPrefix
	}
	return mcpSessionPrefix + replica + "."
}
