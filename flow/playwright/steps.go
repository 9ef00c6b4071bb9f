package playwright

import (
	"fmt"
	"maps"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
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
	case "request":
		return w.request(a)
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
		m, err := w.urlMatcher(u)
		if err != nil {
			return err
		}
		w.line("await page.waitForURL(%s%s);", m, prefixed(opts(to)))
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
	if src, flags, ok := selector.RegexLiteral(exp); ok {
		re = Regex(src, flags)
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
