package mcptools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// WaitForParams are the arguments of browser_wait_for.
type WaitForParams struct {
	Text      string  `json:"text,omitempty" jsonschema:"Text to appear"`
	TextGone  string  `json:"textGone,omitempty" jsonschema:"Text to go away"`
	Target    string  `json:"target,omitempty" jsonschema:"Ref or selector"`
	State     string  `json:"state,omitempty" jsonschema:"Target's state (default visible),enum=visible,enum=hidden,enum=attached,enum=detached"`
	URL       string  `json:"url,omitempty" jsonschema:"URL glob (**/done, /path) or /regex/"`
	LoadState string  `json:"loadState,omitempty" jsonschema:"enum=load,enum=domcontentloaded,enum=networkidle"`
	Time      float64 `json:"time,omitempty" jsonschema:"Seconds to wait first"`
	Download  bool    `json:"download,omitempty" jsonschema:"A download to end"`
	Timeout   float64 `json:"timeout,omitempty" jsonschema:"Seconds (max 60)"`
	SessionArg
}

func waitForTool(d *Deps) Tool {
	return define(d, "browser_wait_for", ToolsetWaiting,
		"Wait for text to appear or go, an element's state, a URL, a load or a download.",
		annotations{title: "Wait for a condition", readOnly: true},
		func(ctx context.Context, s *Session, a WaitForParams) (*mcp.CallToolResult, error) {
			if a.Text == "" && a.TextGone == "" && a.Target == "" && a.URL == "" && a.LoadState == "" && a.Time == 0 && !a.Download {
				return nil, invalidInput("arguments", "give what to wait for: text, textGone, target (with state), url, loadState, download or time")
			}
			timeout, err := seconds("timeout", a.Timeout)
			if err != nil {
				return nil, err
			}
			wait, err := seconds("time", a.Time)
			if err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			res, err := p.WaitFor(ctx, browser.WaitOptions{Time: wait, URL: a.URL, LoadState: a.LoadState,
				Target: a.Target, State: a.State, Text: a.Text, TextGone: a.TextGone, Timeout: timeout})
			if err != nil {
				return nil, err
			}
			var kept []keptDownload
			if a.Download {
				start := time.Now()
				if timeout == 0 {
					timeout = downloadWait
				}
				if kept = d.keepDownloads(ctx, s.tabs.TakeDownloads(ctx, timeout, true)); len(kept) == 0 {
					return nil, &ToolError{Type: ErrTimeout, Message: fmt.Sprintf("no download ended within %s", timeout.Round(time.Second)),
						Suggestion: "check that the action starts one (a link with download, a file response), or wait longer (timeout, in seconds)"}
				}
				res.Met = append(res.Met, fmt.Sprintf("%d download(s) ended", len(kept)))
				res.Waited += time.Since(start)
			}
			var r response
			r.resultf("Waited %s: %s.", res.Waited.Round(time.Millisecond), strings.Join(res.Met, "; "))
			r.set("met", res.Met)
			r.set("waitedMs", res.Waited.Milliseconds())
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			out := r.build()
			d.reportDownloads(out, kept)
			return out, nil
		})
}

// seconds turns a number of seconds from the arguments into a duration.
func seconds(field string, v float64) (time.Duration, error) {
	if v < 0 {
		return 0, invalidInput(field, "%g is negative: give seconds, e.g. 2.5", v)
	}
	if d := time.Duration(v * float64(time.Second)); d <= browser.MaxWait {
		return d, nil
	}
	return 0, invalidInput(field, "%g s is over the cap of %s: wait in steps and look at the page in between", v, browser.MaxWait)
}

// ExpectParams are the arguments of browser_expect.
type ExpectParams struct {
	Target    string   `json:"target,omitempty" jsonschema:"Ref or selector"`
	Check     string   `json:"check" jsonschema:"enum=visible,enum=hidden,enum=enabled,enum=disabled,enum=checked,enum=unchecked,enum=text,enum=value,enum=count,enum=screenshot"`
	Expected  string   `json:"expected,omitempty" jsonschema:"text: contained, value: equal, or /regex/; count: number; screenshot: baseline name"`
	Mask      []string `json:"mask,omitempty" jsonschema:"Selectors painted over"`
	Threshold float64  `json:"threshold,omitempty" jsonschema:"Color distance 0-1 (0.2)"`
	MaxDiff   float64  `json:"maxDiff,omitempty" jsonschema:"Pixels that may differ; under 1: a ratio"`
	Timeout   float64  `json:"timeout,omitempty" jsonschema:"Seconds (max 60)"`
	SessionArg
}

func expectTool(d *Deps) Tool {
	return define(d, "browser_expect", ToolsetWaiting,
		"Assert an element's state, text, value, count or screenshot, retrying until timeout.",
		annotations{title: "Expect", readOnly: true},
		func(ctx context.Context, s *Session, a ExpectParams) (*mcp.CallToolResult, error) {
			if a.Target == "" && a.Check != "screenshot" {
				return nil, invalidInput("target", "empty: give a ref from the snapshot (e5) or a selector")
			}
			if a.Check != "screenshot" && (len(a.Mask) > 0 || a.Threshold != 0 || a.MaxDiff != 0) {
				return nil, invalidInput("check", "mask, threshold and maxDiff are for check screenshot")
			}
			timeout, err := seconds("timeout", a.Timeout)
			if err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if a.Check == "screenshot" {
				return d.expectScreenshot(ctx, s, p, a, timeout)
			}
			res, err := p.Expect(ctx, a.Target, a.Check, a.Expected, timeout)
			if err != nil {
				return nil, err
			}
			var r response
			what := a.Target
			if res.Element != "" {
				what += " (" + res.Element + ")"
			}
			switch a.Check {
			case "text", "value":
				r.resultf("PASS: the %s of %s is %q.", a.Check, what, text.Clip(res.Actual, 300))
			case "count":
				r.resultf("PASS: %s matches %s elements.", a.Target, res.Actual)
			default:
				r.resultf("PASS: %s is %s.", what, a.Check)
			}
			r.set("expect", res)
			return r.build(), nil
		})
}
