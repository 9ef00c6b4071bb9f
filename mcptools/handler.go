package mcptools

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/e2e-mcp/e2e-mcp/metrics"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// A tool call passes through these layers, outermost first (define joins
// them):
//
//	instrument  metrics, and a panic becomes an internal_error result
//	limit       the per-client rate limit on calls
//	bind        the arguments checked (sizes, then the schema) and bound to T
//	held        the session held for the call, with the request on it and
//	            its namespace, whose files it writes (files.go); the
//	            secrets its arguments carry marked, and the answer masked
//	            (secrets.go); a cancellation said as such; a switch run to
//	            its end though its client cancelled it, and its answer told
//	            on the next call (switches.go); the downloads
//	            it started waited for and reported (downloads.go); the
//	            console log lines written in the output directory linked
//	            (consolelog.go); its trace started when every session
//	            traces (tracing.go)
//	logged      the call kept in the session's step log, for its report
//	            (steplog.go)
//	diagnosed   a failure answered with its diagnostics, and logged
//	filmed      the session's video: its recording kept on, the action
//	            shown in it (video.go)
//	recorded    a successful action kept as a flow step
//
// and then the tool's own function, which gets its session and arguments.

type handlerFunc = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)

// instrument counts the call, times it, and turns a panic under it into an
// internal_error result.
func (d *Deps) instrument(name string, next handlerFunc) handlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		start := time.Now()
		metrics.ToolsInFlight.Inc()
		defer func() {
			metrics.ToolsInFlight.Dec()
			if r := recover(); r != nil {
				d.Logger.Error("tool panicked", zap.String("tool", name), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				res, err = errorResult(name, fmt.Errorf("panic in %s: %v", name, r)), nil
			}
			metrics.ToolCalls.WithLabelValues(name).Inc()
			metrics.ToolSeconds.WithLabelValues(name).Observe(time.Since(start).Seconds())
			if res != nil && res.IsError {
				if typ := ResultError(res).Type; typ != string(ErrCancelled) {
					metrics.ToolErrors.WithLabelValues(name, typ).Inc()
				}
			}
		}()
		res, err = next(ctx, req)
		shapeImages(d.ImageResponses, res)
		if res != nil && d.Sessions != nil && d.Sessions.Secrets != nil {
			// What no session masked (an answer before one was held):
			// the server's own secrets.
			redactResult(d.Sessions.Secrets, res)
		}
		return res, err
	}
}

// limit refuses a call over the client's rate limit, when one is set.
func (d *Deps) limit(name string, next handlerFunc) handlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if d.AllowCall == nil {
			return next(ctx, req)
		}
		if ok, retry := d.AllowCall(ctx); !ok {
			return errorResult(name, rateLimited("tool calls", retry)), nil
		}
		return next(ctx, req)
	}
}

// bind checks a call's arguments and binds them to T; bad arguments are an
// invalid_input result naming the field.
func bind[T any](name string, validate func(raw any) (T, error),
	next func(ctx context.Context, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error)) handlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := validate(req.Params.Arguments)
		if err != nil {
			return errorResult(name, err), nil
		}
		return next(ctx, req, args)
	}
}

// sessionFunc is a step of a call on its session.
type sessionFunc[T any] = func(ctx context.Context, s *Session, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error)

// onSession runs fn on the caller's session through the session layers:
// held, then logged, then diagnosed, then filmed, then recorded.
func onSession[T sessionArgs](d *Deps, name, toolset string,
	fn func(ctx context.Context, s *Session, args T) (*mcp.CallToolResult, error),
) func(ctx context.Context, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
	return held(d, name, logged(d, name, diagnosed(d, name, toolset, filmed(d, name, toolset, recorded(d, name, fn)))))
}

// held holds the session the call names for the length of the call, with
// the request on it (s.req), and says so when something else cancelled
// the call (session_end, the server's exit), whatever the cut work made of it.
func held[T sessionArgs](d *Deps, name string, next sessionFunc[T]) func(ctx context.Context, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
		s, callCtx, err := d.Sessions.acquire(ctx, args.session(), name)
		if err != nil {
			return errorResult(name, err), nil
		}
		// The call's files are its session's namespace's (files.go).
		callCtx = withFileSpace(callCtx, s.key.owner)
		s.req = req
		s.prog = startProgress(callCtx, req, name, s.private.String)
		defer func() {
			s.prog.end()
			s.req, s.prog = mcp.CallToolRequest{}, nil
			s.release()
		}()
		s.markArgs(name, req.Params.Arguments)
		d.autoTrace(callCtx, s)
		if s.console == nil && !s.closed {
			s.console = d.newConsoleLog(s)
		}
		res, err := next(callCtx, s, req, args)
		if err == nil {
			d.deliverDownloads(callCtx, s, res)
			s.console.link(res)
			s.redactAnswer(name, res, d.AnswersForPeople)
			// A switch its client cancelled ran to its end: its answer,
			// which the transport drops, is told on the next call.
			if !s.keepUntold(ctx, name, res) && ctx.Err() == nil {
				s.tellUntold(res)
			}
		}
		if by := s.interruptedBy(); by != "" {
			d.Logger.Info("tool cancelled", zap.String("tool", name), zap.String("session", s.ID), zap.String("by", by))
			return errorResult(name, &ToolError{Type: ErrSessionEnded,
				Message:    fmt.Sprintf("%s was cancelled: %s ended session %s while it ran", name, by, s.ID),
				Suggestion: "call again: a new session starts (run session_start first if it had a dev server)"}), nil
		}
		return res, err
	}
}

// diagnosed answers a failure with its diagnostics (failure.go), logs it,
// and tells the client's log; a cancelled call is left to held.
func diagnosed[T any](d *Deps, name, toolset string, next sessionFunc[T]) sessionFunc[T] {
	return func(ctx context.Context, s *Session, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
		res, err := next(ctx, s, req, args)
		if err == nil || s.interruptedBy() != "" {
			return res, err
		}
		if cancelledByClient(ctx, s) {
			// Not a failure: the client does not want the answer, which
			// the transport drops.
			d.Logger.Info("tool cancelled by the client", zap.String("tool", name), zap.String("session", s.ID))
			return errorResult(name, &ToolError{Type: ErrCancelled, Message: name + " was cancelled by the client",
				Suggestion: "call again if you still want it"}), nil
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// Its caller's time ran out while it ran (e2e-mcp run's flow
			// timeout, which the caller reports): no failure of ours.
			d.Logger.Info("tool stopped: its caller's deadline passed", zap.String("tool", name), zap.String("session", s.ID))
			return errorResult(name, &ToolError{Type: ErrTimeout, Message: name + " was stopped: its caller's time ran out while it ran",
				Suggestion: "give it more time, or find why it took so long"}), nil
		}
		typ, msg, _ := classify(err)
		msg = s.private.String(msg)
		lvl := zap.InfoLevel
		if typ == ErrInternal {
			lvl = zap.ErrorLevel
		}
		d.Logger.Log(lvl, "tool failed", zap.String("tool", name), zap.String("session", s.ID), zap.String("type", string(typ)), zap.String("message", msg))
		clientLog(ctx, mcp.LoggingLevelWarning, map[string]any{"event": "tool failed", "tool": name, "session": s.ID, "type": string(typ), "message": msg})
		return d.failure(ctx, s, name, toolset, req, err), nil
	}
}

// cancelledByClient says whether the call ended because its client
// cancelled it (notifications/cancelled ends the request's context), not
// session_end or the server's exit (interruptedBy says those).
func cancelledByClient(ctx context.Context, s *Session) bool {
	return errors.Is(ctx.Err(), context.Canceled) && s.interruptedBy() == ""
}

// recorded keeps a successful action or check as a flow step, with the
// locator of its target read before the action changed the page.
func recorded[T any](d *Deps, name string, fn func(ctx context.Context, s *Session, args T) (*mcp.CallToolResult, error)) sessionFunc[T] {
	return func(ctx context.Context, s *Session, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
		pre := s.preLocate(ctx, name, req.Params.Arguments)
		res, err := fn(ctx, s, args)
		if err == nil && res != nil && !res.IsError && s.interruptedBy() == "" {
			n := s.recordCount
			s.record(name, d.absFileArgs(ctx, name, req.Params.Arguments), pre)
			if d != nil && !s.batching && s.recordCount != n {
				d.ranCode(s, res)
			}
		}
		return res, err
	}
}
