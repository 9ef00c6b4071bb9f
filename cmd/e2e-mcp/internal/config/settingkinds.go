package config

// The kinds of settings (flag, environment variable, default) the
// settings table (config.go) is made of, and their values' parsing.

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// setting is one flag with its environment variable, default and help: the
// single list from which flags, env fallbacks and the table of docs/flags.md come.
type setting struct {
	flag, env, def, help string
	bind                 func(fs *flag.FlagSet, c *Config, name, def, help string)
}

// Setting is how a setting is named and told: its flag, its environment
// variable, its default and its help, as the flags table shows them.
type Setting struct{ Flag, Env, Default, Help string }

// Settings are the server's settings in the flags table's order (not
// Playwright MCP's other names of them).
func Settings() []Setting {
	out := make([]Setting, len(settings))
	for i, s := range settings {
		out[i] = Setting{Flag: s.flag, Env: s.env, Default: s.def, Help: s.help}
	}
	return out
}

func str(get func(*Config) *string) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) { fs.StringVar(get(c), name, def, help) }
}

// optionalValue is a flag given alone (--save-video, "true") or with a
// value (--save-video=800x600); "false" turns it off.
func optionalValue(get func(*Config) *string) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		*get(c) = def
		fs.Var(&optional{p: get(c)}, name, help)
	}
}

type optional struct{ p *string }

func (o *optional) String() string {
	if o == nil || o.p == nil {
		return ""
	}
	return *o.p
}

func (o *optional) Set(v string) error {
	if strings.EqualFold(v, "false") {
		v = ""
	}
	*o.p = v
	return nil
}

// IsBoolFlag lets the flag stand alone.
func (o *optional) IsBoolFlag() bool { return true }

// VideoDefaults reads --save-video: nil when off.
func (c *Config) VideoDefaults() (*mcptools.VideoDefaults, error) {
	v := strings.TrimSpace(c.SaveVideo)
	if v == "" {
		if c.SaveVideoDir != "" {
			return nil, fmt.Errorf("--save-video-dir %s: give --save-video too (the directory is where it writes)", c.SaveVideoDir)
		}
		return nil, nil
	}
	if strings.EqualFold(v, "true") {
		return &mcptools.VideoDefaults{Save: true, Dir: c.SaveVideoDir}, nil
	}
	wi, hi, ok := videoSize(v)
	if !ok {
		return nil, fmt.Errorf("--save-video=%s: give WIDTHxHEIGHT, e.g. 1280x720 (2 to 3840 each), or no value", v)
	}
	if lim, err := c.VideoLimits(); err == nil && !lim.Fits(wi, hi) {
		return nil, fmt.Errorf("--save-video=%s: over --max-video-size %dx%d", v, lim.MaxWidth, lim.MaxHeight)
	}
	return &mcptools.VideoDefaults{Width: wi, Height: hi, Save: true, Dir: c.SaveVideoDir}, nil
}

// VideoLimits reads --max-video-size and --max-video-bytes.
func (c *Config) VideoLimits() (mcptools.VideoLimits, error) {
	w, h, ok := videoSize(c.MaxVideoSize)
	if !ok {
		return mcptools.VideoLimits{}, fmt.Errorf("--max-video-size %q: give WIDTHxHEIGHT, e.g. 1920x1080 (2 to 3840 each)", c.MaxVideoSize)
	}
	if c.MaxVideoBytes < 1<<20 {
		return mcptools.VideoLimits{}, fmt.Errorf("--max-video-bytes must be at least 1048576 (1 MiB), got %d", c.MaxVideoBytes)
	}
	return mcptools.VideoLimits{MaxWidth: w, MaxHeight: h, MaxBytes: c.MaxVideoBytes}, nil
}

// videoSize reads a video's WIDTHxHEIGHT, 2 to 3840 each.
func videoSize(v string) (int, int, bool) {
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	return wi, hi, ok && err1 == nil && err2 == nil && wi >= 2 && hi >= 2 && wi <= 3840 && hi <= 3840
}

func boolean(get func(*Config) *bool) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		b, _ := strconv.ParseBool(def)
		fs.BoolVar(get(c), name, b, help)
	}
}

func integer(get func(*Config) *int) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		n, _ := strconv.Atoi(def)
		fs.IntVar(get(c), name, n, help)
	}
}

func float(get func(*Config) *float64) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		f, _ := strconv.ParseFloat(def, 64)
		fs.Float64Var(get(c), name, f, help)
	}
}

func int64Flag(get func(*Config) *int64) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		n, _ := strconv.ParseInt(def, 10, 64)
		fs.Int64Var(get(c), name, n, help)
	}
}

// joined is a string flag that may be given more than once, its values
// joined with sep (the environment variable takes a list so separated).
func joined(get func(*Config) *string, sep string) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		p := get(c)
		*p = def
		fs.Var(&joinedValue{p: p, sep: sep}, name, help+" (repeatable)")
	}
}

// joinedValue is a joined flag's value: its String is the values so far
// (browser_get_config reads the settings through their flags).
type joinedValue struct {
	p   *string
	sep string
	set bool
}

func (j *joinedValue) String() string {
	if j == nil || j.p == nil {
		return ""
	}
	return *j.p
}

func (j *joinedValue) Set(v string) error {
	if !j.set {
		*j.p, j.set = "", true // the first value replaces the default
	}
	if *j.p != "" {
		*j.p += j.sep
	}
	*j.p += v
	return nil
}

// urls is a flag of URLs that may be given more than once, its values
// joined with spaces, which no URL holds (a comma may be in a password);
// the environment variable takes them separated by commas or spaces
// (splitURLs).
func urls(get func(*Config) *string) func(*flag.FlagSet, *Config, string, string, string) {
	return joined(get, " ")
}

// splitURLs splits a list of URLs separated by spaces or commas. A comma
// separates only where a scheme follows it: the userinfo of a URL may hold
// commas (a grid's password), and splitting there would make two URLs of
// one and show part of the password in the error.
func splitURLs(list string) []string {
	var out []string
	for _, f := range strings.Fields(list) {
		start := 0
		for i := range len(f) {
			if f[i] == ',' && schemeRE.MatchString(f[i+1:]) {
				out = append(out, f[start:i])
				start = i + 1
			}
		}
		out = append(out, f[start:])
	}
	kept := out[:0]
	for _, u := range out {
		if u = strings.Trim(u, ","); u != "" {
			kept = append(kept, u)
		}
	}
	return kept
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

func duration(get func(*Config) *time.Duration) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		d, _ := time.ParseDuration(def)
		fs.DurationVar(get(c), name, d, help)
	}
}

// millis is a duration flag that also takes a plain number of
// milliseconds, as Playwright MCP's timeouts are given.
func millis(get func(*Config) *time.Duration) func(*flag.FlagSet, *Config, string, string, string) {
	return func(fs *flag.FlagSet, c *Config, name, def, help string) {
		p := get(c)
		*p, _ = parseMillis(def)
		fs.Var(&millisValue{p: p}, name, help)
	}
}

type millisValue struct{ p *time.Duration }

func (m *millisValue) String() string {
	if m == nil || m.p == nil {
		return ""
	}
	return m.p.String()
}

func (m *millisValue) Set(v string) error {
	d, err := parseMillis(v)
	if err != nil {
		return err
	}
	*m.p = d
	return nil
}

// parseMillis reads a duration, or a plain number of milliseconds.
func parseMillis(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if n < 0 || n > float64(1<<62)/float64(time.Millisecond) {
			return 0, fmt.Errorf("want 0 or more milliseconds")
		}
		return time.Duration(n * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("want milliseconds (5000) or a duration (5s)")
	}
	return d, nil
}
