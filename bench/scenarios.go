package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/bigpages"
)

// runResult is what one server did in one run.
type runResult struct {
	Server   string               `json:"server"`
	Run      int                  `json:"run"`
	Position int                  `json:"position"`           // its place in this run's order
	Scenario string               `json:"scenario,omitempty"` // "concurrent" for the HTTP scenario; else the stdio ones
	Version  string               `json:"version,omitempty"`
	Samples  map[string][]float64 `json:"samples"`
	Errors   map[string]string    `json:"errors,omitempty"`
	Info     map[string]string    `json:"info,omitempty"`
	Memory   *memory              `json:"memory,omitempty"`
	Leftover []string             `json:"leftover,omitempty"` // processes still running after the server was ended (then killed)
}

// hung says whether the server stopped answering in this run.
func (r *runResult) hung() bool {
	for _, e := range r.Errors {
		if strings.Contains(e, "got no answer within") {
			return true
		}
	}
	return false
}

func (r *runResult) add(fig string, v float64) { r.Samples[fig] = append(r.Samples[fig], v) }

func (r *runResult) fail(fig string, err error) {
	if _, ok := r.Errors[fig]; !ok {
		r.Errors[fig] = err.Error()
	}
}

// skip marks figures that could not be measured because an earlier step
// failed.
func (r *runResult) skip(why string, figs ...string) {
	for _, f := range figs {
		r.fail(f, fmt.Errorf("not measured: %s", why))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// options shape a run.
type options struct {
	warmNavs int    // warm navigations per run
	dump     string // directory for every answer, or ""
	// formVideo is how long the video variant records the form app,
	// in its first run (video.go).
	formVideo time.Duration
	// pacedBoth: plain e2e-mcp works the form at an agent's pace too (the
	// video variant runs), for the video table's comparison.
	pacedBoth bool
}

// The form's text boxes, filled in this order, and what is typed.
var formFills = []struct{ name, text string }{
	{"Full name", "Ada Lovelace"},
	{"Email", "ada@example.com"},
	{"Password", "correct-horse-battery"},
}

// runServer drives one server through every scenario, once.
func runServer(ctx context.Context, fx *fixture, sp spec, run, pos int, mark string, o options) runResult {
	r := runResult{Server: sp.Key, Run: run, Position: pos, Samples: map[string][]float64{}, Errors: map[string]string{}, Info: map[string]string{}}
	all := figureKeys()
	dump := ""
	if o.dump != "" {
		dump = filepath.Join(o.dump, fmt.Sprintf("%s-run%d", sp.Key, run)) // start empties it: never the directory given
	}
	s, took, err := start(ctx, sp, mark, dump)
	var known []proc
	defer func() {
		if s == nil {
			return
		}
		for _, p := range s.stop(known) {
			r.Leftover = append(r.Leftover, fmt.Sprintf("%d %s", p.pid, p.comm))
		}
	}()
	if err != nil {
		r.fail("init_ms", err)
		r.skip("the server did not start", all[1:]...)
		return r
	}
	r.add("init_ms", ms(took))
	r.Version = s.version

	n, count, err := s.listTools(ctx)
	if err != nil {
		r.fail("tools_bytes", err)
		r.skip("tools/list failed", all[2:]...)
		return r
	}
	r.add("tools_bytes", float64(n))
	r.Info["tools"] = strconv.Itoa(count)
	a, err := newAdapter(s.tools)
	if err != nil {
		r.skip(err.Error(), all[2:]...)
		return r
	}
	r.Info["tools_used"] = strings.Join([]string{a.navigate, a.snapshot, a.fill, a.click}, ", ")

	// First navigation: the browser starts here.
	took, err = firstNavigation(ctx, s, &a, fx.url("/page/0"))
	if err != nil {
		r.fail("first_nav_ms", err)
		r.skip("the first navigation failed", all[3:]...)
		return r
	}
	r.add("first_nav_ms", ms(took))
	if a.pageList != "" {
		r.Info["first_nav"] = a.pageList + " + " + a.navigate
	}

	for i := 1; i <= o.warmNavs; i++ {
		ans, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url(fmt.Sprintf("/page/%d", i))))
		if err != nil {
			r.fail("warm_nav_ms", err)
			break
		}
		r.add("warm_nav_ms", ms(ans.took))
	}

	viewportScenario(ctx, s, a, fx, &r)
	video := sp.Key == e2eVideo && videoStart(ctx, s, &r, "video_kb_min", map[string]any{"filename": "bench-video.png"})
	formScenario(ctx, s, a, fx, &r)
	bigScenario(ctx, s, a, fx, &r)
	taskScenario(ctx, s, a, fx, &r)
	if video {
		burstForm(ctx, s, fx, &r)
		videoStop(ctx, s, &r, "video_kb_min")
	}

	known = s.procs()
	if ctx.Err() != nil {
		r.skip("interrupted", "server_pss", "tree_pss", "tree_uss")
		return r
	}
	m, err := measure(known, s.pid())
	if err != nil {
		r.fail("server_pss", err)
		r.fail("tree_pss", err)
		r.fail("tree_uss", err)
	} else {
		r.Memory = &m
		r.add("server_pss", float64(m.ServerKB))
		r.add("tree_pss", float64(m.TreeKB))
		r.add("tree_uss", float64(m.TreeUSSKB))
	}
	if !video && sp.Key == e2eMCP && o.pacedBoth {
		// After the memory, which the peers' columns did not add to.
		burstForm(ctx, s, fx, &r)
	}
	if run == 1 && (video || sp.Key == e2eMCP && o.pacedBoth) {
		// Once a bench, after the memory is measured: a minute at an
		// agent's pace adds nothing to the other figures.
		pacedForm(ctx, s, fx, &r, o.formVideo, video)
	}
	return r
}

// viewportScenario notes the viewport a fresh session has (not a timed
// figure: a row of the table beside the peers', since a small default
// viewport puts menus and fields off-screen).
func viewportScenario(ctx context.Context, s *session, a adapter, fx *fixture, r *runResult) {
	if _, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url("/viewport"))); err != nil {
		return
	}
	snap, err := s.call(ctx, a.snapshot, a.snapArgs())
	if err != nil {
		return
	}
	if m := viewportRE.FindStringSubmatch(snap.text); m != nil {
		r.Info["viewport"] = m[1]
	}
}

var viewportRE = regexp.MustCompile(`viewport (\d+x\d+)`)

// firstNavigation opens url in a server that has not started its browser
// yet. A server whose tools need a page id (chrome-devtools-mcp) is asked for
// it first, as an agent must: both calls are timed.
func firstNavigation(ctx context.Context, s *session, a *adapter, url string) (time.Duration, error) {
	var took time.Duration
	if a.pageList != "" {
		ans, err := s.call(ctx, a.pageList, map[string]any{})
		if err != nil {
			return 0, err
		}
		id, ok := parsePageID(ans.text)
		if !ok {
			return 0, fmt.Errorf("no selected page id in the %s answer: %s", a.pageList, oneLine(ans.text, 200))
		}
		a.pageID = id
		took += ans.took
	}
	ans, err := s.call(ctx, a.navigate, a.navArgsFor(url))
	return took + ans.took, err
}

// formScenario: snapshot the sign-up form, fill its text boxes by ref and
// click its submit button by ref; the fixture checks that the values arrived.
func formScenario(ctx context.Context, s *session, a adapter, fx *fixture, r *runResult) {
	figs := []string{"form_snap_ms", "form_snap_bytes", "fill_ms", "click_ms", "click_bytes"}
	if _, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url("/form"))); err != nil {
		r.skip("navigating to the form failed: "+err.Error(), figs...)
		return
	}
	snap, err := s.call(ctx, a.snapshot, a.snapArgs())
	if err != nil {
		r.fail("form_snap_ms", err)
		r.skip("no snapshot", figs[1:]...)
		return
	}
	r.add("form_snap_ms", ms(snap.took))
	r.add("form_snap_bytes", float64(snap.bytes))
	r.Info["form_snap_text"] = yesNo(strings.Contains(snap.text, formText))

	fx.reset()
	for _, f := range formFills {
		ref, ok := findRef(snap.text, "textbox", f.name)
		if !ok {
			r.fail("fill_ms", fmt.Errorf("no ref for textbox %q in the snapshot", f.name))
			break
		}
		ans, err := s.call(ctx, a.fill, a.fillArgs(ref, f.name+" text box", f.text))
		if err != nil {
			r.fail("fill_ms", err)
			break
		}
		r.add("fill_ms", ms(ans.took))
	}
	ref, ok := findRef(snap.text, "button", submitName)
	if !ok {
		r.skip(fmt.Sprintf("no ref for button %q in the snapshot", submitName), "click_ms", "click_bytes")
		return
	}
	ans, err := s.call(ctx, a.click, a.elementArgs(ref, submitName+" button"))
	if err != nil {
		r.fail("click_ms", err)
		r.skip("the click failed", "click_bytes")
		return
	}
	if body, ok := fx.posted(&fx.signups, 5*time.Second, "Ada Lovelace", "ada@example.com", "correct-horse-battery"); !ok {
		err := fmt.Errorf("the form did not post the filled values (got %q)", oneLine(body, 120))
		r.fail("fill_ms", err)
		r.fail("click_ms", err)
		r.fail("click_bytes", err)
		return
	}
	r.add("click_ms", ms(ans.took))
	r.add("click_bytes", float64(ans.bytes))
	r.Info["click_state"] = pageState(ans.text, welcomeText)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// pageState says what the answer to an action shows of the page after it.
func pageState(text, want string) string {
	switch {
	case strings.Contains(text, want):
		return "yes"
	case strings.Contains(text, ".yml)") || strings.Contains(text, ".yaml)"):
		return "link to a file"
	default:
		return "no"
	}
}

// bigScenario: the 1,500-row page, its snapshot and a click on one row's
// button by ref.
func bigScenario(ctx context.Context, s *session, a adapter, fx *fixture, r *runResult) {
	figs := []string{"big_nav_ms", "big_nav_bytes", "big_snap_ms", "big_snap_bytes", "big_click_ms"}
	nav, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url("/table")))
	if err != nil {
		r.fail("big_nav_ms", err)
		r.skip("navigating to the big page failed", figs[1:]...)
		return
	}
	r.add("big_nav_ms", ms(nav.took))
	r.add("big_nav_bytes", float64(nav.bytes))
	snap, err := s.call(ctx, a.snapshot, a.snapArgs())
	if err != nil {
		r.fail("big_snap_ms", err)
		r.skip("no snapshot", figs[3:]...)
		return
	}
	r.add("big_snap_ms", ms(snap.took))
	r.add("big_snap_bytes", float64(snap.bytes))
	r.Info["row_refs"] = fmt.Sprintf("%d/%d", rowRefs(snap.text), bigRows)
	name := fmt.Sprintf("Ship order %d", bigClickRow)
	ref, ok := findRef(snap.text, "button", name)
	if !ok && a.find != "" {
		// A folded snapshot: the documented way to a folded element.
		r.Info["row_refs"] += " shown, folded"
		if ans, err := s.call(ctx, a.find, map[string]any{"role": "button", "name": name}); err == nil {
			ref, ok = findRef(ans.text, "button", name)
		}
	}
	if !ok {
		r.skip(fmt.Sprintf("no ref for button %q in the snapshot", name), "big_click_ms")
		return
	}
	fx.reset()
	ans, err := s.call(ctx, a.click, a.elementArgs(ref, name+" button"))
	if err != nil {
		r.fail("big_click_ms", err)
		return
	}
	if _, ok := fx.posted(&fx.shipped, 5*time.Second, fmt.Sprintf("id=%d", bigClickRow)); !ok {
		r.fail("big_click_ms", fmt.Errorf("the click did not reach the page's button"))
		return
	}
	r.add("big_click_ms", ms(ans.took))
	r.add("big_click_bytes", float64(ans.bytes))
	r.Info["big_click_state"] = pageState(ans.text, fmt.Sprintf(bigShippedFmt, bigClickRow))
}

// taskScenario: on each big page of internal/bigpages, the bytes an agent
// reads from navigating to the page to a finished action on one named
// element, through the server's cheapest documented path: e2e-mcp
// navigates, calls browser_find only when the element is folded away, and
// clicks; the peers navigate, take a snapshot and click. The page posts
// what was done, so the fixture can tell that the task was done.
func taskScenario(ctx context.Context, s *session, a adapter, fx *fixture, r *runResult) {
	total, done, calls := 0, 0, 0
	for _, p := range bigpages.All() {
		fig := "task_" + p.Name
		fx.reset()
		nav, err := s.call(ctx, a.navigate, a.navArgsFor(fx.url("/big/"+p.Name)))
		if err != nil {
			r.fail(fig, err)
			continue
		}
		bytes, n := nav.bytes, 1
		ref, ok := "", false
		if a.find != "" {
			if ref, ok = findRef(nav.text, p.Role, p.Target); !ok {
				ans, err := s.call(ctx, a.find, map[string]any{"role": p.Role, "name": p.Target})
				if err != nil {
					r.fail(fig, err)
					continue
				}
				bytes, n = bytes+ans.bytes, n+1
				ref, ok = findRef(ans.text, p.Role, p.Target)
			}
		} else {
			snap, err := s.call(ctx, a.snapshot, a.snapArgs())
			if err != nil {
				r.fail(fig, err)
				continue
			}
			bytes, n = bytes+snap.bytes, n+1
			ref, ok = findRef(snap.text, p.Role, p.Target)
		}
		if !ok {
			r.fail(fig, fmt.Errorf("no ref for %s %q", p.Role, p.Target))
			continue
		}
		ans, err := s.call(ctx, a.click, a.elementArgs(ref, p.Target))
		if err != nil {
			r.fail(fig, err)
			continue
		}
		bytes, n = bytes+ans.bytes, n+1
		if _, ok := fx.posted(&fx.done, 5*time.Second, p.Done); !ok {
			r.fail(fig, fmt.Errorf("the click did not reach %s %q", p.Role, p.Target))
			continue
		}
		r.add(fig, float64(bytes))
		total, done, calls = total+bytes, done+1, calls+n
	}
	if done == len(bigpages.All()) {
		r.add("task_total", float64(total))
	} else {
		r.fail("task_total", fmt.Errorf("%d of %d tasks done", done, len(bigpages.All())))
	}
	r.Info["tasks"] = fmt.Sprintf("%d/%d done; %d calls", done, len(bigpages.All()), calls)
}
