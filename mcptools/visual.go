package mcptools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io/fs"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/internal/imagediff"
	"github.com/mark3labs/mcp-go/mcp"
)

// A visual check (browser_expect check=screenshot) compares the viewport or
// one element with a baseline PNG (docs/architecture.md §6). The first check
// of a name writes the baseline and passes; a later one fails with the
// baseline, the actual image and a diff attached, and the last two written
// next to the baseline (NAME.actual.png, NAME.diff.png). MCP sessions keep
// baselines in e2e-mcp-snapshots/ of the first file root (over HTTP: of
// the caller's own directory of the output directory, so that no client
// compares with another's); `e2e-mcp run` keeps them next to the flow file,
// in FLOW.snapshots/ (Deps.Baselines). A check compares at most
// maxVisualPixels.

const (
	snapshotDirName = "e2e-mcp-snapshots"
	maxMasks        = 20
	// maxVisualPixels bounds the images a check decodes and compares (a
	// screenshot, the one before it, the baseline, its masked copy and a
	// failure's diff may be alive at once, 4 bytes a pixel): at 16
	// megapixels, as 4000x4000 or 1280x12500, a check's heap stays near
	// 250 MB (a 10000x10000 element took the server to 3.6 GB).
	maxVisualPixels = 16_000_000
)

// baselineNameRE is what a baseline's name may be: a file name, no path;
// a name made of a page's path has every other run of characters as '-'.
var (
	baselineNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)
	nameRunRE      = regexp.MustCompile(`[^A-Za-z0-9._]+`)
)

// Attachment is an image an error answer carries, with its caption.
type Attachment struct {
	Caption string
	MIME    string
	Data    []byte
}

// baselineName is the name the check's baseline goes by: the one given, or
// one made of the page's path (and the target).
func baselineName(given, pageURL, target string) (string, error) {
	if given != "" {
		name := strings.TrimSuffix(given, ".png")
		if !baselineNameRE.MatchString(name) || strings.Contains(name, "..") {
			return "", invalidInput("expected", "%q is not a baseline name: use letters, digits, '.', '_' and '-', e.g. pricing-card", given)
		}
		return name, nil
	}
	name := "index"
	if u, err := url.Parse(pageURL); err == nil {
		if p := strings.Trim(u.Path, "/"); p != "" {
			name = strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".htm")
		}
	}
	if target != "" {
		name += "-" + target
	}
	name = strings.Trim(nameRunRE.ReplaceAllString(name, "-"), "-.")
	if len(name) > 100 {
		name = strings.TrimRight(name[:100], "-.")
	}
	if name == "" {
		name = "index"
	}
	return name, nil
}

// baselineFile is a check's baseline, name.png, written as every file a
// tool writes (files.go): in the flow's directory of baselines under
// `e2e-mcp run`, else in e2e-mcp-snapshots/ of the first file root (over
// HTTP: of the caller's own directory of the output directory); update
// says the check rewrites it.
func (d *Deps) baselineFile(ctx context.Context, s *Session, name string) (out *outputFile, update bool, err error) {
	if d.Baselines != nil {
		if dir, update := d.Baselines(s.ID); dir != "" {
			out, err := userDirFile(dir, name+".png", "expected")
			return out, update, err
		}
	}
	out, err = d.serverFile(ctx, "expected", snapshotDirName, name+".png")
	return out, false, err
}

// readBaseline is the baseline out holds, or nil when there is none yet.
// Its size is read first: a PNG that says it is bigger than a check
// compares is refused before it is decoded.
func readBaseline(out *outputFile) (*image.RGBA, error) {
	raw, err := out.read(4*maxVisualPixels + 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	notPNG := func(err error) error {
		return &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("the baseline %s is not a PNG a check can use: %v", out.path, err),
			Suggestion: "delete it: the next check writes a new one"}
	}
	if err != nil {
		return nil, notPNG(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, notPNG(err)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxVisualPixels {
		return nil, notPNG(fmt.Errorf("it is %dx%d pixels (%d megapixels), more than a visual check compares (%d megapixels)",
			cfg.Width, cfg.Height, px/1_000_000, maxVisualPixels/1_000_000))
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, notPNG(err)
	}
	return owned(img), nil
}

// visualOptions are the comparison's options of a visual check.
func (a ExpectParams) visualOptions() (imagediff.Options, error) {
	var o imagediff.Options
	switch {
	case a.Threshold < 0 || a.Threshold > 1:
		return o, invalidInput("threshold", "%g is not between 0 and 1 (the default is %g)", a.Threshold, imagediff.DefaultThreshold)
	case a.MaxDiff < 0:
		return o, invalidInput("maxDiff", "%g is negative: give a number of pixels, or a ratio under 1", a.MaxDiff)
	case len(a.Mask) > maxMasks:
		return o, invalidInput("mask", "%d masks: give at most %d", len(a.Mask), maxMasks)
	}
	o.Threshold = a.Threshold
	if a.MaxDiff < 1 {
		o.MaxDiffRatio = a.MaxDiff
	} else {
		o.MaxDiffPixels = int(a.MaxDiff)
	}
	return o, nil
}

// expectScreenshot is browser_expect's visual check.
func (d *Deps) expectScreenshot(ctx context.Context, s *Session, p *browser.Page, a ExpectParams, timeout time.Duration) (*mcp.CallToolResult, error) {
	opts, err := a.visualOptions()
	if err != nil {
		return nil, err
	}
	info, err := p.Info(ctx)
	if err != nil {
		return nil, err
	}
	name, err := baselineName(a.Expected, info.URL, a.Target)
	if err != nil {
		return nil, err
	}
	out, update, err := d.baselineFile(ctx, s, name)
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			return nil, err
		}
		return nil, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("expected: cannot make the baselines' directory: %v", err),
			Suggestion: "give the server a writable file root (--file-roots)"}
	}
	var base *image.RGBA
	if !update {
		if base, err = readBaseline(out); err != nil {
			return nil, err
		}
	}
	c := visualCheck{base: base, opts: opts}
	// Holding the page still draws on it: not while the picture after
	// the step before is still being taken (readsOnly).
	s.settleShot()
	err = p.CaptureStill(ctx, measure.VisualOptions{Target: a.Target, Masks: a.Mask, MaxPixels: maxVisualPixels}, timeout, c.next)
	if err != nil {
		return nil, err
	}
	s.lastBaseline = name
	what := "the viewport"
	if a.Target != "" {
		what = a.Target
	}
	var r response
	r.set("baseline", out.path)
	switch {
	case c.stable == nil:
		return nil, c.unstable(out, name, timeout)
	case base == nil:
		var b bytes.Buffer
		if err := png.Encode(&b, c.stable); err != nil {
			return nil, err
		}
		if err := out.write(b.Bytes()); err != nil {
			return nil, err
		}
		verb := "written"
		if update {
			verb = "updated"
		}
		r.resultf("PASS: baseline %s of %s: %s (%dx%d). Later checks of %s compare with it.", verb, what, out.path,
			c.stable.Bounds().Dx(), c.stable.Bounds().Dy(), name)
		r.set("expect", map[string]any{"pass": true, "baseline": verb, "name": name})
		return r.build(), nil
	case c.sizeErr != nil:
		return nil, c.failed(out, name, fmt.Sprintf("FAIL: %s does not match baseline %s: %v", what, name, c.sizeErr))
	case !c.res.Pass:
		res := c.res
		return nil, c.failed(out, name, fmt.Sprintf(
			"FAIL: %s does not match baseline %s: %d pixel(s) differ (%.2f%% of %dx%d, %d allowed), within x %d-%d, y %d-%d (image pixels); %d anti-aliased pixel(s) not counted",
			what, name, res.Diff, 100*res.Ratio(), res.Width, res.Height, max(opts.MaxDiffPixels, int(opts.MaxDiffRatio*float64(res.Width*res.Height))),
			res.Bounds.Min.X, res.Bounds.Max.X-1, res.Bounds.Min.Y, res.Bounds.Max.Y-1, res.AntiAliased))
	}
	for _, f := range []string{name + ".actual.png", name + ".diff.png"} {
		out.sibling(f).remove() // a passed check leaves no stale failure behind
	}
	r.resultf("PASS: %s matches baseline %s (%d pixel(s) differ, %d anti-aliased not counted).", what, name, c.res.Diff, c.res.AntiAliased)
	r.set("expect", map[string]any{"pass": true, "name": name, "diffPixels": c.res.Diff, "antiAliasedPixels": c.res.AntiAliased})
	return r.build(), nil
}

// visualCheck is the state of one check's captures: it waits for two
// screenshots in a row to be the same, then compares the second with the
// baseline, and goes on until one matches or the time is up.
type visualCheck struct {
	base    *image.RGBA
	opts    imagediff.Options
	prev    *image.RGBA
	stable  *image.RGBA // the last screenshot that was the same as the one before (masks painted)
	res     imagediff.Result
	sizeErr error
}

func (c *visualCheck) next(shot measure.VisualShot) (bool, error) {
	dec, err := png.Decode(bytes.NewReader(shot.PNG))
	if err != nil {
		return false, fmt.Errorf("read the screenshot: %w", err)
	}
	img := owned(dec)
	imagediff.Mask(img, shot.Masks)
	first := c.prev == nil
	still := !first && imagediff.Equal(c.prev, img)
	c.prev = img
	if !still && (!first || c.base == nil) { // the first is compared at once: a page that matches needs no second
		return false, nil
	}
	if still {
		c.stable = img
	}
	if c.base == nil {
		return true, nil
	}
	baseM := c.base
	if len(shot.Masks) > 0 {
		baseM = imagediff.RGBA(c.base)
		imagediff.Mask(baseM, shot.Masks)
	}
	res, err := imagediff.Compare(baseM, img, c.opts)
	var se *imagediff.SizeError
	switch {
	case errors.As(err, &se):
		if still {
			c.sizeErr = se
		}
		return still, nil
	case err != nil:
		return false, err
	case res.Pass:
		c.stable, c.res = img, res
		return true, nil
	}
	if still {
		c.res = res
	}
	return false, nil
}

// owned is a decoded image as RGBA at 0,0: itself when it is one already
// (a screenshot: PNG's truecolor decodes so), else a copy. A check holds
// several images of up to maxVisualPixels at once: no copy it can spare.
func owned(img image.Image) *image.RGBA {
	if rgba, ok := img.(*image.RGBA); ok && rgba.Rect.Min == (image.Point{}) {
		return rgba
	}
	return imagediff.RGBA(img)
}

// unstable is the failure of a page that never held still.
func (c *visualCheck) unstable(out *outputFile, name string, timeout time.Duration) error {
	within := "the action timeout"
	if timeout > 0 {
		within = timeout.String()
	}
	te := &ToolError{Type: ErrExpectFailed,
		Message:    fmt.Sprintf("FAIL: the page did not hold still for baseline %s: no two screenshots in a row were the same within %s", name, within),
		Suggestion: "mask what keeps changing (mask: a clock, a carousel), or wait for the page to settle first"}
	if c.prev != nil {
		te.Attach = append(te.Attach, attach(out.sibling(name+".actual.png"), "Actual: the last screenshot", c.prev, false))
	}
	return te
}

// failed is the failure of a check that does not match its baseline, with
// the baseline, the actual image and the diff attached.
func (c *visualCheck) failed(out *outputFile, name, msg string) error {
	te := &ToolError{Type: ErrExpectFailed, Message: msg,
		Suggestion: "this is a test failure of the page: fix the app, or if the change is intended, delete the baseline (or `e2e-mcp run --update-snapshots`) to write it again"}
	te.Attach = append(te.Attach, attach(nil, "Baseline "+out.path, c.base, false))
	te.Attach = append(te.Attach, attach(out.sibling(name+".actual.png"), "Actual", c.stable, false))
	if c.sizeErr == nil {
		te.Attach = append(te.Attach, attach(out.sibling(name+".diff.png"),
			"Diff: the baseline in faint grey, differing pixels red, anti-aliased ones yellow", c.res.Image, true))
	}
	return te
}

// attach writes img to file (unless it is nil), next to the baseline, and
// makes it an attachment within its share of a failure's image budget: a
// JPEG (a PNG for a diff, whose red pixels must stay exact), halved until
// it fits.
func attach(file *outputFile, caption string, img *image.RGBA, diff bool) Attachment {
	if file != nil {
		var b bytes.Buffer
		err := png.Encode(&b, img)
		if err == nil {
			err = file.write(b.Bytes())
		}
		if err == nil {
			caption += " (" + file.path + ")"
		} else {
			caption += fmt.Sprintf(" (not written: %v)", err)
		}
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	for {
		var b bytes.Buffer
		mime := "image/jpeg"
		var err error
		if diff {
			mime, err = "image/png", png.Encode(&b, img)
		} else {
			err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 80})
		}
		if err == nil && (b.Len() <= maxScreenshotSize/3 || img.Bounds().Dx() < 64) {
			if sw := img.Bounds().Dx(); sw != w {
				caption += fmt.Sprintf(", %dx%d shown at %dx%d", w, h, sw, img.Bounds().Dy())
			} else {
				caption += fmt.Sprintf(", %dx%d", w, h)
			}
			return Attachment{Caption: caption + ":", MIME: mime, Data: b.Bytes()}
		}
		img = half(img, diff)
	}
}

// half is img at half its size; for a diff, a marked pixel wins over grey
// (red over yellow) so that no difference disappears.
func half(img *image.RGBA, diff bool) *image.RGBA {
	w, h := (img.Bounds().Dx()+1)/2, (img.Bounds().Dy()+1)/2
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [4]int
			var n int
			var mark color.RGBA
			for dy := 0; dy < 2; dy++ {
				for dx := 0; dx < 2; dx++ {
					px, py := 2*x+dx, 2*y+dy
					if px >= img.Bounds().Dx() || py >= img.Bounds().Dy() {
						continue
					}
					c := img.RGBAAt(px, py)
					if diff && c.R == 255 && c.B == 0 && (c.G == 0 || mark.A == 0) {
						mark = c
					}
					sum[0], sum[1], sum[2], sum[3] = sum[0]+int(c.R), sum[1]+int(c.G), sum[2]+int(c.B), sum[3]+int(c.A)
					n++
				}
			}
			if mark.A != 0 {
				out.SetRGBA(x, y, mark)
				continue
			}
			out.SetRGBA(x, y, color.RGBA{uint8(sum[0] / n), uint8(sum[1] / n), uint8(sum[2] / n), uint8(sum[3] / n)}) //nolint:gosec // the mean of bytes is a byte
		}
	}
	return out
}
