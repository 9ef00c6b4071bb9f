package browser

import (
	"context"
	"embed"
	"encoding/json"
	"sync"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// Web vitals: the engine's vitals() reads them from the page's performance
// timeline. What the timeline keeps for an observer that comes late is not
// enough (Event Timing keeps only slow events, and long tasks none), so a
// session that measures them (the audit group) runs a watcher
// (pagejs/vitals.js) in the engine's world of every document from its start.

//go:embed pagejs/vitals.js
var pageJS embed.FS

// vitalsJS is the watcher (read on first use, not at every process start).
var vitalsJS = sync.OnceValue(func() string {
	b, err := pageJS.ReadFile("pagejs/vitals.js")
	if err != nil {
		panic(err)
	}
	return string(b)
})

// VitalElement is an element a measure names: its ref, role and name, and
// a short description.
type VitalElement struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	What string `json:"what"`
	// At is when it moved (layout shifts), in ms from the navigation.
	At float64 `json:"at,omitempty"`
}

// Vitals are the page's Core Web Vitals and what goes with them; times are
// in milliseconds from the start of the navigation. A measure the page has
// not produced is nil.
type Vitals struct {
	// Watched is whether the watcher ran from the document's start (else
	// only what the timeline buffers is known: no long tasks, and only
	// interactions of 104 ms or more).
	Watched bool     `json:"watched"`
	TTFB    *float64 `json:"ttfb,omitempty"`
	FCP     *float64 `json:"fcp,omitempty"`
	LCP     *struct {
		MS      float64       `json:"ms"`
		Size    float64       `json:"size"`
		URL     string        `json:"url,omitempty"`
		Element *VitalElement `json:"element,omitempty"`
	} `json:"lcp,omitempty"`
	CLS struct {
		Value    float64        `json:"value"`
		Shifts   int            `json:"shifts"`
		Elements []VitalElement `json:"elements"`
	} `json:"cls"`
	INP *struct {
		MS           float64       `json:"ms"`
		Interactions int           `json:"interactions"`
		Event        string        `json:"event"`
		Target       *VitalElement `json:"target,omitempty"`
		InputDelay   float64       `json:"inputDelay"`
		Processing   float64       `json:"processing"`
		Presentation float64       `json:"presentation"`
	} `json:"inp,omitempty"`
	// FirstInput is whether the page has had an input (an interaction
	// too fast to be an Event Timing entry still counts).
	FirstInput bool `json:"firstInput"`
	LongTasks  *struct {
		Count int     `json:"count"`
		TBT   float64 `json:"tbt"`
		// Longest is the longest task's duration, LongestAt its start.
		Longest   float64 `json:"longest"`
		LongestAt float64 `json:"longestAt"`
	} `json:"longTasks,omitempty"`
}

// Vitals reads the page's web vitals (the main frame's document).
func (p *Page) Vitals(ctx context.Context) (*Vitals, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var res struct {
		Vitals
		RefSeq int `json:"refSeq"`
	}
	var raw json.RawMessage
	if err := p.evalEngine(cctx, fnVitals.call(p.refSeqOf(p.frame), p.prefixOf(p.frame)), &raw); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	p.setRefSeq(p.frame, res.RefSeq)
	if res.CLS.Elements == nil {
		res.CLS.Elements = []VitalElement{}
	}
	return &res.Vitals, nil
}

// WatchVitals runs the watcher in every document the session's tabs load
// from now on (Tabs.open adds it to new tabs).
func (t *Tabs) WatchVitals(ctx context.Context) error {
	added := false
	t.changeSetup(func(s *pageSetup) { added, s.vitals = !s.vitals, true })
	if !added {
		return nil
	}
	for _, p := range t.livePages() {
		if err := p.addVitalsWatcher(ctx); err != nil {
			return err
		}
	}
	return nil
}

// addVitalsWatcher registers the watcher for the page's next documents, in
// the engine's world.
func (p *Page) addVitalsWatcher(ctx context.Context) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if _, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: vitalsJS(), WorldName: worldName}); err != nil {
		return p.ctxError(cctx, err, "add the web vitals watcher")
	}
	return nil
}

// Throttled runs fn with every tab of the session under a network state
// and a CPU slow-down (either may be zero: unchanged), then puts back what
// the session had set before, whatever fn did, even when the call was
// cancelled.
func (t *Tabs) Throttled(ctx context.Context, netState string, cpu float64, fn func() error) (err error) {
	before := t.setupOf()
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		if rerr := t.unthrottle(rctx, before, netState != "", cpu != 0); err == nil {
			err = rerr
		}
	}()
	if netState != "" {
		err = t.SetNetworkState(ctx, netState)
	}
	if err == nil && cpu != 0 {
		_, err = t.SetEmulation(ctx, devices.Emulation{CPUThrottling: cpu}, "", false)
	}
	if err == nil {
		err = fn()
	}
	return err
}

// unthrottle puts the session's network state and CPU rate back to what
// they were before Throttled, in every tab.
func (t *Tabs) unthrottle(ctx context.Context, before pageSetup, network, cpu bool) error {
	t.changeSetup(func(s *pageSetup) {
		s.netState, s.emulation.CPUThrottling = before.netState, before.emulation.CPUThrottling
	})
	now := t.setupOf()
	state := now.netState
	if state == "" {
		state = "online"
	}
	for _, p := range t.livePages() {
		if network {
			if err := p.applyNetworkState(ctx, state); err != nil {
				return err
			}
		}
		if cpu {
			// The rate alone, not the whole emulation again: every other
			// command runs at the slowed rate (50x: seconds each), and the
			// restore's deadline ran out before it reached the CPU's.
			cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
			err := setCPURate(cctx, now.emulation.CPUThrottling)
			cancel()
			if err != nil {
				return p.ctxError(cctx, err, "restore the CPU rate")
			}
		}
	}
	return nil
}
