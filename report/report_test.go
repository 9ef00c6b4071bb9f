package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// pngOf is a real PNG of w×h pixels.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			im.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const hostile = `</script><img src=x onerror=alert(1)><script>alert(2)</script>"'&`

// TestRender_EscapesEverything: a hostile string in every field the page
// shows comes out as text, never as markup.
func TestRender_EscapesEverything(t *testing.T) {
	r := Report{
		Title: hostile, Status: "failed", Summary: hostile, Generated: time.Now(),
		Meta:  []KV{{"flow", hostile}},
		Notes: []string{hostile},
		Steps: []Step{
			{Tool: "browser_type", Args: map[string]any{"target": hostile, "text": hostile}, OK: true, Result: hostile,
				Shot: &Image{MIME: "image/png", Data: pngOf(t, 4, 4), Caption: hostile}},
			{Tool: hostile, Failure: []Part{{Text: hostile}, {Image: &Image{MIME: "image/png", Data: pngOf(t, 4, 4), Caption: hostile}},
				{Image: &Image{MIME: `text/html"><script>`, Data: []byte(hostile), Caption: "not an image"}}}},
		},
		Dev:     &Dev{Command: hostile, URL: "javascript:alert(1)", Log: []string{hostile}, LogNote: hostile},
		Console: []Console{{Level: "error", Text: hostile, Location: hostile}},
		Network: []Request{{Method: "GET", URL: hostile, Outcome: hostile, Failed: true}},
	}
	b, err := Render(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, bad := range []string{"<img src=x", "<script>", "onerror=alert(1)>", "</script><"} {
		if strings.Contains(html, bad) {
			t.Errorf("the hostile string came out as markup (%q):\n%s", bad, html)
		}
	}
	if n := strings.Count(html, "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"); n < 10 {
		t.Errorf("the hostile string is shown escaped only %d times; want it in every field", n)
	}
	if strings.Count(html, `src="data:image/png;base64,`) != 2 {
		t.Errorf("want the two PNGs as data: URIs:\n%s", html)
	}
	if strings.Contains(html, "data:text/html") || !strings.Contains(html, "not shown") {
		t.Errorf("an image of another type must not become a data: URI")
	}
	for _, want := range []string{`<meta name="viewport"`, `default-src 'none'`, "<style>"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in the page", want)
		}
	}
	for _, external := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(strings.ToLower(html), external) {
			t.Errorf("the page names %q: it must need nothing outside itself", external)
		}
	}
}

// TestRender_MasksSecrets: a known secret is masked wherever it appears,
// and secret-looking arguments whatever their value.
func TestRender_MasksSecrets(t *testing.T) {
	r := Report{
		Title: "run", Meta: []KV{{"url", "http://u:hunter2@x"}},
		Steps: []Step{
			{Tool: "browser_type", Args: map[string]any{"target": "#pw", "text": "hunter2"}, OK: true, Result: "typed hunter2"},
			{Tool: "browser_emulate", Args: map[string]any{"httpPassword": "opensesame", "nested": []any{map[string]any{"apiKey": "k-123"}}}, OK: true},
			{Tool: "browser_click", Failure: []Part{{Text: `Context: {"text":"hunter2"}`}, {Image: &Image{MIME: "image/png", Data: pngOf(t, 2, 2), Caption: "hunter2 shown"}}}},
		},
		Dev:     &Dev{Command: "app --password hunter2", Log: []string{"login hunter2 ok"}},
		Console: []Console{{Level: "log", Text: "pw=hunter2"}},
		Network: []Request{{Method: "GET", URL: "http://x/?p=hunter2"}},
	}
	set := redact.NewSet(nil)
	set.Add("hunter2", "")
	b, err := Render(r, Options{Secrets: set})
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, secret := range []string{"hunter2", "opensesame", "k-123"} {
		if strings.Contains(html, secret) {
			t.Errorf("the secret %q is in the report", secret)
		}
	}
	if c := strings.Count(html, Masked); c < 9 {
		t.Errorf("want every secret shown as %s (9 places), got %d", Masked, c)
	}
	if r.Steps[0].Args["text"] != "hunter2" {
		t.Error("Render changed the caller's report")
	}
}

// TestRender_SizeCap: over the cap, the oldest screenshots go first and
// the file says so; the failure's image stays while screenshots can go.
func TestRender_SizeCap(t *testing.T) {
	shot := pngOf(t, 120, 120)
	var r Report
	for range 10 {
		r.Steps = append(r.Steps, Step{Tool: "browser_click", OK: true, Shot: &Image{MIME: "image/png", Data: shot}})
	}
	r.Steps = append(r.Steps, Step{Tool: "browser_expect", Failure: []Part{{Text: "failed"}, {Image: &Image{MIME: "image/png", Data: shot, Caption: "at the failure"}}}})
	full, err := Render(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	limit := len(full) - 3*len(shot)
	b, err := Render(r, Options{MaxBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if len(b) > limit {
		t.Errorf("the report is %d bytes, over its cap of %d", len(b), limit)
	}
	if !strings.Contains(html, "screenshot(s) left out (the oldest first)") {
		t.Errorf("the report does not say what it left out")
	}
	if strings.Contains(html, `alt="screenshot after step 1"`) || !strings.Contains(html, `alt="screenshot after step 10"`) {
		t.Errorf("want the oldest screenshot left out and the newest kept")
	}
	if !strings.Contains(html, `alt="image of the failure answer"`) {
		t.Errorf("the failure's image went before the screenshots")
	}
}

// TestRender_ShotAsLeftOut: a step whose picture is an earlier step's
// says which, and says so too when the size cap left that picture out.
func TestRender_ShotAsLeftOut(t *testing.T) {
	shot := pngOf(t, 120, 120)
	r := Report{Steps: []Step{
		{Tool: "browser_click", OK: true, Shot: &Image{MIME: "image/png", Data: shot}},
		{Tool: "browser_expect", OK: true, ShotAs: 1},
		{Tool: "browser_click", OK: true, Shot: &Image{MIME: "image/png", Data: shot}},
		{Tool: "browser_expect", OK: true, ShotAs: 3},
	}}
	full, err := Render(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(full)
	for _, want := range []string{"after step 2: as after step 1 (nothing on the page changed)</p>", "after step 4: as after step 3 (nothing on the page changed)</p>"} {
		if !strings.Contains(html, want) {
			t.Errorf("want %q", want)
		}
	}
	b, err := Render(r, Options{MaxBytes: len(full) - len(shot)})
	if err != nil {
		t.Fatal(err)
	}
	html = string(b)
	if strings.Contains(html, `alt="screenshot after step 1"`) || !strings.Contains(html, `alt="screenshot after step 3"`) {
		t.Fatalf("want step 1's picture left out and step 3's kept")
	}
	if !strings.Contains(html, "after step 2: as after step 1 (nothing on the page changed); that picture is left out") {
		t.Errorf("step 2 does not say its picture was left out")
	}
	if !strings.Contains(html, "after step 4: as after step 3 (nothing on the page changed)</p>") {
		t.Errorf("step 4's note changed, though its picture is kept")
	}
	if r.Steps[0].Shot == nil || r.Steps[0].ShotLeftOut {
		t.Error("Render changed the caller's steps")
	}
}

// TestRender_SizeCapHoldsForText: a report made of escaped logs (console
// messages and requests full of markup, from two tabs) stays under its
// cap, the oldest entries going first; one made of long step texts too,
// the longest clipped. Before, only images were left out and such reports
// went far over their cap. Each says what it left out.
func TestRender_SizeCapHoldsForText(t *testing.T) {
	markup := strings.Repeat(`<div class="x">&amp;"'</div>`, 40) // about 1 KB, five times that escaped
	const limit = 2 << 20
	render := func(r Report) string {
		t.Helper()
		b, err := Render(r, Options{MaxBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > limit {
			t.Fatalf("the report is %d bytes, over its cap of %d", len(b), limit)
		}
		return string(b)
	}
	var logs Report
	for i := range 4000 {
		tab := fmt.Sprintf("tab %d", i%2)
		logs.Console = append(logs.Console, Console{Tab: tab, Level: "log", Text: fmt.Sprintf("message %d %s", i, markup)})
		logs.Network = append(logs.Network, Request{Tab: tab, Method: "GET", URL: fmt.Sprintf("http://app.test/%d?q=%s", i, markup)})
	}
	logs.Steps = []Step{{Tool: "browser_click", Failure: []Part{{Text: "the failure's own text"}}}}
	html := render(logs)
	if !strings.Contains(html, "console and network entries left out (the oldest first)") {
		t.Error("the report does not say it left out log entries")
	}
	if !strings.Contains(html, "message 3999 ") || strings.Contains(html, "message 0 ") || !strings.Contains(html, "the failure&#39;s own text") {
		t.Error("want the newest console message and the failure kept, the oldest message left out")
	}

	var texts Report
	for i := range 50 {
		texts.Steps = append(texts.Steps, Step{Tool: "browser_click", OK: i%2 == 0, Result: strings.Repeat("<b>result</b>", 150),
			Failure: []Part{{Text: fmt.Sprintf("failure %d: ", i) + strings.Repeat("<failure & trace>", 3000)}}})
	}
	html = render(texts)
	if !strings.Contains(html, "step text(s) clipped") || !strings.Contains(html, "failure 49: ") {
		t.Error("want long texts clipped, said, and each failure's start kept")
	}
}

// TestRender_Video: a report with a video plays the file beside it, and
// only then lets images load from its own origin; a hostile path is no
// script.
func TestRender_Video(t *testing.T) {
	plain, err := Render(Report{Title: "t"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "'self'") || strings.Contains(string(plain), `id="video"`) {
		t.Errorf("a report without a video lets images load from its origin:\n%s", plain)
	}
	b, err := Render(Report{Title: "t", Video: &Video{Src: "videos/sign up.png", Caption: "1280x720, 12 frames"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{`img-src data: 'self';`, `<img src="videos/sign%20up.png"`, "1280x720, 12 frames", `href="#video"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in:\n%s", want, html)
		}
	}
	b, _ = Render(Report{Title: "t", Video: &Video{Src: "javascript:alert(1)"}}, Options{})
	if strings.Contains(string(b), "javascript:") {
		t.Errorf("a javascript: video source came out as is")
	}
}

// TestGroups: steps in a flow's groups are shown under a heading of their
// group path where a run of them starts, each naming its path, and the
// link to a failed step names it too; a step in no group has neither.
func TestGroups(t *testing.T) {
	r := Report{Title: "Flow x", Steps: []Step{
		{Tool: "browser_navigate", OK: true},
		{Tool: "browser_type", OK: true, Group: []string{"Sign in"}, GroupStart: true},
		{Tool: "browser_click", Group: []string{"Sign in", "Submit <it>"}, GroupStart: true},
	}}
	b, err := Render(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		`<li class="group" style="margin-left:1em"><span class="group-path">Sign in</span></li>`,
		`<li class="group" style="margin-left:2em"><span class="group-path">Sign in › Submit &lt;it&gt;</span></li>`,
		`<span class="group-path">Sign in ›</span> <b class="tool">browser_type</b>`,
		`failed: #3 Sign in › Submit &lt;it&gt; › browser_click</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if strings.Count(html, `<li class="group"`) != 2 || strings.Contains(html, `<li id="step-1" class="step ok" style`) {
		t.Errorf("a heading or indent where no group starts:\n%s", html)
	}
}
