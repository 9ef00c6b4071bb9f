package trace

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// unzipped is a trace's zip: its files by name.
func unzipped(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], _ = io.ReadAll(r)
		_ = r.Close()
	}
	return files
}

// events are a JSON lines file's events.
func events(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, line)
		}
		out = append(out, ev)
	}
	return out
}

func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{200, 0, 0, 255})
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestZipIsPlaywrightsFormat: the zip holds trace.trace and trace.network
// and every file their events name; context-options comes first with the
// version; each action is a before and after pair in time order, a failed
// one with its error, its screenshot both the action's own (phase after)
// and a film-strip frame of its page, sized as the image is; the selector
// carries the locator the list shows; console messages, an exception as a
// pageError, and the notes as the console's first lines.
func TestZipIsPlaywrightsFormat(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	shot := jpegOf(t, 80, 45)
	tr := &Trace{Title: "a session", Browser: "chromium", TestIDAttribute: "data-testid", Start: t0,
		Notes: []string{"the first 3 calls are not kept"},
		Actions: []Action{
			{Class: "Frame", Method: "goto", Params: map[string]any{"url": "http://app/"}, Page: "page@A", Start: at(10), End: at(100),
				After: &Image{Data: shot, Time: at(90)}},
			{Class: "Frame", Method: "click", Selector: `role=button[name="Go"]`, Locator: `page.getByRole('button', { name: 'Go', exact: true })`,
				Page: "page@A", Start: at(200), End: at(300), Error: &Error{Name: "timeout", Message: "timeout: no element"}, After: &Image{Data: shot, Time: at(310)}},
			{Class: "e2e-mcp", Method: "browser_snapshot", Title: "browser_snapshot", Page: "page@A", Start: at(400), End: at(410)},
		},
		Console: []Console{
			{Page: "page@A", Time: at(50), Level: "error", Text: "boom", URL: "http://app/a.js", Line: 3, Column: 9},
			{Page: "page@A", Time: at(60), Exception: true, Text: "TypeError: x", Stack: "    at f (http://app/a.js:4:1)"},
		},
	}
	b, err := tr.Zip()
	if err != nil {
		t.Fatal(err)
	}
	files := unzipped(t, b)
	evs := events(t, files["trace.trace"])
	if evs[0]["type"] != "context-options" || evs[0]["version"] != float64(Version) || evs[0]["browserName"] != "chromium" ||
		evs[0]["testIdAttributeName"] != "data-testid" || evs[0]["title"] != "a session" {
		t.Fatalf("first event: %v", evs[0])
	}
	if _, ok := files["trace.network"]; !ok {
		t.Fatal("no trace.network")
	}
	var last float64
	begun := map[string]map[string]any{}
	ended := map[string]map[string]any{}
	shots := map[string]bool{}
	frames, notes, consoles, pageErrors := 0, 0, 0, 0
	for i, ev := range evs[1:] {
		when := 0.0
		for _, k := range []string{"startTime", "endTime", "time", "timestamp"} {
			if v, ok := ev[k].(float64); ok {
				when = v
			}
		}
		if when < last {
			t.Errorf("event %d goes back in time: %v", i+2, ev)
		}
		last = when
		if f, ok := ev["file"].(string); ok && files[f] == nil {
			t.Errorf("event %v names %s, which the zip lacks", ev, f)
		}
		id, _ := ev["callId"].(string)
		switch ev["type"] {
		case "before":
			begun[id] = ev
		case "after":
			if begun[id] == nil {
				t.Errorf("after before its before: %v", ev)
			}
			ended[id] = ev
		case "screenshot":
			if ended[id] == nil || ev["phase"] != "after" {
				t.Errorf("a screenshot not after its action: %v", ev)
			}
			shots[id] = true
		case "screencast-frame":
			frames++
			if ev["width"] != float64(80) || ev["height"] != float64(45) || ev["pageId"] != "page@A" {
				t.Errorf("frame: %v", ev)
			}
		case "stdout":
			notes++
			if !strings.Contains(ev["text"].(string), "the first 3 calls") {
				t.Errorf("note: %v", ev)
			}
		case "console":
			consoles++
			loc := ev["location"].(map[string]any)
			if ev["text"] != "boom" || ev["messageType"] != "error" || loc["lineNumber"] != float64(3) || ev["pageId"] != "page@A" {
				t.Errorf("console: %v", ev)
			}
		case "event":
			if ev["method"] == "pageError" {
				pageErrors++
				e := ev["params"].(map[string]any)["error"].(map[string]any)["error"].(map[string]any)
				if e["message"] != "TypeError: x" || !strings.Contains(e["stack"].(string), "at f") {
					t.Errorf("pageError: %v", ev)
				}
			}
		}
	}
	if len(begun) != 3 || len(ended) != 3 || len(shots) != 2 || frames != 2 || notes != 1 || consoles != 1 || pageErrors != 1 {
		t.Fatalf("begun %d, ended %d, shots %d, frames %d, notes %d, console %d, page errors %d", len(begun), len(ended), len(shots), frames, notes, consoles, pageErrors)
	}
	click := begun["call@2"]
	sel := click["params"].(map[string]any)["selector"]
	if click["class"] != "Frame" || click["method"] != "click" ||
		sel != `role=button[name="Go"] >> internal:describe="getByRole('button', { name: 'Go', exact: true })"` {
		t.Errorf("click: %v", click)
	}
	if e, _ := ended["call@2"]["error"].(map[string]any); e["name"] != "timeout" || e["message"] != "timeout: no element" {
		t.Errorf("the failed click's error: %v", ended["call@2"])
	}
	if ended["call@1"]["error"] != nil {
		t.Errorf("a passing action has an error: %v", ended["call@1"])
	}
	if begun["call@3"]["title"] != "browser_snapshot" {
		t.Errorf("a call of its own keeps its title: %v", begun["call@3"])
	}
}

// TestNetworkEntries: each request is a HAR entry with the fields the
// viewer's network tab reads: headers, query string, post data, the body
// as a file of its type, a failure with no response as status -1 and its
// reason.
func TestNetworkEntries(t *testing.T) {
	t0 := time.Now()
	tr := &Trace{Start: t0, Requests: []Request{
		{Page: "page@A", Start: t0.Add(time.Millisecond), Method: "POST", URL: "http://app/api?q=a%20b&x", Type: "Fetch",
			Duration: 20 * time.Millisecond, Status: 500, StatusText: "Internal Server Error",
			RequestHeaders: []Header{{"X-B", "2"}, {"Content-Type", "application/json"}}, PostData: []byte(`{"a":1}`),
			ResponseHeaders: []Header{{"Content-Type", "application/json"}}, MIME: "application/json", Body: []byte(`{"error":"boom"}`)},
		{Page: "page@A", Start: t0.Add(2 * time.Millisecond), Method: "GET", URL: "http://127.0.0.1:9/", Type: "Fetch", Failure: "net::ERR_CONNECTION_REFUSED"},
	}}
	b, err := tr.Zip()
	if err != nil {
		t.Fatal(err)
	}
	files := unzipped(t, b)
	evs := events(t, files["trace.network"])
	if len(evs) != 2 {
		t.Fatalf("%d entries", len(evs))
	}
	e := evs[0]["snapshot"].(map[string]any)
	req, resp := e["request"].(map[string]any), e["response"].(map[string]any)
	content := resp["content"].(map[string]any)
	if evs[0]["type"] != "resource-snapshot" || e["pageref"] != "page@A" || e["_resourceType"] != "fetch" || e["_monotonicTime"] == float64(0) ||
		req["method"] != "POST" || resp["status"] != float64(500) || content["mimeType"] != "application/json" {
		t.Fatalf("entry: %v", e)
	}
	if string(files[content["_file"].(string)]) != `{"error":"boom"}` || !strings.HasSuffix(content["_file"].(string), ".json") {
		t.Errorf("body file %v: %q", content["_file"], files[content["_file"].(string)])
	}
	if pd := req["postData"].(map[string]any); pd["text"] != `{"a":1}` || pd["mimeType"] != "application/json" {
		t.Errorf("post data: %v", pd)
	}
	if h := req["headers"].([]any); len(h) != 2 || h[0].(map[string]any)["name"] != "Content-Type" {
		t.Errorf("request headers, sorted: %v", h)
	}
	if q := req["queryString"].([]any); len(q) != 2 || q[0].(map[string]any)["value"] != "a b" {
		t.Errorf("query string: %v", q)
	}
	failed := evs[1]["snapshot"].(map[string]any)["response"].(map[string]any)
	if failed["status"] != float64(-1) || failed["_failureText"] != "net::ERR_CONNECTION_REFUSED" {
		t.Errorf("failed request: %v", failed)
	}
}

// TestBodyBudget: a text body over MaxBody is clipped at a character's
// start, a binary one left out, and once MaxBodies are kept the rest are
// left out; each entry says so in its content's comment and the trace's
// console counts them.
func TestBodyBudget(t *testing.T) {
	t0 := time.Now()
	big := "a" + strings.Repeat("é", MaxBody) // two bytes each, one off: the limit falls inside a character
	reqs := []Request{
		{Start: t0, Method: "GET", URL: "http://app/big.txt", MIME: "text/plain", Body: []byte(big)},
		{Start: t0.Add(time.Millisecond), Method: "GET", URL: "http://app/big.bin", MIME: "application/octet-stream", Body: bytes.Repeat([]byte{0xff}, MaxBody+1)},
	}
	for i := range MaxBodies / (MaxBody / 2) {
		reqs = append(reqs, Request{Start: t0.Add(time.Duration(i+2) * time.Millisecond), Method: "GET", URL: "http://app/x",
			MIME: "text/plain", Body: bytes.Repeat([]byte("x"), MaxBody/2)})
	}
	b, err := (&Trace{Start: t0, Requests: reqs}).Zip()
	if err != nil {
		t.Fatal(err)
	}
	files := unzipped(t, b)
	kept, left, clipped := 0, 0, 0
	for _, ev := range events(t, files["trace.network"]) {
		e := ev["snapshot"].(map[string]any)
		content := e["response"].(map[string]any)["content"].(map[string]any)
		comment, _ := content["comment"].(string)
		f, ok := content["_file"].(string)
		switch {
		case strings.HasPrefix(comment, "clipped"):
			clipped++
			body := files[f]
			kept += len(body)
			if len(body) > MaxBody || !utf8.Valid(body) {
				t.Errorf("clipped body: %d bytes, valid UTF-8 %v", len(body), utf8.Valid(body))
			}
		case e["request"].(map[string]any)["url"] == "http://app/big.txt":
			t.Errorf("the big text body is not clipped: %v", content)
		case strings.HasPrefix(comment, "left out"):
			left++
			if ok {
				t.Errorf("a body left out has a file: %v", content)
			}
		case ok:
			kept += len(files[f])
		}
	}
	if clipped < 1 || left < 2 || kept > MaxBodies {
		t.Fatalf("clipped %d, left out %d, kept %d bytes", clipped, left, kept)
	}
	if !strings.Contains(string(files["trace.trace"]), fmt.Sprintf("network: %d text bodies clipped, %d bodies left out", clipped, left)) {
		t.Errorf("the trace's console does not say what was left out:\n%s", files["trace.trace"])
	}
}

// TestGroups: a group of actions (a flow's `- group:`) is written as
// Playwright writes test.step, a before and after pair of class Test and
// method step with its title, spanning its actions; each action in it,
// and a group in it, names it as its parentId, which the viewer nests by.
func TestGroups(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	outer, inner := Group("Sign in", at(10), at(300)), Group("Password", at(100), at(200))
	inner.Parent = 1
	tr := &Trace{Browser: "chromium", Start: t0, Actions: []Action{
		outer,
		{Class: "Frame", Method: "fill", Params: map[string]any{"value": "ada"}, Start: at(10), End: at(90), Parent: 1},
		inner,
		{Class: "Frame", Method: "fill", Params: map[string]any{"value": "•••"}, Start: at(100), End: at(200), Parent: 3},
		{Class: "Frame", Method: "click", Start: at(400), End: at(500)},
	}}
	b, err := tr.Zip()
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]map[string]any{}
	for _, ev := range events(t, unzipped(t, b)["trace.trace"]) {
		if ev["type"] == "before" {
			before[ev["callId"].(string)] = ev
		}
	}
	for id, want := range map[string]string{"call@1": "Test.step Sign in <nil>", "call@2": "Frame.fill <nil> call@1",
		"call@3": "Test.step Password call@1", "call@4": "Frame.fill <nil> call@3", "call@5": "Frame.click <nil> <nil>"} {
		ev := before[id]
		got := fmt.Sprintf("%v.%v", ev["class"], ev["method"])
		if ev["class"] == "Test" {
			got += fmt.Sprintf(" %v", ev["title"])
		} else {
			got += " <nil>"
		}
		got += fmt.Sprintf(" %v", ev["parentId"])
		if got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
}
