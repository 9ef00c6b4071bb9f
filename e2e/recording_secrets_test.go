package e2e

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The secrets of a person's demonstration (browser_start_recording): a
// field that was a password field, or masked with CSS, at any moment of
// the recording keeps its text out of everything written, however the
// person typed into it; and the flow still replays to the same values.

// secretScenario is one demonstration on testdata/demo/login.html: what
// the person does there, the password (or PIN) the field holds at the
// end, and the parts of it that were typed, none of which may be written.
type secretScenario struct {
	name, query string
	act         func(p *person)
	pw, pin     string // the fields' final values
	parts       []string
}

// At login.html's fixed places: the user name, the password and its eye
// button, Remember me, the PIN, Sign in.
const (
	atUserX, atUserY     = 120, 35
	atPwX, atPwY         = 120, 85
	atPwEndX             = 210 // the field's right end: the caret goes after the text
	atEyeX, atEyeY       = 310, 85
	atRememberX, atRemY  = 30, 130
	atPinX, atPinY       = 120, 175
	atSignInX, atSignInY = 70, 230
)

func signIn(p *person) { p.click(atSignInX, atSignInY) }

var secretScenarios = []secretScenario{
	{name: "revealed, then corrected", act: func(p *person) {
		p.click(atUserX, atUserY)
		p.typeText("ada")
		p.click(atPwX, atPwY)
		p.typeText("Tr0ub4dor&3")
		p.click(atEyeX, atEyeY) // Show password: the field is type=text now
		p.click(atPwEndX, atPwY)
		p.press("End")
		p.typeText("9")
		signIn(p)
	}, pw: "Tr0ub4dor&39", parts: []string{"Tr0ub4dor"}},
	{name: "revealed by a new element, then corrected", query: "?swap=1", act: func(p *person) {
		p.click(atUserX, atUserY)
		p.typeText("ada")
		p.click(atPwX, atPwY)
		p.typeText("Sw4pP4ss!")
		p.click(atEyeX, atEyeY) // a new <input type=text> takes the field's place
		p.click(atPwEndX, atPwY)
		p.press("End")
		p.typeText("1")
		signIn(p)
	}, pw: "Sw4pP4ss!1", parts: []string{"Sw4pP4ss"}},
	{name: "typed in two parts", act: func(p *person) {
		p.click(atUserX, atUserY)
		p.typeText("ada")
		p.click(atPwX, atPwY)
		p.typeText("Qz7first")
		p.click(atRememberX, atRemY)
		p.click(atPwEndX, atPwY)
		p.press("End")
		p.typeText("Xw9second")
		signIn(p)
	}, pw: "Qz7firstXw9second", parts: []string{"Qz7first", "Xw9second"}},
	{name: "shown while typed, then hidden", query: "?shown=1", act: func(p *person) {
		p.click(atUserX, atUserY)
		p.typeText("ada")
		p.click(atPwX, atPwY)
		p.typeText("Sh0wnThenHidden")
		p.click(atEyeX, atEyeY) // Hide password: only now a password field
		signIn(p)
	}, pw: "Sh0wnThenHidden", parts: []string{"Sh0wnThenHidden"}},
	{name: "a PIN masked by CSS", act: func(p *person) {
		p.click(atUserX, atUserY)
		p.typeText("ada")
		p.click(atPinX, atPinY)
		p.typeText("482913")
		signIn(p)
	}, pin: "482913", parts: []string{"482913"}},
}

// TestPersonRecordingSecrets: a person (a second DevTools client of the
// browser, typing and clicking as at a keyboard: no call of the agent)
// types passwords while a demonstration is recorded, and reveals,
// corrects, splits or hides them; and a PIN in a field masked by CSS.
// Neither the answers, the exported flow, the Playwright spec nor the
// server's debug log holds any part of them; each field's typing is one
// step reading one ${E2E_SECRET_n}, which the answer names; and the flow
// replays with those variables to the same values (the page sends their
// digests).
func TestPersonRecordingSecrets(t *testing.T) {
	f := newFixture(t)
	farm := startFarmBrowser(t)
	env, _ := serverEnv(t)
	dir := t.TempDir()
	c, stderr := startClientLog(t, append(env, "E2E_MCP_CAPS=devtools,testing", "E2E_MCP_CDP_ENDPOINT="+farm.ws, "E2E_MCP_FILE_ROOTS="+dir))
	page := f.URL + "/demo/login.html"
	var answers []string
	ask := func(tool string, args map[string]any) string {
		t.Helper()
		out := mustCall(t, c, tool, args)
		answers = append(answers, out)
		return out
	}
	ask("browser_navigate", map[string]any{"url": page})
	p := attachPerson(t, farm.ws, "/demo/login.html")

	for i, sc := range secretScenarios {
		ref := fmt.Sprintf("${E2E_SECRET_%d}", i+1)
		ask("browser_navigate", map[string]any{"url": page + sc.query})
		ask("browser_start_recording", nil)
		sc.act(p)
		waitFor(t, 10*time.Second, sc.name+": the page to sign in", func() bool {
			return strings.Contains(ask("browser_snapshot", nil), "Signed in as ada")
		})
		out := ask("browser_stop_recording", nil)
		if n := strings.Count(out, "text: "+ref); n != 1 || strings.Contains(out, fmt.Sprintf("E2E_SECRET_%d", i+2)) {
			t.Errorf("%s: want the secret field's typing as one step reading %s (got %d):\n%s", sc.name, ref, n, out)
		}
		mustContain(t, sc.name+": the answer", out, "is not in it", strings.Trim(ref, "${}")+": what the person typed into")
		if strings.Contains(out, "The passwords typed are not in it") {
			t.Errorf("%s: the fixed sentence is back:\n%s", sc.name, out)
		}
		// What the agent's replay waits for: recorded after the person's
		// steps.
		ask("browser_wait_for", map[string]any{"text": "Signed in as ada"})
	}
	if got := len(signupBodies(f)); got != len(secretScenarios) {
		t.Fatalf("the page signed in %d times, want %d", got, len(secretScenarios))
	}

	flowFile, specFile := filepath.Join(dir, "secrets.yaml"), filepath.Join(dir, "secrets.spec.ts")
	exported := ask("session_export_flow", map[string]any{"path": flowFile, "name": "secrets"})
	mustContain(t, "the export's answer", exported, "E2E_SECRET_1, E2E_SECRET_2, E2E_SECRET_3, E2E_SECRET_4, E2E_SECRET_5 in the environment")
	ask("session_export_flow", map[string]any{"path": specFile, "name": "secrets", "format": "playwright"})
	yaml, spec := readFile(t, flowFile), readFile(t, specFile)
	for i := range secretScenarios {
		mustContain(t, "the flow", yaml, fmt.Sprintf("${E2E_SECRET_%d}", i+1))
		mustContain(t, "the Playwright spec", spec, fmt.Sprintf("env('E2E_SECRET_%d')", i+1))
	}

	_ = c.Close() // the server's log is complete once it has exited
	written := map[string]string{"answers": strings.Join(answers, "\n"), "flow": yaml, "Playwright spec": spec,
		"server log (debug, DevTools traffic)": stderr.String()}
	mustContain(t, "the server's debug log", written["server log (debug, DevTools traffic)"], "__e2eDemoStep")
	for what, text := range written {
		for _, sc := range secretScenarios {
			for _, part := range append([]string{sc.pw, sc.pin}, sc.parts...) {
				if part != "" && strings.Contains(text, part) {
					i := strings.Index(text, part)
					t.Errorf("%s: %s shows %q: …%s…", sc.name, what, part, text[max(0, i-200):min(len(text), i+60)])
				}
			}
		}
	}

	// The replay: a browser of its own, the secrets from the environment.
	runEnv := append(os.Environ(), "TMPDIR="+t.TempDir())
	for i, sc := range secretScenarios {
		runEnv = append(runEnv, fmt.Sprintf("E2E_SECRET_%d=%s", i+1, sc.pw+sc.pin))
	}
	if out, code := runFlows(t, runEnv, flowFile); code != 0 {
		t.Fatalf("the flow does not replay (exit %d):\n%s\n%s", code, out, yaml)
	}
	bodies := signupBodies(f)
	if len(bodies) != 2*len(secretScenarios) {
		t.Fatalf("the replay signed in %d times, want %d", len(bodies)-len(secretScenarios), len(secretScenarios))
	}
	for i, sc := range secretScenarios {
		want := signupBody{User: "ada", Pw: digest(sc.pw), Pin: digest(sc.pin)}
		demo, replay := bodies[i], bodies[len(secretScenarios)+i]
		if demo != want {
			t.Errorf("%s: the person's sign-in sent %v, want %v (the digests of %q and %q)", sc.name, demo, want, sc.pw, sc.pin)
		}
		if replay != want {
			t.Errorf("%s: the replay signed in with other values than the person: %v, want %v", sc.name, replay, want)
		}
	}
}

// TestAgentTypesSecretFields: the agent's own typing into a PIN field
// masked by CSS, and into a password field it revealed (type=text now),
// is a secret's: the flow reads each from ${E2E_SECRET_n}.
func TestAgentTypesSecretFields(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/demo/login.html"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=PIN", "text": "730561"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Password", "text": "Ag3ntFirst"})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=\"Show password\"]"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Password", "text": "Bx8Correct"})
	flow := mustCall(t, c, "session_export_flow", nil)
	spec := mustCall(t, c, "session_export_flow", map[string]any{"format": "playwright"})
	mustContain(t, "the flow", flow, "text: ${E2E_SECRET_1}", "text: ${E2E_SECRET_2}", "text: ${E2E_SECRET_3}")
	for _, v := range []string{"730561", "Ag3ntFirst", "Bx8Correct"} {
		if strings.Contains(flow, v) || strings.Contains(spec, v) {
			t.Errorf("the agent's secret %q is written:\n%s\n%s", v, flow, spec)
		}
	}
}

// signupBody is what testdata/demo/login.html sends at a sign-in: the
// user name, and the digests of the password and the PIN.
type signupBody struct{ User, Pw, Pin string }

// signupBodies reads what the page sent at each sign-in.
func signupBodies(f *fixture) []signupBody {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]signupBody, 0, len(f.signups))
	for _, s := range f.signups {
		var b signupBody
		_ = json.Unmarshal([]byte(s), &b)
		out = append(out, b)
	}
	return out
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// person is a second DevTools client of the browser a server under test
// drives (--cdp-endpoint): it acts in a tab as a person at its keyboard and
// mouse does, with trusted input events that no tool call made, so none is
// recorded as the agent's own step. A WebSocket client of its own, over
// the browser's endpoint, attached to the tab (flat sessions).
type person struct {
	t       *testing.T
	conn    net.Conn
	r       *bufio.Reader
	id      int
	session string
}

// attachPerson connects to the browser at ws and attaches to its page
// whose URL holds urlPart.
func attachPerson(t *testing.T, ws, urlPart string) *person {
	t.Helper()
	u, err := url.Parse(ws)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		t.Fatalf("connect to the browser: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, base64.StdEncoding.EncodeToString(key))
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("the browser's WebSocket handshake: %v", err)
	}
	_ = resp.Body.Close() // a 101 has none: the connection is the WebSocket's now
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the browser's WebSocket handshake: %s", resp.Status)
	}
	p := &person{t: t, conn: conn, r: r}
	var targets struct {
		TargetInfos []struct{ TargetID, Type, URL string } `json:"targetInfos"`
	}
	p.call("Target.getTargets", nil, &targets)
	for _, tg := range targets.TargetInfos {
		if tg.Type == "page" && strings.Contains(tg.URL, urlPart) {
			var at struct{ SessionID string }
			p.call("Target.attachToTarget", map[string]any{"targetId": tg.TargetID, "flatten": true}, &at)
			p.session = at.SessionID
			return p
		}
	}
	t.Fatalf("no page at %s in the browser: %+v", urlPart, targets.TargetInfos)
	return nil
}

// call sends a DevTools command (to the tab once attached) and reads its
// result into out, skipping events.
func (p *person) call(method string, params map[string]any, out any) {
	p.t.Helper()
	p.id++
	msg := map[string]any{"id": p.id, "method": method, "params": params}
	if params == nil {
		msg["params"] = map[string]any{}
	}
	if p.session != "" {
		msg["sessionId"] = p.session
	}
	b, _ := json.Marshal(msg)
	_ = p.conn.SetDeadline(time.Now().Add(20 * time.Second))
	if err := p.writeFrame(b); err != nil {
		p.t.Fatalf("%s: %v", method, err)
	}
	for {
		data, err := p.readMessage()
		if err != nil {
			p.t.Fatalf("%s: %v", method, err)
		}
		var res struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if json.Unmarshal(data, &res) != nil || res.ID != p.id {
			continue
		}
		if res.Error != nil {
			p.t.Fatalf("%s: %s", method, res.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(res.Result, out); err != nil {
				p.t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

// writeFrame sends one text frame, masked as a client's must be.
func (p *person) writeFrame(b []byte) error {
	h := []byte{0x81}
	switch n := len(b); {
	case n < 126:
		h = append(h, 0x80|byte(n))
	case n < 1<<16:
		h = append(h, 0x80|126, byte(n>>8), byte(n))
	default:
		h = append(h, 0x80|127)
		h = binary.BigEndian.AppendUint64(h, uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	h = append(h, mask...)
	for i, c := range b {
		h = append(h, c^mask[i%4])
	}
	_, err := p.conn.Write(h)
	return err
}

// readMessage reads one message, its fragments joined; pings and pongs
// are skipped.
func (p *person) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var hd [2]byte
		if _, err := io.ReadFull(p.r, hd[:]); err != nil {
			return nil, err
		}
		n := uint64(hd[1] & 0x7f)
		switch n {
		case 126:
			var ext [2]byte
			if _, err := io.ReadFull(p.r, ext[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(ext[:]))
		case 127:
			var ext [8]byte
			if _, err := io.ReadFull(p.r, ext[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(ext[:])
		}
		var mask [4]byte
		if hd[1]&0x80 != 0 {
			if _, err := io.ReadFull(p.r, mask[:]); err != nil {
				return nil, err
			}
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(p.r, payload); err != nil {
			return nil, err
		}
		if hd[1]&0x80 != 0 {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch hd[0] & 0x0f {
		case 8:
			return nil, fmt.Errorf("the browser closed the connection")
		case 9, 10:
			continue
		}
		msg = append(msg, payload...)
		if hd[0]&0x80 != 0 {
			return msg, nil
		}
	}
}

// click presses and releases the left button at x, y.
func (p *person) click(x, y float64) {
	p.t.Helper()
	p.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y}, nil)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		p.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}, nil)
	}
}

// typeText types s a key at a time, each key's text as a keyboard gives
// it.
func (p *person) typeText(s string) {
	p.t.Helper()
	for _, r := range s {
		k := string(r)
		p.call("Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "key": k, "text": k, "unmodifiedText": k}, nil)
		p.call("Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": k}, nil)
	}
}

// keyCodes are the Windows key codes of the keys press knows.
var keyCodes = map[string]int{"End": 35, "Home": 36, "Enter": 13, "Tab": 9}

// press presses a key that types nothing (End).
func (p *person) press(key string) {
	p.t.Helper()
	code, ok := keyCodes[key]
	if !ok {
		p.t.Fatalf("press: no key code for %s", key)
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		p.call("Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}, nil)
	}
}
