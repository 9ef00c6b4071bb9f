package recording

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

// DemoBinding is the binding the listeners report through.
const DemoBinding = "__e2eDemoStep"

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

// Demo is a demonstration being recorded in one tab. Its owner (browser's
// Page) guards it with its own lock: OnBinding and Steps run under it.
type Demo struct {
	script page.ScriptIdentifier // starts the listeners in new documents
	steps  []DemoStep
}

// AddDemo installs a demonstration's listeners for the tab's next
// documents: the binding DemoBinding in the world world, and the script
// start (which starts the listeners) run in that world of every new
// document. ctx runs commands on the tab; the caller runs start in the
// current document itself.
func AddDemo(ctx context.Context, world, start string) (*Demo, error) {
	if _, err := chromedp.Call(ctx, runtime.AddBinding, runtime.AddBindingParams{Name: DemoBinding, ExecutionContextName: world}); err != nil {
		return nil, err
	}
	res, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: start + ";", WorldName: world})
	if err != nil {
		return nil, err
	}
	return &Demo{script: res.Identifier}, nil
}

// Remove stops starting the listeners in the tab's next documents; ctx
// runs commands on the tab.
func (d *Demo) Remove(ctx context.Context) error {
	_, err := chromedp.Call(ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: d.script})
	return err
}

// Steps are the steps kept so far.
func (d *Demo) Steps() []DemoStep { return d.steps }

// OnBinding keeps a step the listeners sent; it runs on the read loop,
// under the owner's lock.
func (d *Demo) OnBinding(e *runtime.EventBindingCalled) {
	if e.Name != DemoBinding || len(d.steps) >= maxDemoSteps {
		return
	}
	var st DemoStep
	if json.Unmarshal([]byte(e.Payload), &st) != nil || st.Action == "" {
		return
	}
	if st.Action == "secret" {
		// A field that became secret after its text was sent: what it was
		// typed is a secret's, and goes.
		for i := range d.steps {
			if s := &d.steps[i]; s.Action == "type" && st.Field != "" && s.Field == st.Field {
				s.Secret, s.Text = true, ""
			}
		}
		return
	}
	d.steps = append(d.steps, st)
}
