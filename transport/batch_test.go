package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestPlanBatch: every request whose id another request of the batch has
// is refused with its own -32600 error (none runs), as are an initialize,
// a member that is not an object and an id that is neither a string nor a
// number; 1 and 1.0 are one id, 1 and "1" two. A batch over maxBatch
// members has each refused.
func TestPlanBatch(t *testing.T) {
	members := []json.RawMessage{
		json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		json.RawMessage(`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`),
		json.RawMessage(`{"jsonrpc":"2.0","id":"1","method":"ping"}`),
		json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`),
		json.RawMessage(`{"jsonrpc":"2.0","id":3,"method":"initialize"}`),
		json.RawMessage(`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`),
		json.RawMessage(`7`),
	}
	items := planBatch(members)
	want := []string{"2 requests of this batch have the id 1", "2 requests of this batch have the id 1.0", "", "", "initialize must not", "string or a number", "not a JSON-RPC object"}
	for i, it := range items {
		if want[i] == "" {
			if it.refusal != nil {
				t.Errorf("member %d refused: %s", i, it.refusal)
			}
			continue
		}
		if !bytes.Contains(it.refusal, []byte(want[i])) || !bytes.Contains(it.refusal, []byte("-32600")) {
			t.Errorf("member %d: %s, want %q", i, it.refusal, want[i])
		}
	}
	if !items[0].isRequest || !items[2].isRequest || items[3].isRequest {
		t.Error("requests and notifications told apart wrongly")
	}
	var many []json.RawMessage
	for i := range maxBatch + 1 {
		many = append(many, json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
	}
	for i, it := range planBatch(many) {
		if !bytes.Contains(it.refusal, []byte("over the limit of 100")) || !bytes.Contains(it.refusal, fmt.Appendf(nil, `"id":%d`, i)) {
			t.Fatalf("member %d of %d: %s", i, len(many), it.refusal)
		}
	}
}

// TestStdioBatchDuplicateIDs: over stdio a batch whose two requests share
// an id gets one array holding an error for each of them, in their
// places, with the response of its other request; none of them reaches
// mcp-go, nor does a request of that id sent while the batch waits, which
// is refused on its own line. (Before, one bare response came back and
// the other request's was lost.)
func TestStdioBatchDuplicateIDs(t *testing.T) {
	var out bytes.Buffer
	f := newStdioFraming(&out)
	f.version = batchVersion
	var in bytes.Buffer
	if err := f.inbound(&in, []byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`+"\n")); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(in.String()); got != `{"jsonrpc":"2.0","id":2,"method":"ping"}` {
		t.Fatalf("passed to mcp-go: %s", got)
	}
	in.Reset()
	if err := f.inbound(&in, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")); err != nil {
		t.Fatal(err)
	}
	if in.Len() != 0 || !strings.Contains(out.String(), `"id":2`) || !strings.Contains(out.String(), "batch in flight") {
		t.Fatalf("a request of an id the batch waits for: passed %q, answered %q", in.String(), out.String())
	}
	out.Reset()
	if _, err := f.Write([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	var answers []map[string]any
	if err := json.Unmarshal(out.Bytes(), &answers); err != nil || len(answers) != 3 {
		t.Fatalf("the batch's answer: %s (%v)", out.String(), err)
	}
	for i, want := range []string{"1 error", "1 error", "2 result"} {
		kind := "result"
		if answers[i]["error"] != nil {
			kind = "error"
		}
		if got := fmt.Sprint(answers[i]["id"], " ", kind); got != want {
			t.Errorf("answer %d: %s, want %s", i, got, want)
		}
	}
	if n := f.cancelled.len(); n != 0 || len(f.byID) != 0 {
		t.Errorf("after the batch: %d requests in flight, %d batch keys", n, len(f.byID))
	}
}
