package mcptools

import (
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// newManaged makes a managed dev server for a run command line (any dev
// command, such as npm run dev): it runs in-process (it dies with us), keeps
// its logs and state under the state directory, one per session.
func (d *Deps) newManaged(sessionID, run, cwd, readyPath string) (devserver.Server, string, error) {
	name := "session-" + sanitizeName(sessionID)
	dir := ""
	if d.StateDir != "" {
		dir = filepath.Join(d.StateDir, name)
	} else {
		var err error
		if dir, err = devserver.DefaultStateDir(name); err != nil {
			return nil, "", invalidInput("sessionId", "%v", err)
		}
	}
	m, err := devserver.NewManaged(devserver.ManagedSpec{Name: name, Run: run, Dir: cwd, ReadyPath: readyPath, StateDir: dir,
		StartTimeout: d.DevTimeouts.For(devserver.Start)})
	if err != nil {
		return nil, "", invalidInput("run", "%v", err)
	}
	return m, fmt.Sprintf("run %q", redact.CommandLine(run)), nil
}

var nameUnsafeRE = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// sanitizeName keeps the characters a state directory name may have.
func sanitizeName(s string) string {
	return nameUnsafeRE.ReplaceAllString(s, "_")
}
