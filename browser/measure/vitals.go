package measure

import (
	"context"
	_ "embed"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Web vitals: the engine's vitals() reads them from the page's performance
// timeline. What the timeline keeps for an observer that comes late is not
// enough (Event Timing keeps only slow events, and long tasks none), so a
// session that measures them (the audit group) runs a watcher
// (vitals.js) in the engine's world of every document from its start.

// vitalsJS is the watcher.
//
//go:embed vitals.js
var vitalsJS string

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

// ReadVitals reads the page's web vitals (the main frame's document).
func ReadVitals(ctx context.Context, t Tab) (*Vitals, error) {
	cctx, cancel := t.CallContext(ctx, 0)
	defer cancel()
	var res Vitals
	if err := t.Vitals(cctx, &res); err != nil {
		return nil, err
	}
	if res.CLS.Elements == nil {
		res.CLS.Elements = []VitalElement{}
	}
	return &res, nil
}

// Watch registers the watcher for the tab's next documents, in the world
// the engine runs in.
func Watch(ctx context.Context, t Tab, world string) error {
	cctx, cancel := t.CallContext(ctx, 0)
	defer cancel()
	if _, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: vitalsJS, WorldName: world}); err != nil {
		return t.CallError(cctx, err, "add the web vitals watcher")
	}
	return nil
}
