package refusal

import (
	"errors"
	"fmt"
	"testing"
)

// TestError: a refusal reads as browser's error of its kind ("kind:
// message", then the cause), an empty kind as invalid_input, and is found
// through wrapping.
func TestError(t *testing.T) {
	cause := errors.New("exec: not found")
	for _, c := range []struct {
		e    *Error
		want string
	}{
		{Invalid("use one of a or b", "value %q", "c"), `invalid_input: value "c"`},
		{&Error{Message: "100% of it"}, "invalid_input: 100% of it"},
		{New(NavigationFailed, "check the server", "GET %s got no answer", "http://a.test/"), "navigation_failed: GET http://a.test/ got no answer"},
		{&Error{Kind: BrowserNotFound, Message: "no Chrome", Err: cause}, "browser_not_found: no Chrome: exec: not found"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
		if e, ok := As(fmt.Errorf("step: %w", c.e)); !ok || e != c.e {
			t.Errorf("As(wrapped %q) = %v, %v", c.want, e, ok)
		}
	}
	if r := Invalid("h", "m"); r.Hint != "h" || r.KindOf() != InvalidInput {
		t.Errorf("Invalid = %+v", r)
	}
	if !errors.Is(&Error{Kind: BrowserLaunchFail, Message: "m", Err: cause}, cause) {
		t.Error("the cause is not unwrapped")
	}
	if _, ok := As(cause); ok {
		t.Error("As found a refusal in a plain error")
	}
}
