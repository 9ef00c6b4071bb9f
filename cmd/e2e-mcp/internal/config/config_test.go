package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/readme"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// writeFile writes body to the file name in dir and returns its path; a
// failure ends the test.
func writeFile(t testing.TB, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseConfig(t *testing.T) {
	tests := []parseCase{
		{name: "defaults", want: func(c *Config) bool {
			return !c.Headed && c.ActionTimeout == 5*time.Second && c.NavigationTimeout == 30*time.Second && c.LogLevel == "info" && c.LogFormat == "json"
		}},
		{name: "env fallback", env: map[string]string{"E2E_MCP_ACTION_TIMEOUT": "2s", "E2E_MCP_LOG_LEVEL": "debug"},
			want: func(c *Config) bool { return c.ActionTimeout == 2*time.Second && c.LogLevel == "debug" }},
		{name: "flag wins over env", args: []string{"--action-timeout", "9s"}, env: map[string]string{"E2E_MCP_ACTION_TIMEOUT": "2s"},
			want: func(c *Config) bool { return c.ActionTimeout == 9*time.Second }},
		{name: "HEADLESS=false", env: map[string]string{"HEADLESS": "false"}, want: func(c *Config) bool { return c.Headed }},
		{name: "E2E_MCP_HEADED wins over HEADLESS", env: map[string]string{"HEADLESS": "false", "E2E_MCP_HEADED": "false"},
			want: func(c *Config) bool { return !c.Headed }},
		{name: "--headed", args: []string{"--headed"}, want: func(c *Config) bool { return c.Headed }},
		{name: "bad HEADLESS", env: map[string]string{"HEADLESS": "maybe"}, err: "$HEADLESS"},
		{name: "bad env duration", env: map[string]string{"E2E_MCP_NAVIGATION_TIMEOUT": "soon"}, err: "E2E_MCP_NAVIGATION_TIMEOUT"},
		{name: "zero timeout", args: []string{"--action-timeout", "0s"}, err: "--action-timeout must be positive"},
		{name: "bad level", args: []string{"--log-level", "loud"}, err: "--log-level"},
		{name: "bad format", env: map[string]string{"E2E_MCP_LOG_FORMAT": "xml"}, err: "--log-format"},
		// A browser path that names nothing is not a configuration error:
		// the server starts, and its first browser call says so.
		{name: "missing browser", args: []string{"--browser-path", "/nonexistent/chrome"}, want: func(c *Config) bool { return c.BrowserPath == "/nonexistent/chrome" }},
		{name: "test id attribute", env: map[string]string{"E2E_MCP_TEST_ID_ATTRIBUTE": "data-qa"}, want: func(c *Config) bool { return c.TestIDAttribute == "data-qa" }},
		{name: "bad test id attribute", args: []string{"--test-id-attribute", "a b"}, err: "--test-id-attribute"},
		{name: "snapshot cap", env: map[string]string{"E2E_MCP_MAX_SNAPSHOT_BYTES": "0"}, want: func(c *Config) bool { return c.MaxSnapshotBytes == 0 }},
		{name: "negative snapshot cap", args: []string{"--max-snapshot-bytes", "-1"}, err: "--max-snapshot-bytes"},
		{name: "file roots", env: map[string]string{"E2E_MCP_FILE_ROOTS": os.TempDir() + ", /" + string(filepath.ListSeparator) + "."},
			want: func(c *Config) bool {
				r := c.FileRootDirs()
				wd, _ := os.Getwd()
				return len(r) == 3 && r[0] == filepath.Clean(os.TempDir()) && r[1] == "/" && r[2] == wd
			}},
		{name: "file root not a directory", args: []string{"--file-roots", "/nonexistent/uploads"}, err: `--file-roots: "/nonexistent/uploads" is not a directory`},
		{name: "replica id", env: map[string]string{"E2E_MCP_REPLICA_ID": "web-2"}, want: func(c *Config) bool { return c.ReplicaID == "web-2" }},
		{name: "bad replica id", args: []string{"--replica-id", "a.b"}, err: "--replica-id must be"},
		{name: "webdriver grids and headers", args: []string{"--webdriver-url", "http://a:4444", "--webdriver-url", "https://u:k@hub.example.com/wd/hub", "--webdriver-header", "X-A: 1, 2", "--webdriver-header", "X-B: 3"},
			want: func(c *Config) bool {
				gs, err := c.Grids()
				return err == nil && len(gs) == 2 && gs[0].String() == "http://a:4444" && gs[1].String() == "https://hub.example.com/wd/hub" &&
					gs[0].Header().Get("X-A") == "1, 2" && gs[0].Header().Get("X-B") == "3" && gs[0].Header().Get("Authorization") == "" &&
					gs[1].Header().Get("Authorization") == "Basic dTpr"
			}},
		{name: "webdriver env", env: map[string]string{"E2E_MCP_WEBDRIVER_URLS": "http://a:1,http://b:2", "E2E_MCP_WEBDRIVER_HEADERS": "X-A: 1; X-B: 2"},
			want: func(c *Config) bool {
				gs, err := c.Grids()
				return err == nil && len(gs) == 2 && gs[1].String() == "http://b:2" && gs[1].Header().Get("X-B") == "2"
			}},
		{name: "bad webdriver url", args: []string{"--webdriver-url", "ws://u:secret@a:1"}, err: "--webdriver-url"},
		{name: "bad webdriver header", args: []string{"--webdriver-url", "http://a:1", "--webdriver-header", "no colon here"}, err: "--webdriver-header"},
		{name: "webdriver and cdp endpoint", args: []string{"--webdriver-url", "http://a:1", "--cdp-endpoint", "http://b:9222"}, err: "one or the other"},
		{name: "download size", env: map[string]string{"E2E_MCP_MAX_DOWNLOAD_SIZE": "5000000"}, want: func(c *Config) bool { return c.MaxDownloadSize == 5000000 }},
		{name: "default download size", want: func(c *Config) bool { return c.MaxDownloadSize == 1<<30 }},
		{name: "no download size", args: []string{"--max-download-size", "0"}, err: "--max-download-size must be at least 1 byte"},
		{name: "default viewport", want: func(c *Config) bool { return c.ViewportSize == "1280x720" }},
		{name: "viewport env", env: map[string]string{"E2E_MCP_VIEWPORT_SIZE": "390x844"}, want: func(c *Config) bool { return c.ViewportSize == "390x844" }},
		{name: "bad viewport", args: []string{"--viewport-size", "1280*720"}, err: `--viewport-size "1280*720": want WIDTHxHEIGHT`},
		{name: "viewport too big", args: []string{"--viewport-size", "20000x10"}, err: "--viewport-size"},
		{name: "default video limits", want: func(c *Config) bool {
			l, err := c.VideoLimits()
			return err == nil && l.MaxWidth == 1920 && l.MaxHeight == 1080 && l.MaxBytes == 256<<20
		}},
		{name: "video limits env", env: map[string]string{"E2E_MCP_MAX_VIDEO_SIZE": "640x480", "E2E_MCP_MAX_VIDEO_BYTES": "8388608"},
			want: func(c *Config) bool {
				l, err := c.VideoLimits()
				return err == nil && l.MaxWidth == 640 && l.MaxHeight == 480 && l.MaxBytes == 8<<20 && l.Fits(480, 640) && !l.Fits(800, 450)
			}},
		{name: "bad video limit", args: []string{"--max-video-size", "4000x4000"}, err: `--max-video-size "4000x4000": give WIDTHxHEIGHT`},
		{name: "tiny video file", args: []string{"--max-video-bytes", "1000"}, err: "--max-video-bytes must be at least 1048576"},
		{name: "saved video over the limit", args: []string{"--save-video=1920x1080", "--max-video-size", "1280x720"}, err: "--save-video=1920x1080: over --max-video-size 1280x720"},
		{name: "saved video within the limit either way round", args: []string{"--save-video=720x1280", "--max-video-size", "1280x720"},
			want: func(c *Config) bool { v, err := c.VideoDefaults(); return err == nil && v.Width == 720 }},
		{name: "video directory", args: []string{"--save-video", "--save-video-dir", "/tmp/v"},
			want: func(c *Config) bool { v, err := c.VideoDefaults(); return err == nil && v.Save && v.Dir == "/tmp/v" }},
		{name: "video directory without video", args: []string{"--save-video-dir", "/tmp/v"}, err: "--save-video-dir /tmp/v: give --save-video too"},
		{name: "scale factor", args: []string{"--device-scale-factor", "2.5"}, want: func(c *Config) bool { return c.DeviceScaleFactor == 2.5 }},
		{name: "scale factor too big", args: []string{"--device-scale-factor", "12"}, err: "--device-scale-factor 12: give a pixel ratio up to 10"},
		{name: "stray argument", args: []string{"extra"}, err: `unexpected argument "extra"`},
		{name: "unknown flag", args: []string{"--bogus"}, err: "bogus"},
	}
	runParseCases(t, tests)
}

// parseCase is one command line and environment given to Parse, and the
// Config it must give (want) or the error it must say (err).
type parseCase struct {
	name string
	args []string
	env  map[string]string
	want func(*Config) bool
	err  string
}

// runParseCases runs each case as a subtest of t.
func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("serve", tc.args, envOf(tc.env))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse(%q, %v) error = %v, want one containing %q", tc.args, tc.env, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q, %v) = %v", tc.args, tc.env, err)
			}
			if !tc.want(c) {
				t.Errorf("Parse(%q, %v) = %+v", tc.args, tc.env, *c)
			}
		})
	}
}

// TestURLListsKeepPasswords: a grid's or a remote browser's URL whose
// password holds a comma is one URL, in the variable's comma list and in a
// repeated flag alike, and a URL that is refused is named without its
// password.
func TestURLListsKeepPasswords(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{name: "variable", env: map[string]string{"E2E_MCP_WEBDRIVER_URLS": "https://ada:pa,ss@hub.example.com/wd/hub,http://b:2"}},
		{name: "variable with spaces", env: map[string]string{"E2E_MCP_WEBDRIVER_URLS": " https://ada:pa,ss@hub.example.com/wd/hub , http://b:2,"}},
		{name: "repeated flag", args: []string{"--webdriver-url", "https://ada:pa,ss@hub.example.com/wd/hub", "--webdriver-url", "http://b:2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("serve", tc.args, envOf(tc.env))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			gs, err := c.Grids()
			if err != nil || len(gs) != 2 {
				t.Fatalf("grids: %d, %v; want 2", len(gs), err)
			}
			if gs[0].String() != "https://hub.example.com/wd/hub" || gs[0].Header().Get("Authorization") != "Basic YWRhOnBhLHNz" || gs[1].String() != "http://b:2" {
				t.Errorf("grids: %s (%s), %s", gs[0], gs[0].Header().Get("Authorization"), gs[1])
			}
		})
	}
	for _, tc := range []struct{ name, env, value string }{
		{"a grid's bad URL", "E2E_MCP_WEBDRIVER_URLS", "http://ada:s3cr,et@hub:4444:1"},
		{"a grid's other scheme", "E2E_MCP_WEBDRIVER_URLS", "ws://ada:s3cr,et@hub:4444"},
		{"a remote browser's bad URL", "E2E_MCP_CDP_ENDPOINT", "ftp://ada:s3cr,et@host:9222"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("serve", nil, envOf(map[string]string{tc.env: tc.value}))
			if err == nil {
				t.Fatalf("%s=%s: no error", tc.env, tc.value)
			}
			for _, part := range []string{"s3cr", "et@", "ada"} {
				if strings.Contains(err.Error(), part) {
					t.Errorf("the error shows %q of the credentials: %v", part, err)
				}
			}
		})
	}
}

func TestParseConfig_Help(t *testing.T) {
	_, err := Parse("serve", []string{"-h"}, envOf(nil))
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: err = %v, want flag.ErrHelp", err)
	}
	var out bytes.Buffer
	Help("serve", &out)
	for _, s := range settings {
		if !strings.Contains(out.String(), "-"+s.flag) || !strings.Contains(out.String(), s.env) {
			t.Errorf("help lacks --%s / %s:\n%s", s.flag, s.env, out.String())
		}
	}
}

func TestReadmeFlagTable(t *testing.T) {
	readme.Check(t, "FLAGS", flagTable())
}

// TestHeaderFlags: --cdp-header and --webdriver-header take "Name: value"
// entries and a bare name (an empty value, as Playwright MCP takes one); an
// entry that is neither is refused without being quoted, since a header
// whose name was forgotten ("Bearer KEY") is a credential.
func TestHeaderFlags(t *testing.T) {
	h, err := headers("cdp-header", "Authorization: Bearer k1; X-Empty ;X-Trace:on")
	if err != nil || h.Get("Authorization") != "Bearer k1" || h.Get("X-Trace") != "on" || len(h.Values("X-Empty")) != 1 {
		t.Fatalf("headers = %v, %v", h, err)
	}
	for _, bad := range []string{"Bearer SECRET-KEY-1", "X-A: 1; bad name: SECRET-KEY-1", ": SECRET-KEY-1"} {
		_, err := headers("cdp-header", bad)
		if err == nil || strings.Contains(err.Error(), "SECRET-KEY-1") || !strings.Contains(err.Error(), "--cdp-header: entry") {
			t.Errorf("headers(%q) = %v: want a refusal that does not quote the entry", bad, err)
		}
	}
}

// TestOperatorSecretsHoldQueryKeys: an endpoint's password and the values
// of its secret-named query parameters are the server's secrets, masked by
// value wherever a library quotes them; the other parameters' values are
// not (a region's name is no secret, and would mask page text).
func TestOperatorSecretsHoldQueryKeys(t *testing.T) {
	c := &Config{CDPEndpoints: "wss://acct:pw-c41e7a@h:443/chromium?token=tk-5d92b0&region=eu-west wss://h2/?apiKey=ar-e6b285"}
	got := c.OperatorSecrets()
	for _, want := range []string{"pw-c41e7a", "tk-5d92b0", "ar-e6b285"} {
		if !slices.Contains(got, want) {
			t.Errorf("OperatorSecrets() = %q, want %q among them", got, want)
		}
	}
	if slices.Contains(got, "eu-west") {
		t.Errorf("OperatorSecrets() = %q: a region is no secret", got)
	}
}
