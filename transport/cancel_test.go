package transport

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestCancelledCallsBounded: a cancellation is kept only for a request in
// flight, so a client that sends thousands of cancellations of requests
// that are not (answered long ago, or never made) grows nothing; the
// requests tracked stay within maxInFlight, and each goes when answered.
func TestCancelledCallsBounded(t *testing.T) {
	c := newCancelledCalls()
	for i := range 5000 {
		c.noteMessage("s", fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, i))
	}
	if n := c.len(); n != 0 {
		t.Fatalf("%d entries after cancellations of nothing in flight", n)
	}
	for i := range maxInFlight + 500 {
		c.begin("s", json.RawMessage(fmt.Sprint(i)))
	}
	if n := c.len(); n != maxInFlight {
		t.Fatalf("%d requests tracked, want the bound %d", n, maxInFlight)
	}
	// A request and its response are one key however the id is written.
	c.noteMessage("s", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7.0}}`))
	if !c.isCancelled("s", json.RawMessage(`7`)) || c.isCancelled("other", json.RawMessage(`7`)) || c.isCancelled("s", json.RawMessage(`"7"`)) {
		t.Error("the cancellation of request 7 of session s")
	}
	for i := range maxInFlight + 500 {
		c.end("s", json.RawMessage(fmt.Sprint(i)))
	}
	if n := c.len(); n != 0 {
		t.Errorf("%d entries after every request was answered", n)
	}
}
