package playwright

// The steps that set up the browser context rather than act on the page:
// routes and their URL matchers, headers, emulation and the clock.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// urlMatcher is a URL pattern of browser_wait_for as what Playwright's
// waitForURL takes: a /regex/ (JavaScript's, as the page reads it) as a
// RegExp; a glob as the RegExp e2e-mcp matches it with (Playwright reads a
// glob the same way but for a relative one, which it resolves against the
// base URL); a glob that starts with '/' as a predicate on the URL's path
// and query, as e2e-mcp matches it. A glob e2e-mcp refuses is an error of
// the step.
func (w *writer) urlMatcher(p string) (string, error) {
	u, err := selector.ParseURLPattern(p)
	if err != nil {
		return "", fmt.Errorf("step %d: %w", w.step, err)
	}
	if !u.Glob {
		return Regex(u.Source, u.Flags), nil
	}
	return globMatcher(p, u.Source), nil
}

// routeMatcher is a route's pattern, as urlMatcher, but a /regex/ is Go's
// (browser_route compiles it with regexp): translated (GoRegex), or an
// error of the step.
func (w *writer) routeMatcher(p string) (string, error) {
	u, err := selector.ParseURLPattern(p)
	if err != nil {
		return "", fmt.Errorf("step %d: %w", w.step, err)
	}
	if !u.Glob {
		re, err := GoRegex(u.Source, u.Flags)
		if err != nil {
			return "", fmt.Errorf("step %d: %w", w.step, err)
		}
		return re, nil
	}
	return globMatcher(p, u.Source), nil
}

// globMatcher is glob p, whose regular expression is source, as a matcher.
func globMatcher(p, source string) string {
	re := Regex(source, "")
	if strings.HasPrefix(p, "/") {
		return "(url: URL) => " + re + ".test(url.pathname + url.search)"
	}
	return re
}

func (w *writer) route(a map[string]any) error {
	p := str(a, "pattern")
	m, err := w.routeMatcher(p)
	if err != nil {
		return err
	}
	if old, ok := w.routed[p]; ok {
		// e2e-mcp replaces the route of the same pattern.
		w.line("await page.context().unroute(%s);", old)
	}
	w.n++
	name := fmt.Sprintf("route%d", w.n)
	w.routed[p] = name
	w.line("%s // %s", w.binding(name, m), comment(p))
	var body []string
	if d, ok := num(a, "delay"); ok && d > 0 {
		body = append(body, fmt.Sprintf("await new Promise((resolve) => setTimeout(resolve, %g));", d*1000))
	}
	headers, _ := w.headers(a["headers"])
	status, _ := num(a, "status")
	fulfils := status != 0 || has(a, "body") || str(a, "path") != "" || str(a, "contentType") != ""
	switch {
	case str(a, "abort") != "":
		body = append(body, "await route.abort("+Quote(str(a, "abort"))+");")
	case fulfils:
		var o []string
		if status != 0 {
			o = append(o, fmt.Sprintf("status: %g", status))
		}
		if ct := str(a, "contentType"); ct != "" {
			o = append(o, "contentType: "+Quote(ct))
		}
		if len(headers) > 0 {
			o = append(o, "headers: "+object(headers, false))
		}
		if p := str(a, "path"); p != "" {
			o = append(o, "path: "+w.file(p))
		} else {
			o = append(o, "body: "+w.text(a["body"]))
		}
		body = append(body, "await route.fulfill("+opts(o...)+");")
	case len(headers) > 0 || str(a, "removeHeaders") != "":
		body = append(body, "const headers = { ...route.request().headers(), ...("+object(headers, true)+") };")
		for _, h := range strings.Split(str(a, "removeHeaders"), ",") {
			if h = strings.TrimSpace(h); h != "" {
				body = append(body, "delete headers["+Quote(strings.ToLower(h))+"];")
			}
		}
		body = append(body, "await route.continue({ headers });")
	default:
		body = append(body, "await route.continue();")
	}
	times := ""
	if t, ok := num(a, "times"); ok && t > 0 {
		times = fmt.Sprintf(", { times: %g }", t)
	}
	w.line("await page.context().route(%s, async (route) => {", name)
	for _, l := range body {
		w.line("  %s", l)
	}
	w.line("}%s);", times)
	return nil
}

// headers reads 'Name: value' lines (a route's, an emulation's) into
// header names and the expressions of their values: a literal, or, for a
// line whose value reads the environment (a credential recorded as
// ${E2E_SECRET_n}), literals and env() reads; env says whether one does.
// A line whose name reads the environment stays unread (an error).
func (w *writer) headers(v any) (m map[string]string, env bool) {
	m = map[string]string{}
	var lines []any
	switch x := v.(type) {
	case []any:
		lines = x
	case string, *envText:
		lines = []any{x}
	}
	for _, l := range lines {
		switch x := l.(type) {
		case string:
			if k, v, ok := strings.Cut(x, ":"); ok && strings.TrimSpace(k) != "" {
				m[strings.TrimSpace(k)] = Quote(strings.TrimSpace(v))
			}
		case *envText:
			first := x.parts[0]
			k, rest, ok := strings.Cut(first.Text, ":")
			if !first.Literal() || !ok || strings.TrimSpace(k) == "" {
				continue // the name reads the environment: left unread
			}
			value := append([]flow.Part{{Text: strings.TrimLeft(rest, " \t")}}, x.parts[1:]...)
			if value[0].Text == "" {
				value = value[1:]
			}
			x.used, env = true, true
			m[strings.TrimSpace(k)] = expr(value, w.vars)
		}
	}
	return m, env
}

// object is a map of header names and the expressions of their values as
// an object literal, keys sorted (lower-cased for request headers, as
// Playwright names them).
func object(m map[string]string, lower bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		name := k
		if lower {
			name = strings.ToLower(k)
		}
		parts = append(parts, Quote(name)+": "+m[k])
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// emulate puts browser_emulate's settings into test.use: Playwright sets
// them when it creates the test's context.
func (w *writer) emulate(a map[string]any) {
	if boolean(a, "reset") {
		w.skip("emulate reset (the settings before it stay in test.use)")
	}
	if w.started {
		w.line("// emulate: set for the whole test in test.use above")
	}
	if d := str(a, "device"); d != "" {
		dev, ok := devices.Devices[d]
		if !ok {
			w.skip("the device preset " + d)
		} else {
			w.setUse("viewport", fmt.Sprintf("{ width: %d, height: %d }", dev.Width, dev.Height))
			if dev.DeviceScaleFactor > 0 {
				w.setUse("deviceScaleFactor", fmt.Sprintf("%g", dev.DeviceScaleFactor))
			}
			w.setUse("isMobile", fmt.Sprintf("%t", dev.Mobile))
			w.setUse("hasTouch", fmt.Sprintf("%t", dev.Touch))
			if dev.UserAgent != "" {
				w.setUse("userAgent", Quote(dev.UserAgent))
			}
		}
	}
	wd, okw := num(a, "width")
	ht, okh := num(a, "height")
	if okw && okh && wd > 0 {
		w.setUse("viewport", fmt.Sprintf("{ width: %g, height: %g }", wd, ht))
	}
	if f, ok := num(a, "deviceScaleFactor"); ok && f > 0 {
		w.setUse("deviceScaleFactor", fmt.Sprintf("%g", f))
	}
	for _, k := range []string{"isMobile", "hasTouch"} {
		if boolean(a, k) {
			w.setUse(k, "true")
		}
	}
	for _, k := range []string{"userAgent", "locale", "timezoneId"} {
		if has(a, k) {
			w.setUseText(k, w.text(a[k]), isEnv(a[k]))
		}
	}
	perms := strs(a, "permissions")
	lat, okLat := num(a, "latitude")
	lon, okLon := num(a, "longitude")
	if okLat && okLon {
		w.setUse("geolocation", fmt.Sprintf("{ latitude: %g, longitude: %g }", lat, lon))
		if !contains(perms, "geolocation") {
			perms = append(perms, "geolocation") // e2e-mcp grants it with the position
		}
	}
	if len(perms) > 0 {
		w.setUse("permissions", quoteAll(perms))
	}
	if m, env := w.headers(a["headers"]); len(m) > 0 {
		w.setUseText("extraHTTPHeaders", object(m, false), env)
	}
	if has(a, "httpUsername") {
		creds := "username: " + w.text(a["httpUsername"]) + ", password: " + w.text(a["httpPassword"])
		if has(a, "httpOrigin") {
			creds += ", origin: " + w.text(a["httpOrigin"]) // sent to that origin only, as the session did
		}
		w.setUseText("httpCredentials", "{ "+creds+" }",
			isEnv(a["httpUsername"]) || isEnv(a["httpPassword"]) || isEnv(a["httpOrigin"]))
	}
	if c, ok := num(a, "cpuThrottling"); ok && c > 0 {
		w.line("await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: %g });", c)
	}
}

func isEnv(v any) bool { _, ok := v.(*envText); return ok }

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// clockLayouts are the times browser_clock reads (mcptools/clock.go).
var clockLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

// clockTime is browser_clock's time as a TypeScript Date, as e2e-mcp reads
// it (a time without a zone is UTC).
func clockTime(s string) (string, bool) {
	if ms, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		return strconv.FormatInt(ms, 10), true
	}
	for _, l := range clockLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return "new Date(" + Quote(t.UTC().Format("2006-01-02T15:04:05.000Z")) + ")", true
		}
	}
	return "", false
}

func (w *writer) clock(a map[string]any) error {
	act := str(a, "action")
	at := ""
	if t := str(a, "time"); strings.TrimSpace(t) != "" {
		var ok bool
		if at, ok = clockTime(t); !ok {
			return fmt.Errorf("step %d: clock time %q: write it as 2030-01-01T09:00:00Z or ms since the epoch", w.step, t)
		}
	}
	ms := ""
	if d := str(a, "duration"); d != "" {
		dur, err := time.ParseDuration(d)
		if err != nil {
			return fmt.Errorf("step %d: clock duration %q: write it as 1h, 90s or 500ms", w.step, d)
		}
		ms = fmt.Sprintf("%g", float64(dur)/float64(time.Millisecond))
	}
	switch act {
	case "install":
		if at != "" {
			w.line("await page.clock.install({ time: %s });", at)
		} else {
			w.line("await page.clock.install();")
		}
	case "fast_forward", "run_for":
		m := map[string]string{"fast_forward": "fastForward", "run_for": "runFor"}[act]
		w.line("await page.clock.%s(%s);", m, ms)
	case "pause_at", "set_fixed_time", "set_system_time":
		m := map[string]string{"pause_at": "pauseAt", "set_fixed_time": "setFixedTime", "set_system_time": "setSystemTime"}[act]
		w.line("await page.clock.%s(%s);", m, at)
	case "resume":
		w.line("await page.clock.resume();")
	default:
		w.skip("the clock action " + act)
	}
	return nil
}
