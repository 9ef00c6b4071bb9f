package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// attachedImage is the image right after the text content that starts with
// caption in a result, decoded.
func attachedImage(t *testing.T, res *mcp.CallToolResult, caption string) (image.Image, string) {
	t.Helper()
	for i, c := range res.Content {
		tc, ok := c.(mcp.TextContent)
		if !ok || !strings.HasPrefix(tc.Text, caption) {
			continue
		}
		if i+1 >= len(res.Content) {
			break
		}
		img, ok := res.Content[i+1].(mcp.ImageContent)
		if !ok {
			t.Fatalf("the caption %q is not followed by an image", tc.Text)
		}
		raw, err := base64.StdEncoding.DecodeString(img.Data)
		if err != nil {
			t.Fatal(err)
		}
		if caption == "Diff" {
			if img.MIMEType != "image/png" {
				t.Fatalf("the diff image is %s, not a PNG", img.MIMEType)
			}
			dec, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("the diff image does not decode as PNG: %v", err)
			}
			return dec, tc.Text
		}
		dec, _, err := image.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("the %s image does not decode: %v", caption, err)
		}
		return dec, tc.Text
	}
	t.Fatalf("no image captioned %q in the answer:\n%s", caption, text(res))
	return nil, ""
}

// box is an element's box in the viewport, in CSS pixels.
type box struct{ X, Y, W, H float64 }

func boxOf(t *testing.T, c *client.Client, selector string) box {
	t.Helper()
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => { const r = document.querySelector(` +
		strings.ReplaceAll(jsonString(selector), "`", "") + `).getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; }`})
	m := regexp.MustCompile("(?s)```json\n(.*?)\n```").FindStringSubmatch(out)
	var b box
	if m == nil || json.Unmarshal([]byte(m[1]), &b) != nil || b.W == 0 {
		t.Fatalf("the box of %s: %s", selector, out)
	}
	return b
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// redPixels counts the diff image's red pixels inside r (CSS pixels grown
// by 2) and outside every one of rs.
func redPixels(img image.Image, rs ...box) (inside []int, outside int) {
	inside = make([]int, len(rs))
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 != 255 || g>>8 != 0 || bl>>8 != 0 {
				continue
			}
			in := false
			for i, q := range rs {
				if float64(x) >= q.X-2 && float64(x) < q.X+q.W+2 && float64(y) >= q.Y-2 && float64(y) < q.Y+q.H+2 {
					inside[i]++
					in = true
				}
			}
			if !in {
				outside++
			}
		}
	}
	return inside, outside
}

// TestVisualCheck: browser_expect check=screenshot on a pricing page. The
// first check writes the baseline and passes; the usage meter grown by a
// fifth of a pixel (one column of anti-aliased pixels) passes at the
// default threshold; the call to action moved fails with the baseline,
// the actual image and a diff attached, whose red pixels are where the
// button was and where it went; a live clock passes when masked and fails
// when not.
func TestVisualCheck(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	snaps := filepath.Join(dir, "e2e-mcp-snapshots")

	// One element, by name: written, then matched.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html?usage=62.05"})
	card := map[string]any{"check": "screenshot", "target": "role=article[name=\"Pro plan\"]", "expected": "pro-card"}
	out := mustCall(t, c, "browser_expect", card)
	mustContain(t, "the first check", out, "PASS: baseline written", filepath.Join(snaps, "pro-card.png"))
	raw, err := os.ReadFile(filepath.Join(snaps, "pro-card.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Fatalf("the baseline is not a PNG: %v", err)
	}
	mustContain(t, "the second check", mustCall(t, c, "browser_expect", card), "PASS: role=article", "matches baseline pro-card (0 pixel(s) differ")

	// Usage 62.05% -> 62.45% of a 200px meter: its fill ends 0.8px further,
	// inside the same pixel column, which goes from a tenth of the fill's
	// color to nine tenths: anti-aliasing, not a change.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html?usage=62.45"})
	res := call(t, c, "browser_expect", card)
	if res.IsError {
		t.Fatalf("the meter's one-column change fails:\n%s", text(res))
	}
	exp, _ := res.StructuredContent.(map[string]any)["expect"].(map[string]any)
	aa, _ := exp["antiAliasedPixels"].(float64)
	if exp["diffPixels"] != float64(0) || aa < 1 || aa > 8 {
		t.Fatalf("the meter's change: want 0 counted and 1-8 anti-aliased pixels (one column of the 8px meter), got %v", exp)
	}

	// The whole viewport with the clock masked, under the page's name.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html"})
	view := map[string]any{"check": "screenshot", "mask": []any{".updated"}}
	mustContain(t, "the viewport's baseline", mustCall(t, c, "browser_expect", view), "PASS: baseline written", filepath.Join(snaps, "visual-pricing.png"))
	was := boxOf(t, c, ".featured .cta")

	// The clock ticks: masked it passes, unmasked it is the difference.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html"})
	mustContain(t, "masked", mustCall(t, c, "browser_expect", view), "PASS: the viewport matches baseline visual-pricing")
	res = call(t, c, "browser_expect", map[string]any{"check": "screenshot", "timeout": 1})
	if !res.IsError {
		t.Fatalf("the clock unmasked passes:\n%s", text(res))
	}
	// Two screenshots in a row may fall within one tick of the clock (then
	// the difference is the clock) or never (then the page never held still).
	switch out := text(res); {
	case strings.Contains(out, "expect_failed: FAIL: the viewport does not match baseline visual-pricing"):
		diff, _ := attachedImage(t, res, "Diff")
		in, outside := redPixels(diff, boxOf(t, c, ".updated"))
		if in[0] == 0 || outside != 0 {
			t.Fatalf("the unmasked clock's diff: %d red pixels on the clock, %d elsewhere", in[0], outside)
		}
	case strings.Contains(out, "expect_failed: FAIL: the page did not hold still for baseline visual-pricing"):
		attachedImage(t, res, "Actual")
	default:
		t.Fatalf("the clock unmasked:\n%s", out)
	}

	// The call to action moves to the card's other side.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html?layout=moved"})
	now := boxOf(t, c, ".featured .cta")
	if now.X == was.X {
		t.Fatalf("the button did not move: %v", now)
	}
	view["timeout"] = 1
	res = call(t, c, "browser_expect", view)
	out = text(res)
	if !res.IsError || !strings.Contains(out, "expect_failed: FAIL: the viewport does not match baseline visual-pricing") ||
		!regexp.MustCompile(`\d+ pixel\(s\) differ \([0-9.]+% of \d+x\d+, 0 allowed\), within x \d+-\d+, y \d+-\d+`).MatchString(out) {
		t.Fatalf("the moved button:\n%s", out)
	}
	_, caption := attachedImage(t, res, "Baseline")
	mustContain(t, "the baseline's caption", caption, filepath.Join(snaps, "visual-pricing.png"))
	actual, caption := attachedImage(t, res, "Actual")
	mustContain(t, "the actual image's caption", caption, filepath.Join(snaps, "visual-pricing.actual.png"))
	diff, caption := attachedImage(t, res, "Diff")
	mustContain(t, "the diff's caption", caption, filepath.Join(snaps, "visual-pricing.diff.png"), "red")
	if diff.Bounds() != actual.Bounds() {
		t.Fatalf("the diff is %v, the actual image %v", diff.Bounds(), actual.Bounds())
	}
	in, outside := redPixels(diff, was, now)
	t.Logf("red pixels: %d where the button was, %d where it is, %d elsewhere", in[0], in[1], outside)
	if in[0] < 50 || in[1] < 50 || outside != 0 {
		t.Fatalf("red pixels: %d where the button was (%v), %d where it went (%v), %d elsewhere", in[0], was, in[1], now, outside)
	}
	for _, f := range []string{"visual-pricing.actual.png", "visual-pricing.diff.png"} {
		b, err := os.ReadFile(filepath.Join(snaps, f))
		if err != nil {
			t.Fatalf("%s is not written next to the baseline: %v", f, err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	size := 0
	for _, c := range res.Content {
		if img, ok := c.(mcp.ImageContent); ok {
			size += base64.StdEncoding.DecodedLen(len(img.Data))
		}
	}
	if size > 400<<10 {
		t.Errorf("the failure's images are %d KB, over the failure screenshot's 400 KB", size>>10)
	}
	if strings.Contains(out, "Screenshot at the failure: attached") {
		t.Errorf("the failure carries a screenshot besides its own images:\n%s", out)
	}

	mustFail(t, c, "browser_expect", map[string]any{"check": "screenshot", "expected": "../escape"}, "invalid_input")
	mustFail(t, c, "browser_expect", map[string]any{"check": "text", "target": "h1", "mask": []any{"h1"}}, "invalid_input")
}

// TestVisualFlowUpdateSnapshots: a visual check recorded in a session
// replays from a flow, whose first run writes the baseline next to it;
// after the page changes the run fails, `run --update-snapshots` rewrites
// the baseline, and the next run passes.
func TestVisualFlowUpdateSnapshots(t *testing.T) {
	var moved atomic.Bool
	page, err := testdata.ReadFile("testdata/visual/pricing.html")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /live/pricing.html", func(w http.ResponseWriter, _ *http.Request) {
			body := page
			if moved.Load() {
				body = bytes.Replace(page, []byte(`data-layout="standard"`), []byte(`data-layout="moved"`), 1)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(body)
		})
	})
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/live/pricing.html"})
	mustContain(t, "the session's check", mustCall(t, c, "browser_expect", map[string]any{"check": "screenshot", "mask": []any{".updated"}}),
		"PASS: baseline written")
	flowFile := filepath.Join(dir, "pricing.yaml")
	mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": "pricing-look"})
	_ = c.Close()
	b, _ := os.ReadFile(flowFile)
	mustContain(t, "the flow", string(b), "check: screenshot", "expected: live-pricing", ".updated")

	baseline := filepath.Join(dir, "pricing.snapshots", "live-pricing.png")
	out, code := runFlows(t, env, flowFile)
	if code != 0 || !strings.Contains(out, "PASS  pricing-look") {
		t.Fatalf("the first run (exit %d):\n%s", code, out)
	}
	first, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatalf("the first run wrote no baseline next to the flow: %v\n%s", err, out)
	}
	if out, code := runFlows(t, env, flowFile); code != 0 {
		t.Fatalf("the second run, against its baseline (exit %d):\n%s", code, out)
	}

	moved.Store(true)
	art, rep := filepath.Join(dir, "artifacts"), filepath.Join(dir, "reports")
	out, code = runFlows(t, env, flowFile, "--artifacts", art, "--report", rep)
	if code != 1 || !strings.Contains(out, "FAIL  pricing-look") || !strings.Contains(out, "does not match baseline live-pricing") {
		t.Fatalf("the run after the page changed (exit %d):\n%s", code, out)
	}
	for _, f := range []string{"live-pricing.actual.png", "live-pricing.diff.png"} {
		if _, err := os.Stat(filepath.Join(dir, "pricing.snapshots", f)); err != nil {
			t.Errorf("the failing run did not write %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(art, "pricing-look", "step-2-3.png")); err != nil {
		t.Errorf("the artifacts hold no diff image: %v", err)
	}
	// The run's report shows the three images of the failure, each after
	// its caption.
	html, err := os.ReadFile(filepath.Join(rep, "pricing-look.html"))
	if err != nil {
		t.Fatalf("the failing run's report: %v", err)
	}
	report := string(html)
	base, actual, diff := strings.Index(report, "Baseline "), strings.Index(report, "Actual ("), strings.Index(report, "Diff: ")
	if base < 0 || actual < base || diff < actual || strings.Count(report[base:], "data:image/") < 3 || !strings.Contains(report[diff:], "data:image/png") {
		t.Errorf("the report does not show the baseline, the actual image and the diff, in that order (at %d, %d, %d)", base, actual, diff)
	}

	out, code = runFlows(t, env, flowFile, "--update-snapshots")
	if code != 0 {
		t.Fatalf("run --update-snapshots (exit %d):\n%s", code, out)
	}
	updated, _ := os.ReadFile(baseline)
	if bytes.Equal(first, updated) {
		t.Fatal("run --update-snapshots left the baseline as it was")
	}
	if out, code := runFlows(t, env, flowFile); code != 0 {
		t.Fatalf("the run after the update (exit %d):\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pricing.snapshots", "live-pricing.diff.png")); err == nil {
		t.Error("a passing run left the failure's diff behind")
	}
}

// pngHeader is the start of a PNG that says it is w by h pixels: enough
// for its size to be read, nothing to decode.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte("IHDR"), w), h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	b := append([]byte("\x89PNG\r\n\x1a\n"), binary.BigEndian.AppendUint32(nil, uint32(len(ihdr)-4))...)
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

// TestVisualCheckBoundsItsPixels: a visual check of an element bigger than
// it compares (10000x10000) is refused before anything is captured, and so
// is a baseline that says it is bigger, before it is decoded: neither
// takes the server's memory.
func TestVisualCheckBoundsItsPixels(t *testing.T) {
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	mustCall(t, c, "browser_navigate", map[string]any{"url": "data:text/html,<div id=big style='width:10000px;height:10000px;background:linear-gradient(red,blue)'></div><p id=small>Small</p>"})
	out := mustFail(t, c, "browser_expect", map[string]any{"check": "screenshot", "target": "#big"}, "invalid_input")
	mustContain(t, "a 10000x10000 element", out, "10000x10000", "megapixels", "target")
	if _, err := os.Stat(filepath.Join(dir, "e2e-mcp-snapshots", "index-big.png")); err == nil {
		t.Error("a baseline was written for the refused check")
	}
	snaps := filepath.Join(dir, "e2e-mcp-snapshots")
	if err := os.MkdirAll(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(snaps, "small.png"), pngHeader(20000, 20000), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mustFail(t, c, "browser_expect", map[string]any{"check": "screenshot", "target": "#small", "expected": "small"}, "invalid_input")
	mustContain(t, "a baseline of 20000x20000", out, "20000x20000", "megapixels")
}
