package mcptools

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// maxTabsListed bounds browser_tabs action=list, which keeps its answer
// within budget even for a page that opened a thousand tabs.
const maxTabsListed = 300

// TabsParams are the arguments of browser_tabs.
type TabsParams struct {
	Action string `json:"action" jsonschema:"enum=list,enum=new,enum=select,enum=close"`
	Index  *int   `json:"index,omitempty" jsonschema:"Tab to select or close (close: default current)"`
	URL    string `json:"url,omitempty" jsonschema:"For new: URL to open"`
	SessionArg
}

func tabsTool(d *Deps) Tool {
	return define(d, "browser_tabs", ToolsetNavigation,
		"List, open, select or close tabs; popups the page opens are here.",
		annotations{title: "Manage tabs", openWorld: true},
		func(ctx context.Context, s *Session, a TabsParams) (*mcp.CallToolResult, error) {
			if (a.Action == "list" || a.Action == "new") && a.Index != nil {
				return nil, invalidInput("index", "only select and close take an index")
			}
			if a.Action != "new" && a.URL != "" {
				return nil, invalidInput("url", "only new takes a url")
			}
			if _, err := s.Tab(ctx, d.Browser); err != nil {
				return nil, err
			}
			var r response
			var p *browser.Page
			var err error
			switch a.Action {
			case "list":
				r.writeTabs(shortTabs(s.tabs.List(ctx), maxTabsListed))
				return r.build(), nil
			case "new":
				target := ""
				if a.URL != "" {
					if target, err = s.resolveURL(a.URL); err != nil {
						return nil, err
					}
					if err := checkURL(target); err != nil {
						return nil, err
					}
				}
				if p, err = s.tabs.New(ctx); err != nil {
					return nil, err
				}
				if target != "" {
					if _, err := p.Navigate(ctx, target); err != nil {
						return nil, err
					}
				}
				r.resultf("Opened tab %d.", s.tabs.Len()-1)
			case "select":
				if a.Index == nil {
					return nil, invalidInput("index", "select needs the index of a tab (see action=list)")
				}
				if _, err := s.tabs.Select(ctx, *a.Index); err != nil {
					return nil, err
				}
				r.resultf("Tab %d is current.", *a.Index)
			case "close":
				i := s.tabs.CurrentIndex()
				if a.Index != nil {
					i = *a.Index
				}
				was := s.tabs.Current()
				if err := s.tabs.CloseTab(ctx, i); err != nil {
					return nil, err
				}
				r.resultf("Closed tab %d.", i)
				if s.tabs.Len() == 0 {
					r.resultf("No tab is open; the next browser tool opens a blank one (cookies and storage are kept).")
					return r.build(), nil
				}
				if s.tabs.Current() == was {
					// The current tab did not change: its page is as the
					// agent last saw it; the list says what is left.
					r.writeTabs(shortTabs(s.tabs.List(ctx), maxTabsShown))
					return r.build(), nil
				}
			default:
				return nil, invalidInput("action", "%q: use list, new, select or close", a.Action)
			}
			// The page state of the tab that is now current.
			if p, err = s.Tab(ctx, d.Browser); err != nil {
				return nil, err
			}
			if err := r.pageState(ctx, s, p, snapFull, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			if s.tabs.Len() == 1 {
				r.writeTabs(shortTabs(s.tabs.List(ctx), maxTabsShown))
			}
			return r.build(), nil
		})
}

// HandleDialogParams are the arguments of browser_handle_dialog.
type HandleDialogParams struct {
	Accept     bool   `json:"accept" jsonschema:"true: OK; false: Cancel"`
	PromptText string `json:"promptText,omitempty" jsonschema:"Answer to a prompt"`
	SessionArg
}

func handleDialogTool(d *Deps) Tool {
	return define(d, "browser_handle_dialog", ToolsetInput,
		"Answer the current tab's dialog (alert, confirm, prompt, beforeunload).",
		annotations{title: "Answer a dialog", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a HandleDialogParams) (*mcp.CallToolResult, error) {
			p, err := s.Tab(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			dlg, err := p.HandleDialog(ctx, a.Accept, a.PromptText)
			if err != nil {
				return nil, err
			}
			var r response
			verb := "Dismissed"
			if a.Accept {
				verb = "Accepted"
			}
			r.resultf("%s the %s dialog %q.", verb, dlg.Type, text.Clip(dlg.Message, 200))
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}
