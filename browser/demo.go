package browser

import (
	"context"
	"encoding/json"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// A person's demonstration: while it is recorded, listeners in the
// engine's isolated world of every document of the tab (js/58_demo.js)
// turn the person's trusted clicks, typing, choices and keys into steps,
// with the locators the agent's own recording writes, and send them over a
// CDP binding that exists only in that world: the page can neither see the
// listeners nor send steps of its own.

// demoBinding is the binding the listeners report through.
const demoBinding = "__e2eDemoStep"

// maxDemoSteps bounds the steps one demonstration keeps.
const maxDemoSteps = 1000

// DemoStep is one thing the person did: Action is click, type, check,
// uncheck, select or press; Target a selector; Text what a type step
// typed (Secret: a secret field's, whose text the page never sends);
// Field the field a type step typed into, the same for every part of one
// field's typing in one document; Values the options chosen; Key the key
// pressed, with its modifiers (Control+A).
type DemoStep struct {
	Action string   `json:"action"`
	Target string   `json:"target,omitempty"`
	Text   string   `json:"text,omitempty"`
	Secret bool     `json:"secret,omitempty"`
	Field  string   `json:"field,omitempty"`
	Values []string `json:"values,omitempty"`
	Key    string   `json:"key,omitempty"`
}

// demoState is a demonstration being recorded.
type demoState struct {
	script page.ScriptIdentifier // starts the listeners in new documents
	steps  []DemoStep
}

// StartDemo starts recording what a person does in the tab, in its current
// document and the next ones. Starting again keeps the recording.
func (p *Page) StartDemo(ctx context.Context) error {
	p.mu.Lock()
	on := p.demo != nil
	p.mu.Unlock()
	if on {
		return nil
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if _, err := chromedp.Call(cctx, runtime.AddBinding, runtime.AddBindingParams{Name: demoBinding, ExecutionContextName: worldName}); err != nil {
		return p.ctxError(cctx, err, "start recording")
	}
	start := fnStartDemo.call(p.m.opts.TestIDAttribute, demoBinding)
	res, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: start + ";", WorldName: worldName})
	if err != nil {
		return p.ctxError(cctx, err, "start recording")
	}
	p.mu.Lock()
	p.demo = &demoState{script: res.Identifier}
	p.mu.Unlock()
	var started bool
	if err := p.evalEngine(cctx, start, &started); err != nil {
		return err
	}
	if !started {
		return newError(KindScriptError, "reload the page and start again", "the page's recorder did not start")
	}
	return nil
}

// StopDemo stops the recording and returns its steps; ok is false when
// none was being recorded.
func (p *Page) StopDemo(ctx context.Context) (steps []DemoStep, ok bool, err error) {
	p.mu.Lock()
	d := p.demo
	p.mu.Unlock()
	if d == nil {
		return nil, false, nil
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	_, rmErr := chromedp.Call(cctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: d.script})
	// The text the person was still typing: stopDemo hands it back.
	var last *DemoStep
	evalErr := p.evalEngine(cctx, fnStopDemo.call(), &last)
	p.mu.Lock()
	p.demo = nil
	steps = d.steps
	p.mu.Unlock()
	if last != nil {
		steps = append(steps, *last)
	}
	if rmErr != nil {
		return steps, true, p.ctxError(cctx, rmErr, "stop recording")
	}
	return steps, true, evalErr
}

// demoEventLocked keeps a step the listeners sent; p.mu is held.
func (p *Page) demoEventLocked(e *runtime.EventBindingCalled) {
	if p.demo == nil || e.Name != demoBinding || len(p.demo.steps) >= maxDemoSteps {
		return
	}
	var st DemoStep
	if json.Unmarshal([]byte(e.Payload), &st) != nil || st.Action == "" {
		return
	}
	if st.Action == "secret" {
		// A field that became secret after its text was sent: what it was
		// typed is a secret's, and goes.
		for i := range p.demo.steps {
			if d := &p.demo.steps[i]; d.Action == "type" && st.Field != "" && d.Field == st.Field {
				d.Secret, d.Text = true, ""
			}
		}
		return
	}
	p.demo.steps = append(p.demo.steps, st)
}
