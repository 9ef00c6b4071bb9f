package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) open
// in a page. The page runs no script until it is answered.
type Dialog struct {
	Type string `json:"type"`
	// Message and DefaultPrompt are as kept: a long one is clipped.
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
	// defaultPrompt is the whole default text, which accepting a prompt
	// sends back (one dialog a tab, while it is open).
	defaultPrompt string
}

func (d *Dialog) String() string {
	return fmt.Sprintf("%s %q", d.Type, d.Message)
}

// Dialog returns the dialog open in the page, or nil.
func (p *Page) Dialog() *Dialog {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.modal.dialog == nil {
		return nil
	}
	d := *p.modal.dialog
	return &d
}

// dialogError is what a call that needs the page's scripts gets while a
// dialog blocks them.
func dialogError(d *Dialog) *Error {
	return &Error{Kind: KindDialogOpen, Message: fmt.Sprintf("a %s dialog is open: %q", d.Type, d.Message),
		Step: StepAnswerDialog}
}

// HandleDialog answers the open dialog: accept or dismiss it, with the text
// for a prompt. Then it waits for what the answer started, as an action does
// (a confirmed "leave page?" navigates, for example).
func (p *Page) HandleDialog(ctx context.Context, accept bool, promptText string) (*Dialog, error) {
	d := p.Dialog()
	if d == nil {
		return nil, newError(KindInvalidInput, "dialogs are reported in the response of the tool that opened them; there is nothing to answer",
			"no dialog is open")
	}
	if promptText != "" && d.Type != string(page.DialogTypePrompt) {
		return nil, newError(KindInvalidInput, "leave out promptText: only a prompt takes text", "promptText: the open dialog is a %s, not a prompt", d.Type)
	}
	before := p.mark()
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	params := page.HandleJavaScriptDialogParams{Accept: accept}
	if promptText != "" {
		params.PromptText = promptText
	} else if accept && d.Type == string(page.DialogTypePrompt) {
		params.PromptText = d.defaultPrompt
	}
	if _, err := chromedp.Call(cctx, page.HandleJavaScriptDialog, params); err != nil {
		return nil, p.ctxError(cctx, err, "answer the dialog")
	}
	// The closed event says the page runs again; a second dialog may open
	// right away, which the response then reports.
	_ = p.waitFor(cctx, func() bool { return p.modal.dialog == nil || p.modal.dialogs > before.dialog })
	return d, p.settle(ctx, before)
}

// Ready returns a dialog_open error while a dialog blocks the page, and a
// file_chooser_open error while a file chooser it opened waits for files:
// both are answered before the page is used again, as Playwright MCP holds
// its modal states.
func (p *Page) Ready() error {
	if err := p.NoDialog(); err != nil {
		return err
	}
	if p.FileChooserOpen() {
		return &Error{Kind: KindFileChooserOpen, Message: "a file chooser the page opened waits for files", Step: StepAnswerChooser}
	}
	return nil
}

// NoDialog returns a dialog_open error while a dialog blocks the page.
func (p *Page) NoDialog() error {
	if d := p.Dialog(); d != nil {
		return dialogError(d)
	}
	return nil
}
