package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// JSON-RPC batches (an array of messages) are part of MCP protocol
// version 2025-03-26 only. A client that negotiated it gets its batch
// served: one array of the responses to its requests, in their order,
// over stdio and over Streamable HTTP; a member that may not be in a batch
// (initialize) gets its own error in the array, and so does each of two
// requests that share an id (neither runs: a client could not tell their
// responses apart). A client of a later version is told, with -32600, that
// its version has none.

// initPeer starts the binary over stdio and initializes it on version.
func initPeer(t *testing.T, version string) *rawPeer {
	t.Helper()
	env, _ := serverEnv(t)
	p := startPeerRaw(t, env)
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if v := p.await("init")["result"].(map[string]any)["protocolVersion"]; v != version {
		t.Fatalf("negotiated %v, want %s", v, version)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// awaitArray waits for the next message that is an array.
func (p *rawPeer) awaitArray() []any {
	p.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		p.mu.Lock()
		for i, m := range p.got {
			if a, ok := m["array"].([]any); ok {
				p.got = append(p.got[:i], p.got[i+1:]...)
				p.mu.Unlock()
				return a
			}
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			p.mu.Lock()
			var seen []string
			for _, m := range p.got {
				b, _ := json.Marshal(m)
				seen = append(seen, string(b[:min(len(b), 160)]))
			}
			p.mu.Unlock()
			p.t.Fatalf("no batch response; got:\n%s", strings.Join(seen, "\n"))
		}
	}
}

const testBatch = `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},` +
	`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},` +
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_list","arguments":{}}},` +
	`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}]`

// checkBatchAnswer: the responses of requests 1 and 2, in order, then the
// error of the initialize member.
func checkBatchAnswer(t *testing.T, answers []any) {
	t.Helper()
	b, _ := json.Marshal(answers)
	if len(answers) != 3 {
		t.Fatalf("want 3 answers, got %s", b)
	}
	ids := []string{}
	for _, a := range answers {
		m, _ := a.(map[string]any)
		ids = append(ids, jsonText(m["id"]))
	}
	if strings.Join(ids, ",") != "1,2,3" || !strings.Contains(string(b), `"tools":[`) || !strings.Contains(string(b), "session") ||
		!strings.Contains(string(b), "initialize must not be part of a batch") {
		t.Errorf("the batch's answer: %s", b)
	}
}

// dupBatch holds two requests of one id, and a third.
const dupBatch = `[{"jsonrpc":"2.0","id":5,"method":"tools/list"},` +
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"session_list","arguments":{}}},` +
	`{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`

// checkDupAnswer: one array, an Invalid Request for each request of id 5
// in its place, and the tools of request 6.
func checkDupAnswer(t *testing.T, answers []any) {
	t.Helper()
	b, _ := json.Marshal(answers)
	if len(answers) != 3 {
		t.Fatalf("want 3 answers to a batch with two requests of one id, got %s", b)
	}
	for i, want := range []string{"5 -32600", "5 -32600", "6 tools"} {
		m, _ := answers[i].(map[string]any)
		got := jsonText(m["id"])
		if e, ok := m["error"].(map[string]any); ok {
			got += " " + jsonText(e["code"])
			if !strings.Contains(jsonText(e["message"]), "have the id 5") {
				t.Errorf("answer %d does not say why: %s", i, jsonText(e))
			}
		} else if r, ok := m["result"].(map[string]any); ok && r["tools"] != nil {
			got += " tools"
		}
		if got != want {
			t.Errorf("answer %d: %s, want %s (%s)", i, got, want, b)
		}
	}
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestJSONRPCBatchOverStdio(t *testing.T) {
	p := initPeer(t, "2025-03-26")
	p.send(testBatch)
	checkBatchAnswer(t, p.awaitArray())
	p.send(dupBatch)
	checkDupAnswer(t, p.awaitArray())

	p = initPeer(t, "2025-11-25")
	p.send(`[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`)
	m := p.await("<nil>")
	if b, _ := json.Marshal(m); !strings.Contains(string(b), "-32600") || !strings.Contains(string(b), "2025-03-26 only") || !strings.Contains(string(b), "2025-11-25") {
		t.Errorf("a batch on 2025-11-25: %s", b)
	}
}

func TestJSONRPCBatchOverHTTP(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	h := &rawHTTP{base: s.base}
	post := func(body, version string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, h.base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if version != "" {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		if h.session != "" {
			req.Header.Set("Mcp-Session-Id", h.session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			h.session = id
		}
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	// A 2025-03-26 client sends no protocol version header.
	if code, body := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, ""); code != 200 || !strings.Contains(body, `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("initialize on 2025-03-26: %d %s", code, body)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "")
	code, body := post(testBatch, "")
	var answers []any
	if err := json.Unmarshal([]byte(body), &answers); code != 200 || err != nil {
		t.Fatalf("the batch: %d %s", code, body)
	}
	checkBatchAnswer(t, answers)
	code, body = post(dupBatch, "")
	answers = nil
	if err := json.Unmarshal([]byte(body), &answers); code != 200 || err != nil {
		t.Fatalf("the batch with two requests of one id: %d %s", code, body)
	}
	checkDupAnswer(t, answers)
	if code, body := post(`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`, ""); code != http.StatusAccepted {
		t.Errorf("a batch of notifications: %d %s", code, body)
	}
	if code, body := post(`[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]`, "2025-11-25"); code != 400 || !strings.Contains(body, "2025-03-26 only") {
		t.Errorf("a batch on 2025-11-25: %d %s", code, body)
	}
}
