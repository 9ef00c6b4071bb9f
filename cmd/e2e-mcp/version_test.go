package main

import (
	"runtime/debug"
	"testing"
)

func TestResolveStamp(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-20T10:11:12Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	for _, tc := range []struct {
		name string
		ld   buildStamp
		bi   *debug.BuildInfo
		want buildStamp
	}{
		{"ldflags win over build info",
			buildStamp{"v1.2.3", "feedface", "2026-01-02T03:04:05Z"},
			&debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: vcs("false")},
			buildStamp{"v1.2.3", "feedface", "2026-01-02T03:04:05Z"}},
		{"ldflags version only: commit and date from vcs",
			buildStamp{Version: "v1.2.3"},
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")},
			buildStamp{"v1.2.3", rev, "2026-11-20T10:11:12Z"}},
		{"go install module@version: the module version, no vcs",
			buildStamp{},
			&debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}},
			buildStamp{Version: "v0.4.0"}},
		{"go install module@version with vcs settings",
			buildStamp{},
			&debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}, Settings: vcs("false")},
			buildStamp{"v0.4.0", rev, "2026-11-20T10:11:12Z"}},
		{"go build in a clean clone",
			buildStamp{},
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")},
			buildStamp{"dev-0123456789ab", rev, "2026-11-20T10:11:12Z"}},
		{"go build in a clean clone, Go 1.24+: a pseudo-version",
			buildStamp{},
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261120101112-0123456789ab"}, Settings: vcs("false")},
			buildStamp{"v0.0.0-20261120101112-0123456789ab", rev, "2026-11-20T10:11:12Z"}},
		{"go build in a modified clone",
			buildStamp{},
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")},
			buildStamp{"dev-0123456789ab-dirty", rev, "2026-11-20T10:11:12Z"}},
		{"no vcs, devel", buildStamp{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, buildStamp{Version: "dev"}},
		{"no build info", buildStamp{}, nil, buildStamp{Version: "dev"}},
		{"no build info, ldflags", buildStamp{"v2.0.0", rev, "2026-11-20T10:11:12Z"}, nil,
			buildStamp{"v2.0.0", rev, "2026-11-20T10:11:12Z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resolveStamp(tc.ld, tc.bi); got != tc.want {
				t.Errorf("resolveStamp = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestBuildStampString(t *testing.T) {
	for _, tc := range []struct {
		s    buildStamp
		want string
	}{
		{buildStamp{"v1.2.3", "abc", "2026-11-20T10:11:12Z"}, "e2e-mcp v1.2.3 commit abc date 2026-11-20T10:11:12Z"},
		{buildStamp{Version: "dev"}, "e2e-mcp dev"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.s, got, tc.want)
		}
	}
}
