package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// vitalThresholds are the good and poor bounds of each measure: web.dev's
// for the Core Web Vitals, FCP and TTFB; Lighthouse's for total blocking
// time (a lab measure).
var vitalThresholds = map[string][2]float64{
	"LCP": {2500, 4000}, "CLS": {0.1, 0.25}, "INP": {200, 500}, "FCP": {1800, 3000}, "TTFB": {800, 1800}, "TBT": {200, 600},
}

// rating is good, needs-improvement or poor for a value of a measure.
func rating(measure string, v float64) string {
	t := vitalThresholds[measure]
	switch {
	case v <= t[0]:
		return "good"
	case v <= t[1]:
		return "needs-improvement"
	}
	return "poor"
}

// PerfParams are the arguments of browser_perf.
type PerfParams struct {
	Reload        bool    `json:"reload,omitempty" jsonschema:"Reload first and measure the load"`
	Network       string  `json:"network,omitempty" jsonschema:"Reload on this throttled network (needs --caps network),enum=slow-3g,enum=fast-3g,enum=fast-4g"`
	CPUThrottling float64 `json:"cpuThrottling,omitempty" jsonschema:"Reload with the CPU this many times slower (needs --caps emulation)"`
	SessionArg
}

func perfTool(d *Deps) Tool {
	return define(d, "browser_perf", ToolsetDiagnosis,
		"Core Web Vitals of the page (LCP, CLS, INP, FCP, TTFB, long tasks) rated, with the elements; optionally reload throttled.",
		annotations{title: "Measure web vitals"},
		func(ctx context.Context, s *Session, a PerfParams) (*mcp.CallToolResult, error) {
			for _, c := range []struct {
				on        bool
				field, in string
			}{{a.Network != "", "network", CapNetwork}, {a.CPUThrottling != 0, "cpuThrottling", CapEmulation}} {
				if c.on && d.Caps != nil && !slices.Contains(d.Caps, c.in) {
					return nil, &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s throttles through the %s capability group, which this server does not offer", c.field, c.in),
						Suggestion: fmt.Sprintf("restart the server with --caps audit,%s, or measure without %s", c.in, c.field)}
				}
			}
			if a.CPUThrottling != 0 && (a.CPUThrottling < 1 || a.CPUThrottling > 100) {
				return nil, invalidInput("cpuThrottling", "%g: use 1 (none) to 100, e.g. 4 for a mid-range phone", a.CPUThrottling)
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			var v *measure.Vitals
			read := func() error {
				if a.Reload || a.Network != "" || a.CPUThrottling != 0 {
					if err := p.Reload(ctx); err != nil {
						return err
					}
				}
				v, err = p.Vitals(ctx)
				return err
			}
			if a.Network != "" || a.CPUThrottling != 0 {
				err = s.tabs.Throttled(ctx, a.Network, a.CPUThrottling, read)
			} else {
				err = read()
			}
			if err != nil {
				return nil, err
			}
			refs := map[string]browser.RefInfo{}
			for _, e := range vitalElements(v) {
				refs[e.Ref] = browser.RefInfo{Role: e.Role, Name: e.Name}
			}
			s.rememberRefs(refs, false)
			var r response
			writeVitals(&r, v, a)
			r.set("vitals", v)
			return r.build(), nil
		})
}

// vitalElements are the elements the measures name.
func vitalElements(v *measure.Vitals) []measure.VitalElement {
	var out []measure.VitalElement
	if v.LCP != nil && v.LCP.Element != nil {
		out = append(out, *v.LCP.Element)
	}
	if v.INP != nil && v.INP.Target != nil {
		out = append(out, *v.INP.Target)
	}
	for _, e := range v.CLS.Elements {
		if e.Ref != "" {
			out = append(out, e)
		}
	}
	return out
}

// element is "e5 img "Hero"" for an element a measure names.
func element(e *measure.VitalElement) string {
	if e == nil {
		return "an element no longer in the page"
	}
	if e.Ref == "" {
		return e.What
	}
	return e.Ref + " " + text.Clip(e.What, 100)
}

// writeVitals writes the measures, each with its value, unit and rating.
func writeVitals(r *response, v *measure.Vitals, a PerfParams) {
	under := ""
	var th []string
	if a.Network != "" {
		th = append(th, a.Network+" network")
	}
	if a.CPUThrottling != 0 {
		th = append(th, fmt.Sprintf("CPU %gx slower", a.CPUThrottling))
	}
	switch {
	case len(th) > 0:
		under = " (reloaded under " + strings.Join(th, ", ") + "; throttling restored)"
	case a.Reload:
		under = " (reloaded)"
	}
	r.resultf("Web vitals of the page%s:", under)
	ms := func(name string, p *float64) {
		if p == nil {
			r.resultf("- %s: not reported", name)
			return
		}
		r.resultf("- %s: %.0f ms (%s)", name, *p, rating(name, *p))
	}
	if v.LCP != nil {
		r.resultf("- LCP: %.0f ms (%s), %s", v.LCP.MS, rating("LCP", v.LCP.MS), element(v.LCP.Element))
	} else {
		r.resultf("- LCP: not reported (nothing painted yet, or the page is hidden)")
	}
	cls := fmt.Sprintf("- CLS: %.3f (%s)", v.CLS.Value, rating("CLS", v.CLS.Value))
	if v.CLS.Value > 0 {
		var moved []string
		for _, e := range v.CLS.Elements {
			moved = append(moved, fmt.Sprintf("%s at %.0f ms", element(&e), e.At))
		}
		cls += fmt.Sprintf(", %d shift(s); moved: %s", v.CLS.Shifts, strings.Join(moved, "; "))
	}
	r.resultf("%s", cls)
	switch {
	case v.INP != nil:
		r.resultf("- INP: %.0f ms (%s), %s on %s, of %d interaction(s) (input delay %.0f ms, processing %.0f ms, presentation %.0f ms)",
			v.INP.MS, rating("INP", v.INP.MS), v.INP.Event, element(v.INP.Target), v.INP.Interactions, v.INP.InputDelay, v.INP.Processing, v.INP.Presentation)
	case v.FirstInput && v.Watched:
		r.resultf("- INP: under 16 ms (good): every interaction was quick")
	default:
		r.resultf("- INP: no interactions yet (click or type, then measure again)")
	}
	ms("FCP", v.FCP)
	ms("TTFB", v.TTFB)
	if lt := v.LongTasks; lt != nil {
		if lt.Count == 0 {
			r.resultf("- Long tasks: none (total blocking time 0 ms, good)")
		} else {
			r.resultf("- Long tasks: %d, total blocking time %.0f ms (%s), the longest %.0f ms at %.0f ms", lt.Count, lt.TBT, rating("TBT", lt.TBT), lt.Longest, lt.LongestAt)
		}
	}
	if a.Network != "" {
		r.resultf("(Chrome delays the body, not the response's headers, for an emulated network: TTFB does not include its latency.)")
	}
	if !v.Watched {
		r.resultf("(This document was loaded before measuring began: long tasks and quick interactions are unknown; reload: true measures it all.)")
	}
}
