package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"sync"
)

// version, commit and date are stamped by make build and make release with
// -ldflags "-X main.version=v1.2.3 -X main.commit=<sha> -X main.date=<commit time>".
var version, commit, date = "", "", ""

// buildStamp is what a binary says it was built from.
type buildStamp struct{ Version, Commit, Date string }

// String is the line `e2e-mcp version` prints.
func (s buildStamp) String() string {
	out := "e2e-mcp " + s.Version
	if s.Commit != "" {
		out += " commit " + s.Commit
	}
	if s.Date != "" {
		out += " date " + s.Date
	}
	return out
}

// resolveStamp fills what the ldflags left empty from the build info Go
// records (go install module@version: the module version; a build in a
// clone: vcs.revision and vcs.time), and the version "dev" (or
// "dev-<revision>[-dirty]") when neither says.
func resolveStamp(ld buildStamp, bi *debug.BuildInfo) buildStamp {
	s := ld
	if bi == nil {
		if s.Version == "" {
			s.Version = "dev"
		}
		return s
	}
	rev, vcsTime, dirty := "", "", false
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.time":
			vcsTime = kv.Value
		case "vcs.modified":
			dirty = kv.Value == "true"
		}
	}
	if s.Commit == "" {
		s.Commit = rev
	}
	if s.Date == "" {
		s.Date = vcsTime
	}
	if s.Version != "" {
		return s
	}
	switch v := bi.Main.Version; {
	case v != "" && v != "(devel)":
		s.Version = v
	case rev != "":
		short := rev
		if len(short) > 12 {
			short = short[:12]
		}
		s.Version = "dev-" + short
		if dirty {
			s.Version += "-dirty"
		}
	default:
		s.Version = "dev"
	}
	return s
}

// Stamp is this binary's build stamp, resolved once.
var Stamp = sync.OnceValue(func() buildStamp {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return resolveStamp(buildStamp{Version: version, Commit: commit, Date: date}, bi)
})

// Version is the binary's version: the ldflags value, else the module
// version or VCS revision Go recorded, else "dev".
func Version() string { return Stamp().Version }

// printVersion is `e2e-mcp version`.
func printVersion(w io.Writer) {
	fmt.Fprintln(w, Stamp().String())
}
