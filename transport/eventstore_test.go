package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// TestBoundedEvents: a session's events stay within its bound and all
// sessions' within theirs, the oldest going first: a resume from a dropped
// event is an unknown event id, one from a kept event replays the rest of
// its stream (only its stream), and a session's end purges its events.
func TestBoundedEvents(t *testing.T) {
	ctx := context.Background()
	b := newBoundedEvents(10_000, 30_000)
	msg := json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"pad":"` + strings.Repeat("x", 900) + `"}}`)
	var ids []string
	for i := range 1000 {
		id, err := b.StoreEvent(ctx, "a", "call", msg)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		if i%10 == 0 {
			_, _ = b.StoreEvent(ctx, "a", "other", msg)
		}
		if bytes, _ := b.size(); bytes > 10_000 {
			t.Fatalf("after %d events session a holds %d bytes, over its 10000", i+1, bytes)
		}
	}
	if _, err := b.ReplayEventsAfter(ctx, "a", ids[0], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Errorf("a resume from a dropped event: %v", err)
	}
	var got []string
	stream, err := b.ReplayEventsAfter(ctx, "a", ids[len(ids)-3], func(id string, _ json.RawMessage) error { got = append(got, id); return nil })
	if err != nil || stream != "call" || strings.Join(got, ",") != ids[len(ids)-2]+","+ids[len(ids)-1] {
		t.Errorf("a resume from a kept event: %q %v %v, want %v", stream, got, err, ids[len(ids)-2:])
	}
	if _, err := b.ReplayEventsAfter(ctx, "b", ids[len(ids)-1], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Errorf("session b resuming from session a's event: %v", err)
	}
	for i := range 200 {
		_, _ = b.StoreEvent(ctx, fmt.Sprint("s", i%20), "call", msg)
		if bytes, _ := b.size(); bytes > 30_000 {
			t.Fatalf("all sessions hold %d bytes, over 30000", bytes)
		}
	}
	if bytes, _ := b.size(); bytes <= 20_000 {
		t.Errorf("the store keeps only %d bytes of 30000", bytes)
	}
	for i := range 20 {
		_ = b.PurgeSession(ctx, fmt.Sprint("s", i))
	}
	_ = b.PurgeSession(ctx, "a")
	if bytes, events := b.size(); bytes != 0 || events != 0 {
		t.Errorf("after every session ended: %d bytes, %d events", bytes, events)
	}
}
