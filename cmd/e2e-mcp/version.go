package main

import (
	"runtime/debug"
	"sync"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

// Version is the binary's version: the ldflags value, else the module
// version or VCS revision Go recorded, else "dev".
var Version = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "dev-" + rev
})
