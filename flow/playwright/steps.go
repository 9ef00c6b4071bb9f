package playwright

import (
	"fmt"
	"maps"
	"math"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// Arguments as YAML (int) or JSON (float64) decode them.
func str(a map[string]any, k string) string { s, _ := a[k].(string); return s }

func boolean(a map[string]any, k string) bool { b, _ := a[k].(bool); return b }

// num is a number argument; one that is not finite (YAML's .inf, .nan)
// is none: %g would write +Inf, which is not TypeScript.
func num(a map[string]any, k string) (float64, bool) {
	var f float64
	switch x := a[k].(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	return f, !math.IsInf(f, 0) && !math.IsNaN(f)
}

func strs(a map[string]any, k string) []string {
	switch x := a[k].(type) {
	case []string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		return []string{x}
	}
	return nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// timeoutOpt is a step's timeout (seconds) as Playwright's option, or "".
func timeoutOpt(a map[string]any) string {
	if s, ok := num(a, "timeout"); ok && s > 0 {
		return fmt.Sprintf("timeout: %g", s*1000)
	}
	return ""
}

func opts(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "{ " + strings.Join(kept, ", ") + " }"
}

// stepCode writes one step; promise names what an earlier line waits for
// (a file chooser, a download).
func (w *writer) stepCode(st flow.Step, promise string) error {
	a := st.Args
	target := func(k string) (string, error) { return w.loc(a[k]) }
	action := st.Action
	if action == "fill" {
		if _, ok := a["fields"]; ok {
			action = "fill_form"
		}
	}
	switch action {
	case "navigate":
		w.started = true
		u := w.text(a["url"])
		if s, ok := a["url"].(string); ok {
			u = Quote(w.relative(s))
		}
		w.line("await page.goto(%s);", u)
	case "back":
		w.line("await page.goBack();")
	case "forward":
		w.line("await page.goForward();")
	case "reload":
		w.line("await page.reload();")
	case "click":
		l, err := target("target")
		if err != nil {
			return err
		}
		method := "click"
		if boolean(a, "doubleClick") {
			method = "dblclick"
		}
		var o []string
		if b := str(a, "button"); b != "" && b != "left" {
			o = append(o, "button: "+Quote(b))
		}
		if m := strs(a, "modifiers"); len(m) > 0 {
			o = append(o, "modifiers: "+quoteAll(m))
		}
		w.line("await %s.%s(%s);", l, method, opts(o...))
	case "type", "fill":
		l, err := target("target")
		if err != nil {
			return err
		}
		text := w.text(a["text"])
		if boolean(a, "slowly") {
			// At the caret, keeping the content, as the step did.
			w.line("await %s.pressSequentially(%s);", l, text)
		} else {
			w.line("await %s.fill(%s);", l, text)
		}
		if boolean(a, "submit") {
			w.line("await %s.press('Enter');", l)
		}
	case "fill_form":
		fields, _ := a["fields"].([]any)
		for _, f := range fields {
			m, _ := f.(map[string]any)
			l, err := w.loc(m["target"])
			if err != nil {
				return err
			}
			switch str(m, "type") {
			case "checkbox", "radio":
				w.line("await %s.setChecked(%t);", l, str(m, "value") == "true")
			case "combobox":
				w.line("await %s.selectOption(%s);", l, w.text(m["value"]))
			default:
				w.line("await %s.fill(%s);", l, w.text(m["value"]))
			}
		}
	case "select":
		l, err := target("target")
		if err != nil {
			return err
		}
		w.line("await %s.selectOption(%s);", l, quoteAll(strs(a, "values")))
	case "check", "uncheck", "hover":
		l, err := target("target")
		if err != nil {
			return err
		}
		w.line("await %s.%s();", l, action)
	case "drag":
		from, err := target("startTarget")
		if err != nil {
			return err
		}
		to, err := target("endTarget")
		if err != nil {
			return err
		}
		// As many moves as the session's drag made: Playwright's one
		// move is a jump that pages following the pointer do not take
		// for a drag.
		w.line("await %s.dragTo(%s, { steps: %d });", from, to, browser.DragSteps)
	case "press":
		w.line("await page.keyboard.press(%s);", w.text(a["key"]))
	case "upload":
		paths := w.files(strs(a, "paths"))
		switch {
		case has(a, "target"):
			l, err := target("target")
			if err != nil {
				return err
			}
			w.line("await %s.setInputFiles(%s);", l, paths)
		case promise != "":
			w.line("await (await %s).setFiles(%s);", promise, paths)
		default:
			w.skip("an upload to a file chooser that no earlier step opened")
		}
	case "drop":
		l, err := target("target")
		if err != nil {
			return err
		}
		var o []string
		if paths := strs(a, "paths"); len(paths) > 0 {
			o = append(o, "files: "+w.files(paths))
		}
		if data, ok := a["data"].(map[string]any); ok && len(data) > 0 {
			var kv []string
			for _, k := range slices.Sorted(maps.Keys(data)) {
				kv = append(kv, Quote(k)+": "+w.text(data[k]))
			}
			o = append(o, "data: { "+strings.Join(kv, ", ")+" }")
		}
		w.line("await %s.drop(%s);", l, opts(o...))
	case "dialog":
		if w.step == 1 {
			w.skip("a dialog answered before any step opened it")
		} else {
			w.line("// answered by the page.once('dialog') handler before the step before")
		}
	case "resize":
		wd, _ := num(a, "width")
		ht, _ := num(a, "height")
		w.line("await page.setViewportSize({ width: %g, height: %g });", wd, ht)
	case "emulate_media":
		var o []string
		for _, k := range []string{"media", "colorScheme", "reducedMotion", "forcedColors"} {
			if v := str(a, k); v != "" {
				o = append(o, k+": "+Quote(v))
			} else {
				o = append(o, k+": null")
			}
		}
		w.line("await page.emulateMedia(%s);", opts(o...))
	case "emulate":
		w.emulate(a)
	case "clock":
		return w.clock(a)
	case "init_script":
		if p := str(a, "path"); p != "" {
			w.line("await page.context().addInitScript({ path: %s });", Quote(p))
		} else {
			w.line("await page.context().addInitScript(%s);", w.text(a["script"]))
		}
	case "route":
		return w.route(a)
	case "unroute":
		p := str(a, "pattern")
		if p == "" && !has(a, "pattern") {
			w.line("await page.context().unrouteAll();")
			w.routed = map[string]string{}
		} else if name, ok := w.routed[p]; ok {
			w.line("await page.context().unroute(%s);", name)
			delete(w.routed, p)
		} else if p != "" {
			m, err := w.routeMatcher(p)
			if err != nil {
				return err
			}
			w.line("await page.context().unroute(%s);", m)
		}
	case "network_state":
		switch s := str(a, "state"); s {
		case "online", "offline":
			w.line("await page.context().setOffline(%t);", s == "offline")
		default:
			w.skip("network state " + s + " (Playwright Test has no throttling)")
		}
	case "set_storage_state":
		fn := w.text(a["filename"])
		if f, ok := a["filename"].(string); ok {
			fn = w.file(f)
		}
		w.line("await page.context().setStorageState(%s);", fn)
	case "wait":
		return w.wait(a, promise)
	case "expect":
		return w.expect(a)
	case "evaluate":
		return w.evaluate(a)
	case "mouse_move_xy", "mouse_click_xy", "mouse_drag_xy", "mouse_down", "mouse_up", "mouse_wheel":
		w.mouse(action, a)
	case "audit_a11y":
		w.skip("the accessibility audit (e2e-mcp's own rules, docs/audit.md): `e2e-mcp run` checks it; in Playwright, @axe-core/playwright is the usual way")
	default:
		w.skip("the action " + st.Action)
	}
	return nil
}

// files are a step's file arguments as an array the spec reads (file).
func (w *writer) files(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = w.file(p)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// file is a step's file argument as the spec reads it: an absolute path
// as written; a relative one (relative to the flow's directory,
// flow.FileArgs) resolved from the spec's own directory, through
// Options.FilesDir, wherever Playwright runs from.
func (w *writer) file(p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return Quote(p)
	}
	rel := path.Clean(path.Join(filepath.ToSlash(w.o.FilesDir), filepath.ToSlash(p)))
	w.needPath = true
	return "path.resolve(path.dirname(test.info().file), " + Quote(rel) + ")"
}

// evaluate writes page code the agent ran (browser_evaluate) as the spec
// runs it: through pageCode, on the page or on the step's element.
func (w *writer) evaluate(a map[string]any) error {
	if !has(a, "function") {
		return fmt.Errorf("step %d: evaluate has no function", w.step)
	}
	on := "page"
	if has(a, "target") {
		l, err := w.loc(a["target"])
		if err != nil {
			return err
		}
		on = l
	}
	w.pageCode = true
	w.line("// page code the agent ran: review it, it is the test's as much as the steps are")
	// The text as e2e-mcp runs it: a secret in it read from the
	// environment.
	w.line("await %s.evaluate(pageCode(%s));", on, w.text(a["function"]))
	return nil
}

// mouse writes a step of the mouse at coordinates (the vision tools) with
// page.mouse, moving the pointer as e2e-mcp does: a drag in
// browser.DragSteps moves, as a drag step's dragTo.
func (w *writer) mouse(action string, a map[string]any) {
	n := func(k string) string {
		v, _ := num(a, k)
		return fmt.Sprintf("%g", v)
	}
	button := ""
	if b := str(a, "button"); b != "" && b != "left" {
		button = "button: " + Quote(b)
	}
	switch action {
	case "mouse_move_xy":
		w.line("await page.mouse.move(%s, %s);", n("x"), n("y"))
	case "mouse_click_xy":
		count := ""
		if c, ok := num(a, "clickCount"); ok && c > 1 && c <= 3 {
			count = fmt.Sprintf("clickCount: %g", c)
		}
		w.line("await page.mouse.click(%s, %s%s);", n("x"), n("y"), prefixed(opts(button, count)))
	case "mouse_drag_xy":
		w.line("await page.mouse.move(%s, %s);", n("startX"), n("startY"))
		w.line("await page.mouse.down();")
		w.line("await page.mouse.move(%s, %s, { steps: %d });", n("endX"), n("endY"), browser.DragSteps)
		w.line("await page.mouse.up();")
	case "mouse_down", "mouse_up":
		w.line("await page.mouse.%s(%s);", strings.TrimPrefix(action, "mouse_"), opts(button))
	case "mouse_wheel":
		// e2e-mcp turns the wheel over the point without moving the
		// pointer there and waits until the page stops scrolling (three
		// frames alike, at most a second); Playwright's wheel turns where
		// the pointer is and returns at once.
		w.line("await page.mouse.move(%s, %s);", n("x"), n("y"))
		w.line("await page.mouse.wheel(%s, %s);", n("deltaX"), n("deltaY"))
		w.line("await page.evaluate(() => new Promise<void>((done) => { let last = '', same = 0; const t0 = performance.now(); " +
			"const tick = () => { const v = scrollX + ',' + scrollY; same = v === last ? same + 1 : 0; last = v; " +
			"if (same >= 3 || performance.now() - t0 > 1000) done(); else requestAnimationFrame(tick); }; requestAnimationFrame(tick); }));")
	}
}

// globRE is a URL glob as the regular expression e2e-mcp matches it with
// (the whole URL, or path?query for a glob starting with '/').
func globRE(g string) string { return browser.GlobSource(g) }

// urlMatcher is a URL pattern of browser_wait_for as what Playwright's
// waitForURL takes: a /regex/ (JavaScript's, as the page reads it) as a
// RegExp; a glob as the RegExp e2e-mcp matches it with (Playwright's own
// globs differ in ?, {} and relative URLs); a glob that starts with '/' as
// a predicate on the URL's path and query, as e2e-mcp matches it.
func (w *writer) urlMatcher(p string) string {
	if m := regexArgRE.FindStringSubmatch(p); m != nil && !strings.Contains(p, "**") && !strings.Contains(p, "/*") {
		return Regex(m[1], m[2])
	}
	return globMatcher(p)
}

// routeMatcher is a route's pattern, as urlMatcher, but a /regex/ is Go's
// (browser_route compiles it with regexp): translated (GoRegex), or an
// error of the step.
func (w *writer) routeMatcher(p string) (string, error) {
	if m := regexArgRE.FindStringSubmatch(p); m != nil && !strings.Contains(p, "**") && !strings.Contains(p, "/*") {
		re, err := GoRegex(m[1], m[2])
		if err != nil {
			return "", fmt.Errorf("step %d: %w", w.step, err)
		}
		return re, nil
	}
	return globMatcher(p), nil
}

func globMatcher(p string) string {
	re := Regex(globRE(p), "")
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
		dev, ok := browser.Devices[d]
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

func (w *writer) wait(a map[string]any, promise string) error {
	to := timeoutOpt(a)
	if s, ok := num(a, "time"); ok && s > 0 {
		w.line("await page.waitForTimeout(%g);", s*1000)
	}
	if has(a, "text") {
		w.line("await expect(page.getByText(%s).first()).toBeVisible(%s);", w.text(a["text"]), opts(to))
	}
	if has(a, "textGone") {
		w.line("await expect(page.getByText(%s).filter({ visible: true })).toHaveCount(0%s);", w.text(a["textGone"]), prefixed(opts(to)))
	}
	if has(a, "target") {
		l, err := w.loc(a["target"])
		if err != nil {
			return err
		}
		state := str(a, "state")
		if state == "" {
			state = "visible"
		}
		w.line("await %s.waitFor(%s);", l, opts("state: "+Quote(state), to))
	}
	if u := str(a, "url"); u != "" {
		w.line("await page.waitForURL(%s%s);", w.urlMatcher(u), prefixed(opts(to)))
	}
	if ls := str(a, "loadState"); ls != "" {
		w.line("await page.waitForLoadState(%s);", Quote(ls))
	}
	if boolean(a, "download") {
		if promise == "" {
			w.skip("a wait for a download that no earlier step started")
		} else {
			w.line("await (await %s).path(); // the download has ended", promise)
		}
	}
	return nil
}

func prefixed(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

// expect writes browser_expect as Playwright's web-first assertion of the
// same meaning: text contains (whitespace-normalized) or matches a
// /regex/, value equals or matches, count is a number.
func (w *writer) expect(a map[string]any) error {
	if str(a, "check") == "screenshot" {
		return w.expectScreenshot(a)
	}
	l, err := w.loc(a["target"])
	if err != nil {
		return err
	}
	to := opts(timeoutOpt(a))
	exp := str(a, "expected")
	re := ""
	if m := regexArgRE.FindStringSubmatch(exp); m != nil {
		re = Regex(m[1], m[2])
	}
	var call string
	switch c := str(a, "check"); c {
	case "visible":
		call = "toBeVisible(" + to + ")"
	case "hidden":
		call = "toBeHidden(" + to + ")"
	case "enabled":
		call = "toBeEnabled(" + to + ")"
	case "disabled":
		call = "toBeDisabled(" + to + ")"
	case "checked":
		call = "toBeChecked(" + to + ")"
	case "unchecked":
		call = "toBeChecked(" + opts("checked: false", timeoutOpt(a)) + ")"
	case "text":
		if re != "" {
			call = "toHaveText(" + re + prefixed(to) + ")"
		} else {
			call = "toContainText(" + w.text(a["expected"]) + prefixed(to) + ")"
		}
	case "value":
		if re != "" {
			call = "toHaveValue(" + re + prefixed(to) + ")"
		} else {
			call = "toHaveValue(" + w.text(a["expected"]) + prefixed(to) + ")"
		}
	case "count":
		n, err := strconv.Atoi(strings.TrimSpace(exp))
		if err != nil {
			return fmt.Errorf("step %d: expect count %q is not a number", w.step, exp)
		}
		call = fmt.Sprintf("toHaveCount(%d%s)", n, prefixed(to))
	default:
		w.skip("the expect check " + c)
		return nil
	}
	w.line("await expect(%s).%s;", l, call)
	return nil
}

// expectScreenshot is a visual check as Playwright's toHaveScreenshot: the
// same name, masks, color threshold and pixels allowed to differ. The
// baseline is Playwright's own (its snapshot directory, written by a run
// with --update-snapshots), not the flow's FLOW.snapshots/ image: the two
// render alike only on the same machine and browser.
func (w *writer) expectScreenshot(a map[string]any) error {
	subject := "page"
	if has(a, "target") {
		l, err := w.loc(a["target"])
		if err != nil {
			return err
		}
		subject = l
	}
	var masks []string
	for _, m := range strs(a, "mask") {
		l, err := w.loc(m)
		if err != nil {
			return err
		}
		masks = append(masks, l)
	}
	var mask, threshold, maxDiff string
	if len(masks) > 0 {
		mask = "mask: [" + strings.Join(masks, ", ") + "]"
	}
	if v, ok := num(a, "threshold"); ok {
		threshold = fmt.Sprintf("threshold: %g", v)
	}
	if v, ok := num(a, "maxDiff"); ok && v > 0 {
		if v < 1 {
			maxDiff = fmt.Sprintf("maxDiffPixelRatio: %g", v)
		} else {
			maxDiff = fmt.Sprintf("maxDiffPixels: %g", v)
		}
	}
	name := ""
	if n := str(a, "expected"); n != "" {
		name = Quote(n+".png") + ", "
	}
	w.line("// The baseline is Playwright's: a first run with --update-snapshots writes it.")
	w.line("await expect(%s).toHaveScreenshot(%s%s);", subject, name,
		opts("animations: 'disabled'", "caret: 'hide'", mask, threshold, maxDiff, timeoutOpt(a)))
	return nil
}
