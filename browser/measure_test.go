package browser

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// stillTab is a tab for what a visual check refuses before it captures
// anything: its masks are in iframes when inFrame says so, and its
// viewport is w by h CSS pixels at dpr. What a refusal must not reach
// (the screenshot itself) is the nil measure.Tab, and panics.
type stillTab struct {
	measure.Tab
	inFrame   bool
	w, h, dpr float64
}

func (s stillTab) Timeout(time.Duration) (time.Duration, error) { return time.Second, nil }
func (s stillTab) InFrame(string) (bool, error)                 { return s.inFrame, nil }
func (s stillTab) HoldStill(context.Context, bool) error        { return nil }

func (s stillTab) CallContext(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}

func (s stillTab) RestoreContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}

func (s stillTab) View(_ context.Context, out any) error {
	v := out.(*struct{ ScrollX, ScrollY, Width, Height, DPR float64 })
	v.Width, v.Height, v.DPR = s.w, s.h, s.dpr
	return nil
}

// TestMeasureErrors: what browser/measure refuses (a screenshot's type, a
// visual check's mask in an iframe or its size) reaches the agent as an
// invalid_input error with the package's message and hint, word for word
// what browser said before the package existed (AsError reads the
// refusal every Page method of the package returns); any other error is
// none of the engine's.
func TestMeasureErrors(t *testing.T) {
	ctx := context.Background()
	never := func(measure.VisualShot) (bool, error) {
		return false, errors.New("a refused check captured a screenshot")
	}
	_, shotErr := measure.Screenshot(ctx, nil, measure.ScreenshotOptions{Format: "gif"})
	for _, c := range []struct {
		err           error
		message, hint string
	}{
		{shotErr, `screenshot type "gif"`, "use png, jpeg or webp"},
		{measure.CaptureStill(ctx, stillTab{inFrame: true}, measure.VisualOptions{Masks: []string{"f1e3"}}, 0, never),
			"mask f1e3 is inside an iframe", "mask the iframe element itself"},
		{measure.CaptureStill(ctx, stillTab{w: 2000, h: 1000, dpr: 2}, measure.VisualOptions{MaxPixels: 4_000_000}, 0, never),
			"a screenshot of the viewport would be 4000x2000 pixels (8 megapixels), more than a visual check compares (4 megapixels)",
			"make the viewport smaller, or check one element of the page (target)"},
	} {
		var m *refusal.Error
		if !errors.As(c.err, &m) {
			t.Errorf("%v: want a *refusal.Error", c.err)
			continue
		}
		e, ok := AsError(c.err)
		if !ok || e.Kind != KindInvalidInput || e.Message != c.message || e.Hint != c.hint || e.Err != nil {
			t.Errorf("%v became %+v; want invalid_input %q, hint %q", c.err, e, c.message, c.hint)
			continue
		}
		if e.Error() != c.err.Error() || e.Error() != fmt.Sprintf("invalid_input: %s", c.message) {
			t.Errorf("%q reads %q as this package's error", c.err, e.Error())
		}
	}
	percent := &refusal.Error{Message: "100% of it", Hint: "less"}
	if e, ok := AsError(percent); !ok || e.Message != percent.Message {
		t.Errorf("a message with %% became %v", e)
	}
}
