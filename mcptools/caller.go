package mcptools

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Caller calls the tools in this process, each call through the layers a
// client's call goes through (define's: the checks, the session, the
// diagnosis, the masking), and reads the answers into Go values. It is how
// the flow runner (package runner) drives the tools without speaking MCP:
// only mcptools and cmd import mcp-go (docs/architecture.md §1).
type Caller struct {
	handlers map[string]server.ToolHandlerFunc
}

// NewCaller is a Caller of every tool of the inventory, the capability
// groups --caps leaves off included: a flow replays a step of any group.
// The tools read d when they are called, so fields set on d later count.
func NewCaller(d *Deps) *Caller {
	c := &Caller{handlers: map[string]server.ToolHandlerFunc{}}
	for _, t := range Inventory(d) {
		c.handlers[t.Def.Name] = t.Handler
	}
	return c
}

// Answer is a tool's answer, read.
type Answer struct {
	// Text is the answer's text contents, joined: what an agent reads.
	Text string
	// Structured is its structured content as the tool built it (a map
	// or a struct; nil when there is none).
	Structured any
	// Images are the images it carries, decoded, in their order (a
	// failure's screenshot; a visual check's baseline, actual image and
	// diff).
	Images []Image
	// Err is the failure the answer reports (its type from the error
	// vocabulary, message and next step), or nil when the call did what
	// it was asked.
	Err *AnswerError
}

// Image is an image an answer carries.
type Image struct {
	// MIMEType is image/png or image/jpeg.
	MIMEType string
	Data     []byte
}

// Call calls tool on the session with args, which it leaves as they were.
// A tool's failure is an Answer with Err; the error is for a call that
// could not be made at all: no such tool, or a fault under the tools (a
// client would get a JSON-RPC error).
func (c *Caller) Call(ctx context.Context, session, tool string, args map[string]any) (Answer, error) {
	h, ok := c.handlers[tool]
	if !ok {
		return Answer{}, fmt.Errorf("no tool %s", tool)
	}
	a := make(map[string]any, len(args)+1)
	for k, v := range args {
		a[k] = v
	}
	a["sessionId"] = session
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, a
	res, err := h(ctx, req)
	if err != nil {
		return Answer{}, err
	}
	return readAnswer(res), nil
}

// readAnswer reads a tool's result into an Answer; an image whose data is
// not base64 is left out.
func readAnswer(res *mcp.CallToolResult) Answer {
	if res == nil {
		return Answer{}
	}
	a := Answer{Text: ResultText(res), Structured: res.StructuredContent}
	if res.IsError {
		e := ResultError(res)
		a.Err = &e
	}
	for _, c := range res.Content {
		if img, ok := c.(mcp.ImageContent); ok {
			if b, err := base64.StdEncoding.DecodeString(img.Data); err == nil {
				a.Images = append(a.Images, Image{MIMEType: img.MIMEType, Data: b})
			}
		}
	}
	return a
}
