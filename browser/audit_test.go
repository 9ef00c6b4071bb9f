//go:build !unit

package browser

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

func init() {
	pages["/contrast"] = `<!doctype html><title>Contrast</title>
<p id="grey" style="color:#777;background:#fff">Grey on white</p>
<p id="black" style="color:#000;background:#fff">Black on white</p>
<p id="same" style="color:#fff;background:#fff">White on white</p>
<div style="background:#000"><p id="half" style="color:#fff;background:rgba(255,255,255,0.5)">Half white over black</p></div>
<div style="background:#1f6feb"><button id="inherit" style="background:transparent;color:#fff;border:0">On the parent's blue</button></div>
<p id="faded" style="color:rgba(0,0,0,0.5);background:#fff">Half black on white</p>
<p id="big" style="color:#777;font-size:24px">Large grey</p>
<p id="bold" style="color:#777;font-size:19px;font-weight:700">Bold grey</p>
<p id="small-bold" style="color:#777;font-size:18px;font-weight:700">Smaller bold grey</p>
<div style="background-image:linear-gradient(#fff,#eee)"><p id="gradient">Over a gradient</p></div>`
}

// TestTextContrast: the engine's contrast of an element's text with what
// is behind it, WCAG 2's formula, for known pairs: #777 on white is 4.48:1
// (fails 4.5:1 for normal text, passes 3:1 for large), black on white 21:1,
// the same color 1:1; translucent backgrounds and text are blended over
// what is under them; text over a gradient cannot be told.
func TestTextContrast(t *testing.T) {
	p := openPage(t, "/contrast")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	type contrast struct {
		Ratio   float64 `json:"ratio"`
		Need    float64 `json:"need"`
		Large   bool    `json:"large"`
		FG      string  `json:"fg"`
		BG      string  `json:"bg"`
		Unknown bool    `json:"unknown"`
	}
	for _, c := range []struct {
		id     string
		ratio  float64 // 0: unknown
		need   float64
		fg, bg string
	}{
		{"grey", 4.48, 4.5, "#777777", "#ffffff"},
		{"black", 21, 4.5, "#000000", "#ffffff"},
		{"same", 1, 4.5, "#ffffff", "#ffffff"},
		// 50% white over black is a grey of 127.5 (shown #808080): white
		// on it is 3.98:1.
		{"half", 3.98, 4.5, "#ffffff", "#808080"},
		{"inherit", 4.63, 4.5, "#ffffff", "#1f6feb"},
		// 50% black over white is the same grey.
		{"faded", 3.98, 4.5, "#808080", "#ffffff"},
		{"big", 4.48, 3, "#777777", "#ffffff"},
		{"bold", 4.48, 3, "#777777", "#ffffff"},
		{"small-bold", 4.48, 4.5, "#777777", "#ffffff"},
		{"gradient", 0, 0, "", ""},
	} {
		var got contrast
		if err := p.evalEngine(ctx, fmt.Sprintf("__e2e.textContrast(document.getElementById(%q))", c.id), &got); err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if c.ratio == 0 {
			if !got.Unknown {
				t.Errorf("%s: %+v, want unknown (a gradient is behind it)", c.id, got)
			}
			continue
		}
		if math.Abs(got.Ratio-c.ratio) > 0.005 || got.Need != c.need || got.FG != c.fg || got.BG != c.bg {
			t.Errorf("%s: %.3f:1 (needs %g, %s on %s), want %.2f:1 (needs %g, %s on %s)", c.id, got.Ratio, got.Need, got.FG, got.BG,
				c.ratio, c.need, c.fg, c.bg)
		}
	}
}
