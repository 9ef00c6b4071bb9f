// Package playwright writes flows as Playwright Test specs: a *.spec.ts
// per flow and a playwright.config.ts whose webServer is the flows' dev
// server, for teams that keep their end-to-end tests in Playwright. Both
// session_export_flow (format playwright) and `e2e-mcp convert` use it.
// Steps without a Playwright equivalent become a `// not exported: ...`
// comment and a warning.
package playwright

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// Options say what the converter cannot read from a flow.
type Options struct {
	// DevURL is the dev server's URL when known (the session's): a
	// navigation to it becomes relative to baseURL.
	DevURL string
	// TestIDAttribute is the attribute testid= matches (data-testid).
	TestIDAttribute string
	// StorageState is the flow's storage state file as the spec names it,
	// relative to the spec's directory ("": the flow's own text).
	StorageState string
	// FilesDir is the flow file's directory as the spec names it,
	// relative to the spec's directory ("": the same directory): a
	// relative file of a step (flow.FileArgs: an upload, a route's body)
	// is relative to the flow's directory, and the spec resolves it from
	// its own.
	FilesDir string
	// SaveState is where the test saves the storage state it ends in,
	// relative to the spec's directory ("": it saves none): a setup flow's
	// (one that others need), as Playwright's setup projects save theirs.
	SaveState string
	// StartState is the state file a flow that needs setup flows starts in
	// (test.use storageState), relative to the spec's directory: the one
	// its (last) setup flow saves; "" when the setup flows are not
	// exported with it.
	StartState string
}

// Spec is one flow as a Playwright Test spec.
type Spec struct {
	// File is the spec's file name: the flow's name, NAME.spec.ts.
	File string
	Text string
	// Warnings say what was not exported, step by step.
	Warnings []string
	// Env are the environment variables the spec reads (secrets).
	Env []string
}

// FileName is a flow's spec file name.
func FileName(name string) string {
	n := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, name)
	n = strings.Trim(n, "-.")
	if n == "" {
		n = "flow"
	}
	return n + ".spec.ts"
}

// writer builds a spec: its lines, the test.use options, what it warns.
type writer struct {
	o        Options
	body     []string
	use      map[string]string
	useOrder []string
	warnings []string
	vars     map[string]bool
	n        int // names of promises (chooser1, download2...)
	routed   map[string]string
	step     int
	started  bool // a step has opened a page (navigate)
	needPath bool
	depth    int // the test.step callbacks the next line is in
	// hoist says the flow has groups: a name a step binds for a later
	// one (binding) is declared at the test's top (hoisted), since the
	// later step may sit in another test.step's callback.
	hoist    bool
	hoisted  []string
	pageCode bool // a step runs the agent's page code (pageCodeHelper)
}

func (w *writer) line(format string, args ...any) {
	w.body = append(w.body, strings.Repeat("  ", 1+w.depth)+fmt.Sprintf(format, args...))
}

// binding is the statement that gives name its value for later steps (a
// route's matcher, the promise of a file chooser or a download): a const
// where it is made, or, in a flow with groups, an assignment to a let of
// the test's top.
func (w *writer) binding(name, expr string) string {
	if !w.hoist {
		return "const " + name + " = " + expr + ";"
	}
	w.hoisted = append(w.hoisted, name)
	return name + " = " + expr + ";"
}

// asActor writes a step's code (fn) as actor's: in a block where page is
// the actor's page (actor "": the test's own page, as it is).
func (w *writer) asActor(actor string, fn func() error) error {
	if actor == "" {
		return fn()
	}
	w.line("{")
	w.depth++
	w.line("const page = %sPage; // as %s", actor, actor)
	err := fn()
	w.depth--
	w.line("}")
	return err
}

// enterGroups closes the test.step callbacks of the groups open that step
// i is not in and opens those it is in (f.GroupsAt(i)); open are the
// groups open, outermost first, and the result those open after.
func (w *writer) enterGroups(f *flow.Flow, i int, open []int) []int {
	want := f.GroupsAt(i)
	k := 0
	for k < len(open) && k < len(want) && open[k] == want[k] {
		k++
	}
	for len(open) > k {
		w.depth--
		w.line("});")
		open = open[:len(open)-1]
	}
	for _, gi := range want[k:] {
		w.line("await test.step(%s, async () => {", Quote(f.Groups[gi].Name))
		w.depth++
		open = append(open, gi)
	}
	return open
}

// skip writes a step that has no Playwright equivalent.
func (w *writer) skip(why string) {
	w.line("// not exported: %s", comment(why))
	w.warnings = append(w.warnings, fmt.Sprintf("step %d: not exported: %s", w.step, why))
}

// setUseText sets a test.use option to an expression that may read the
// environment: then as a fixture, so that it is read when a test starts,
// not when the file loads.
func (w *writer) setUseText(key, expr string, env bool) {
	if env {
		expr = "async ({}, use) => { await use(" + expr + "); }"
	}
	w.setUse(key, expr)
}

func (w *writer) setUse(key, expr string) {
	if _, ok := w.use[key]; !ok {
		w.useOrder = append(w.useOrder, key)
	}
	w.use[key] = expr
}

// envText is a flow text that reads the environment, as the converter
// holds a step's arguments (decode): its parts, and whether the step's
// code wrote it (text). A text that reads a variable where the spec can
// only hold a literal (a selector, a pattern) is an error, not a literal.
type envText struct {
	parts []flow.Part
	used  bool
}

// decode is a step's arguments with every text, at any depth, read as
// e2e-mcp run reads it (flow.Parts): a literal as a string ($$ read as
// $), a text that names variables as an *envText. The step's code sees
// only decoded arguments: no flow text reaches the spec unread.
func decode(args map[string]any) (map[string]any, error) {
	v, err := flow.MapTexts(args, func(s string) (any, error) {
		parts, err := flow.Parts(s)
		if err != nil {
			return nil, err
		}
		if len(parts) == 1 && parts[0].Literal() {
			return parts[0].Text, nil
		}
		return &envText{parts: parts}, nil
	})
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, err
}

// unread finds a text that names a variable (or a data row's field) and
// that the step's code did not write: its argument's name and the
// reference, in words (refWords).
func unread(v any, key string) (string, string) {
	switch x := v.(type) {
	case *envText:
		if !x.used {
			for _, p := range x.parts {
				if !p.Literal() {
					return key, refWords(p)
				}
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := k
			if key != "" {
				name = key + "." + k
			}
			if k, n := unread(x[k], name); k != "" {
				return k, n
			}
		}
	case []any:
		for i, e := range x {
			if k, n := unread(e, fmt.Sprintf("%s[%d]", key, i)); k != "" {
				return k, n
			}
		}
	}
	return "", ""
}

// text is a decoded argument as an expression of what e2e-mcp run types
// for it: a literal, or literals and env() reads.
func (w *writer) text(v any) string {
	switch x := v.(type) {
	case string:
		return Quote(x)
	case *envText:
		x.used = true
		return expr(x.parts, w.vars)
	}
	return Quote("")
}

// has reports whether a decoded argument is a text that is not empty.
func has(a map[string]any, k string) bool {
	switch x := a[k].(type) {
	case string:
		return x != ""
	case *envText:
		return true
	}
	return false
}

// loc is a target as a locator; a bad selector is an error of the flow,
// and so is one that reads the environment (a locator is written from
// the selector's text).
func (w *writer) loc(target any) (string, error) {
	if e, ok := target.(*envText); ok {
		_, name := unread(e, "")
		return "", fmt.Errorf("step %d: the target reads %s: a Playwright locator is written from the selector's text, so write it in the flow", w.step, name)
	}
	s, _ := target.(string)
	l, err := Locator(s, w.o.TestIDAttribute)
	if err != nil {
		return "", fmt.Errorf("step %d: %w", w.step, err)
	}
	return l, nil
}

// Convert writes a flow as a spec.
func Convert(f *flow.Flow, o Options) (*Spec, error) {
	actors := f.Actors()
	w := &writer{o: o, use: map[string]string{}, vars: map[string]bool{}, routed: map[string]string{}, hoist: len(f.Groups) > 0 || len(actors) > 0}
	st := ""
	if f.StorageState != "" {
		st = o.StorageState
		if st == "" {
			st = f.StorageState
		}
	}
	if len(f.Needs) > 0 {
		// Its setup flows' state (setup.go).
		st = o.StartState
		if st == "" {
			w.warnings = append(w.warnings, fmt.Sprintf("needs %s: its setup flows are not exported with it, so the test starts signed out: convert them together (e2e-mcp convert FLOW.yaml writes the flows it needs)", strings.Join(f.Needs, ", ")))
		}
	}
	if st != "" {
		w.needPath = true
		w.setUse("storageState", "async ({}, use, testInfo) => { await use(path.resolve(path.dirname(testInfo.file), "+Quote(filepath.ToSlash(st))+")); }")
	}
	// What a step needs registered before the step before it runs: the
	// handler of the dialog it answers, the file chooser or download it
	// waits for.
	steps := make([]flow.Step, len(f.Steps))
	for i, st := range f.Steps {
		args, err := decode(st.Args)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		steps[i] = flow.Step{Action: st.Action, Args: args, Actor: st.Actor}
	}
	pre := make([][]string, len(steps)+1)
	promise := make([]string, len(steps))
	for i, st := range steps {
		if i == 0 {
			continue
		}
		switch st.Action {
		case "dialog":
			accept, _ := st.Args["accept"].(bool)
			h := "dialog.dismiss()"
			if accept {
				h = "dialog.accept()"
				if has(st.Args, "promptText") {
					h = "dialog.accept(" + w.text(st.Args["promptText"]) + ")"
				}
			}
			pre[i-1] = append(pre[i-1], "page.once('dialog', (dialog) => { void "+h+"; });")
		case "upload":
			if t, _ := st.Args["target"].(string); t == "" {
				w.n++
				promise[i] = fmt.Sprintf("chooser%d", w.n)
				pre[i-1] = append(pre[i-1], w.binding(promise[i], "page.waitForEvent('filechooser')"))
			}
		case "wait":
			if d, _ := st.Args["download"].(bool); d {
				w.n++
				promise[i] = fmt.Sprintf("download%d", w.n)
				pre[i-1] = append(pre[i-1], w.binding(promise[i], "page.waitForEvent('download')"))
			}
		}
	}
	// A group is a test.step around its steps' code.
	var open []int
	for i, st := range steps {
		open = w.enterGroups(f, i, open)
		w.step = i + 1
		w.line("// step %d: %s", i+1, comment(describe(st)))
		if len(pre[i]) > 0 {
			// What the next step answers, on its actor's page.
			_ = w.asActor(steps[i+1].Actor, func() error {
				for _, p := range pre[i] {
					w.line("%s", p)
				}
				return nil
			})
		}
		if err := w.asActor(st.Actor, func() error { return w.stepCode(st, promise[i]) }); err != nil {
			return nil, err
		}
		if key, name := unread(st.Args, ""); key != "" {
			return nil, fmt.Errorf("step %d: %s reads %s, which a Playwright spec cannot read there: write its value in the flow", i+1, key, name)
		}
	}
	w.enterGroups(f, -1, open)
	if o.SaveState != "" {
		w.line("// The state this setup flow ends in, which the flows that need it start in.")
		w.line("await page.context().storageState({ path: %s });", w.specPath(o.SaveState))
	}
	spec := &Spec{File: FileName(f.Name), Warnings: w.warnings}
	if !f.Checks() {
		spec.Warnings = append(spec.Warnings, flow.NoChecks)
	}
	for v := range w.vars {
		spec.Env = append(spec.Env, v)
	}
	sort.Strings(spec.Env)
	var b strings.Builder
	fmt.Fprintf(&b, "// The flow %s, exported by e2e-mcp as a Playwright Test spec.\n", comment(f.Name))
	if len(spec.Env) > 0 {
		fmt.Fprintf(&b, "// It reads from the environment: %s.\n", comment(strings.Join(spec.Env, ", ")))
	}
	b.WriteString("import { test, expect } from '@playwright/test';\n")
	if w.needPath {
		b.WriteString("import path from 'node:path';\n")
	}
	b.WriteString("\n")
	if len(spec.Env) > 0 {
		fmt.Fprintf(&b, envHelper+"\n", quoteAll(spec.Env))
	}
	if w.pageCode {
		b.WriteString(pageCodeHelper + "\n")
	}
	if len(w.useOrder) > 0 {
		b.WriteString("test.use({\n")
		for _, k := range w.useOrder {
			fmt.Fprintf(&b, "  %s: %s,\n", k, w.use[k])
		}
		b.WriteString("});\n\n")
	}
	if !f.Checks() {
		fmt.Fprintf(&b, "// Warning: %s\n", comment(flow.NoChecks))
	}
	var t strings.Builder
	title := Quote(f.Name)
	if len(f.Data) > 0 {
		// One test a data row, named as e2e-mcp run names it (data.go).
		writeRows(&b, f)
		title += " + ' [' + (row.name?.trim() || 'row ' + (i + 1)) + ']'"
	}
	fixtures := "page"
	if len(actors) > 0 {
		fixtures = "page, browser, baseURL"
	}
	fmt.Fprintf(&t, "test(%s, async ({ %s }) => {\n", title, fixtures)
	if len(spec.Env) > 0 {
		t.WriteString("  checkEnv();\n")
	}
	if len(w.hoisted) > 0 {
		t.WriteString("  let " + strings.Join(w.hoisted, ", ") + ";\n")
	}
	if len(actors) > 0 {
		t.WriteString("  // Each actor of the flow is a browser context of its own (cookies, storage).\n")
	}
	for _, a := range actors {
		fmt.Fprintf(&t, "  const %sContext = await browser.newContext({ baseURL });\n  const %sPage = await %sContext.newPage();\n", a, a, a)
	}
	if choosesFiles(f) {
		t.WriteString("  // As e2e-mcp does, the test takes every file chooser the page opens: one no\n" +
			"  // step answers stays open, and the field keeps its files.\n" +
			"  page.on('filechooser', () => {});\n")
		for _, a := range actors {
			fmt.Fprintf(&t, "  %sPage.on('filechooser', () => {});\n", a)
		}
	}
	for _, l := range w.body {
		t.WriteString(l + "\n")
	}
	for _, a := range actors {
		fmt.Fprintf(&t, "  await %sContext.close();\n", a)
	}
	t.WriteString("});\n")
	if len(f.Data) > 0 {
		b.WriteString("for (const [i, row] of rows.entries()) {\n")
		for _, l := range strings.SplitAfter(t.String(), "\n") {
			if l != "" {
				b.WriteString("  " + l)
			}
		}
		b.WriteString("}\n")
	} else {
		b.WriteString(t.String())
	}
	spec.Text = b.String()
	return spec, nil
}

// choosesFiles reports whether a flow may open a file chooser: it
// uploads, or acts on a file input (its fingerprint says so). Playwright
// cancels a chooser no listener takes, which empties the field; e2e-mcp
// takes every one.
func choosesFiles(f *flow.Flow) bool {
	for _, st := range f.Steps {
		if st.Action == "upload" || st.Fingerprint != nil && st.Fingerprint.Type == "file" {
			return true
		}
	}
	return false
}

// describe says a step in a few words, for its comment, with its actor.
func describe(st flow.Step) string {
	if st.Actor != "" {
		return "(" + st.Actor + ") " + describeAction(st)
	}
	return describeAction(st)
}

func describeAction(st flow.Step) string {
	for _, k := range []string{"target", "url", "key", "text", "pattern", "action", "state", "startTarget"} {
		if v, ok := st.Args[k].(string); ok && v != "" {
			return st.Action + " " + v
		}
	}
	return st.Action
}

// relative makes a URL on the dev server relative to baseURL.
func (w *writer) relative(u string) string {
	if w.o.DevURL == "" {
		return u
	}
	dev, err1 := url.Parse(w.o.DevURL)
	p, err2 := url.Parse(u)
	if err1 != nil || err2 != nil || p.Scheme == "" || !strings.EqualFold(p.Scheme, dev.Scheme) || !strings.EqualFold(p.Host, dev.Host) {
		return u
	}
	rel := p.EscapedPath()
	if rel == "" {
		rel = "/"
	}
	if p.RawQuery != "" || p.ForceQuery {
		rel += "?" + p.RawQuery
	}
	if p.Fragment != "" {
		rel += "#" + p.EscapedFragment()
	}
	return rel
}

// specPath is a path relative to the spec's directory as the spec reads
// it, wherever Playwright runs from.
func (w *writer) specPath(rel string) string {
	w.needPath = true
	return "path.resolve(path.dirname(test.info().file), " + Quote(filepath.ToSlash(rel)) + ")"
}

// refWords names a reference of a flow text in an error.
func refWords(p flow.Part) string {
	if p.Row != "" {
		return "the data row's field ${row." + p.Row + "}"
	}
	return "the environment variable " + p.Var
}

// writeRows writes a flow's data rows as the rows the test loop runs for:
// a CSV's as they were when converted (convert again when it changes).
func writeRows(b *strings.Builder, f *flow.Flow) {
	if f.DataFile != "" {
		fmt.Fprintf(b, "// The rows of %s when the flow was converted.\n", comment(f.DataFile))
	}
	b.WriteString("const rows: Record<string, string>[] = [\n")
	for _, row := range f.Data {
		keys := make([]string, 0, len(row))
		for k := range row {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fields := make([]string, len(keys))
		for i, k := range keys {
			fields[i] = Quote(k) + ": " + Quote(row[k])
		}
		b.WriteString("  { " + strings.Join(fields, ", ") + " },\n")
	}
	b.WriteString("];\n\n")
}
