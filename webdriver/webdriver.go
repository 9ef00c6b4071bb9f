// Package webdriver is the small part of the W3C WebDriver protocol e2e-mcp
// needs to take browsers from a grid (Selenium Grid 4, chromedriver, a cloud
// grid): create a session, find its Chrome DevTools endpoint, keep the
// session alive, delete it. Everything else is done over CDP by the browser
// package. It uses only the standard library and redact.
package webdriver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Grid is one WebDriver endpoint: http://host:4444 (Selenium Grid 4,
// chromedriver), or a cloud grid's https://user:key@hub.example.com/wd/hub.
type Grid struct {
	base   *url.URL // without userinfo
	header http.Header
	// Client makes the requests; nil means http.DefaultClient.
	Client *http.Client
}

// New parses a grid's URL. Userinfo in it becomes Basic authorization;
// header goes with every request (Authorization for a cloud grid).
func New(rawURL string, header http.Header) (*Grid, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("WebDriver URL %q: want http://host:port[/path]", redact.URL(rawURL))
	}
	h := header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if u.User != nil {
		pw, _ := u.User.Password()
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw)))
		u.User = nil
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return &Grid{base: u, header: h}, nil
}

// String is the grid's URL for messages and logs, without credentials
// (New took the userinfo, query and fragment off; redact.URL holds it to
// that whatever New keeps).
func (g *Grid) String() string { return redact.URL(g.base.String()) }

// Header is what goes with every request to the grid; the CDP handshake of
// a session on it (Selenium Grid's se:cdp is served by the grid) sends it too.
func (g *Grid) Header() http.Header { return g.header.Clone() }

// Loopback reports whether the grid runs on this machine.
func (g *Grid) Loopback() bool {
	h := g.base.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Error is a grid's refusal (its WebDriver error and message, and the HTTP
// status), or a grid that cannot be reached.
type Error struct {
	Grid    string
	Status  int    // 0 when there was no answer
	Code    string // the WebDriver error code, such as "session not created"
	Message string
	// Err is why the grid could not be reached (Status 0).
	Err error
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("WebDriver grid %s unreachable: %v", e.Grid, e.Err)
	}
	msg := e.Message
	if e.Code != "" {
		msg = e.Code + ": " + msg
	}
	return fmt.Sprintf("WebDriver grid %s answered %d: %s", e.Grid, e.Status, msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Temporary reports whether trying again may help: the grid is down, full
// or failed, not refusing what we asked (a 4xx).
func (e *Error) Temporary() bool { return e.Status == 0 || e.Status >= 500 }

// Session is a browser the grid started for us.
type Session struct {
	ID string
	// CDP is the browser's DevTools websocket
	// (ws://host:port/devtools/browser/ID, or Selenium Grid's se:cdp).
	CDP string
	// Capabilities are those the grid answered with.
	Capabilities map[string]any
	g            *Grid
}

// Grid is the grid the session lives on.
func (s *Session) Grid() *Grid { return s.g }

// do sends one command and decodes the answer's value into out.
func (g *Grid) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, g.base.String()+path, rd)
	if err != nil {
		return err
	}
	for k, v := range g.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	c := g.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in the message already
		}
		return &Error{Grid: g.String(), Err: err}
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return &Error{Grid: g.String(), Err: err}
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	_ = json.Unmarshal(b, &env)
	if resp.StatusCode >= 300 {
		e := &Error{Grid: g.String(), Status: resp.StatusCode}
		var we struct{ Error, Message string }
		if json.Unmarshal(env.Value, &we) == nil && (we.Error != "" || we.Message != "") {
			e.Code, e.Message = we.Error, firstLine(we.Message)
		} else {
			e.Message = firstLine(strings.TrimSpace(string(b)))
			if e.Message == "" {
				e.Message = resp.Status
			}
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Value, out); err != nil {
		return &Error{Grid: g.String(), Status: resp.StatusCode, Message: "an answer that is not WebDriver JSON: " + firstLine(string(b))}
	}
	return nil
}

// firstLine clips a grid's message (chromedriver's carry a stack trace) to
// its first line and 500 bytes.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// NewSession asks the grid for a browser with these capabilities
// ({"alwaysMatch": {...}}) and finds its DevTools endpoint. A session whose
// endpoint cannot be found is deleted before the error returns.
func (g *Grid) NewSession(ctx context.Context, capabilities map[string]any) (*Session, error) {
	var v struct {
		SessionID    string         `json:"sessionId"`
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := g.do(ctx, http.MethodPost, "/session", map[string]any{"capabilities": capabilities}, &v); err != nil {
		return nil, err
	}
	if v.SessionID == "" {
		return nil, &Error{Grid: g.String(), Status: http.StatusOK, Message: "the new session's answer has no sessionId"}
	}
	s := &Session{ID: v.SessionID, Capabilities: v.Capabilities, g: g}
	cdp, err := g.cdpEndpoint(ctx, v.Capabilities)
	if err != nil {
		_ = s.Delete(context.WithoutCancel(ctx))
		return nil, err
	}
	s.CDP = cdp
	return s, nil
}

// cdpEndpoint reads the session's DevTools websocket from its capabilities:
// Selenium Grid's se:cdp, or chromedriver's debuggerAddress (host:port, whose
// /json/version names the websocket).
func (g *Grid) cdpEndpoint(ctx context.Context, caps map[string]any) (string, error) {
	if ws, _ := caps["se:cdp"].(string); ws != "" {
		return ws, nil
	}
	opts, _ := caps["goog:chromeOptions"].(map[string]any)
	addr, _ := opts["debuggerAddress"].(string)
	if addr == "" {
		return "", &Error{Grid: g.String(), Status: http.StatusOK,
			Message: "the session has no DevTools endpoint (neither se:cdp nor goog:chromeOptions.debuggerAddress): the grid must run Chrome or Chromium with CDP enabled"}
	}
	ws, err := DevToolsWebSocket(ctx, g.Client, "http://"+addr, nil)
	var unreachable *url.Error
	if errors.As(err, &unreachable) {
		return "", &Error{Grid: g.String(), Err: fmt.Errorf("the browser's debuggerAddress %s: %w", addr, err)}
	}
	if err != nil {
		return "", &Error{Grid: g.String(), Status: http.StatusOK, Message: "the browser at debuggerAddress " + addr + ": " + err.Error()}
	}
	return ws, nil
}

// Ping sends a command that changes nothing (Get Timeouts), so that a grid
// that ends idle sessions sees this one used: we drive it over CDP, which
// the grid may not count.
func (s *Session) Ping(ctx context.Context) error {
	return s.g.do(ctx, http.MethodGet, "/session/"+url.PathEscape(s.ID)+"/timeouts", nil, nil)
}

// Delete ends the session: the grid closes the browser and removes its
// profile.
func (s *Session) Delete(ctx context.Context) error {
	return s.g.do(ctx, http.MethodDelete, "/session/"+url.PathEscape(s.ID), nil, nil)
}
