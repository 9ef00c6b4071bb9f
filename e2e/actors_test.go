package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chatFlow is two actors chatting through testdata/requests: ada (the
// flow's own session) and bob, each signed in by a request step with a
// cookie of its own; bobSees is what bob's heading says (a wrong one
// fails the flow at bob's step).
func chatFlow(name, dev, bobSees string) string {
	return "name: " + name + "\n" + dev + `steps:
  - request: {method: POST, url: /api/login, json: {name: ada}}
  - request: {method: POST, url: /api/login, json: {name: bob}}
    actor: bob
  - navigate: /chat.html
  - expect: {target: role=heading, check: text, expected: Chat as ada}
  - group: Bob joins
    actor: bob
    steps:
      - navigate: /chat.html
      - expect: {target: role=heading, check: text, expected: '` + bobSees + `', timeout: 2}
      - type: {target: 'role=textbox[name="Message"]', text: Hi Ada}
      - click: 'role=button[name="Send"]'
  - expect: {target: 'role=list[name="Messages"]', check: text, expected: 'bob: Hi Ada'}
  - type: {target: 'role=textbox[name="Message"]', text: Hi Bob}
  - click: 'role=button[name="Send"]'
  - expect: {target: 'role=list[name="Messages"]', check: text, expected: 'ada: Hi Bob'}
    actor: bob
`
}

// TestActors: a flow with two actors replays green, each in a browser
// context of its own (the chat names each by the cookie its own sign-in
// set, and each sees the other's message), each actor's steps in a report
// and trace of its own beside the flow's, linked from the HTML index and
// carried by the blob through merge-reports; a failing step of an actor is
// named with its group and actor; convert writes bob as a context of the
// test's browser.
func TestActors(t *testing.T) {
	dir := t.TempDir()
	dev := requestApp(t, dir)
	writeFiles(t, dir, map[string]string{
		"chat.yaml":  chatFlow("chat", dev, "Chat as bob"),
		"wrong.yaml": chatFlow("wrong", dev, "Chat as ada"),
	})
	env, _ := runEnvironment(t)
	reports, traces := filepath.Join(dir, "reports"), filepath.Join(dir, "traces")
	out, code := runFlows(t, env, "--report", reports, "--trace", traces, filepath.Join(dir, "chat.yaml"))
	if code != 0 || !strings.Contains(out, "PASS  chat") {
		t.Fatalf("the chat flow: exit %d:\n%s", code, out)
	}
	// Each actor's steps are in a report and a trace of its own, which
	// the flow's report names.
	mustContain(t, "the flow's report", readFile(t, filepath.Join(reports, "chat.html")), "actor bob", "chat.bob.html", "Hi Bob")
	bobs := readFile(t, filepath.Join(reports, "chat.bob.html"))
	mustContain(t, "bob's report", bobs, "Flow chat, actor bob", "Hi Ada")
	if strings.Contains(bobs, "Chat as ada") {
		t.Errorf("bob's report has ada's step (her heading's check)")
	}
	for _, z := range []string{"chat.zip", "chat.bob.zip"} {
		if fi, err := os.Stat(filepath.Join(traces, z)); err != nil || fi.Size() < 1000 {
			t.Errorf("the trace %s: %v", z, err)
		}
	}
	// The HTML index and the blob name each actor's report and trace;
	// merge-reports brings them along and links them.
	idx, blobs := filepath.Join(dir, "idx"), filepath.Join(dir, "blobs")
	out, code = runFlows(t, env, "--reporter", "list,html,blob", "--report", idx, "--trace", filepath.Join(dir, "traces2"), "--blob", blobs, filepath.Join(dir, "chat.yaml"))
	if code != 0 {
		t.Fatalf("the chat flow with the html and blob reporters: exit %d:\n%s", code, out)
	}
	mustContain(t, "the index", readFile(t, filepath.Join(idx, "index.html")), `<span class="actor">bob:</span> <a class="actor-report" href="chat.bob.html">report</a> <a class="actor-trace" href="../traces2/chat.bob.zip">trace</a>`)
	merged := filepath.Join(dir, "merged")
	if mout, merrs, code := runIn(t, env, dir, "merge-reports", blobs, "--report", merged); code != 0 {
		t.Fatalf("merge-reports: exit %d\n%s%s", code, mout, merrs)
	}
	index := readFile(t, filepath.Join(merged, "index.html"))
	for _, name := range []string{"chat.bob.html", "chat.bob.zip"} {
		var link string
		for _, l := range strings.Split(index, `"`) {
			if strings.HasSuffix(l, name) {
				link = l
			}
		}
		if fi, err := os.Stat(filepath.Join(merged, link)); link == "" || err != nil || fi.Size() < 1000 {
			t.Errorf("the merged index's link to %s (%q): %v\n%s", name, link, err, index)
		}
	}

	out, code = runFlows(t, env, filepath.Join(dir, "wrong.yaml"))
	t.Logf("the wrong flow:\n%s", out)
	if code != 1 {
		t.Fatalf("the wrong flow: exit %d, want 1", code)
	}
	mustContain(t, "the wrong flow", out, "FAIL  wrong", "step 6, Bob joins > bob: expect role=heading", "Chat as bob")

	specDir := filepath.Join(dir, "spec")
	cmd := exec.Command(bin, "convert", filepath.Join(dir, "chat.yaml"), "--to", "playwright", "--out", specDir)
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, b)
	}
	spec, err := os.ReadFile(filepath.Join(specDir, "chat.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the spec", string(spec), "async ({ page, browser, baseURL })", "const bobContext = await browser.newContext({ baseURL });",
		"const page = bobPage; // as bob", "await page.request.post('/api/login', { data: { 'name': 'bob' } });", "await bobContext.close();")
}
