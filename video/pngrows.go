package video

import (
	"bytes"
	"compress/zlib"
	"image"
)

// pngRows writes the image data of a PNG frame: 8-bit RGBA scanlines, each
// with the filter that makes it smallest by the usual measure (the least
// sum of absolute differences, as libpng and image/png choose), deflated.
// A pixel that did not change since the picture before is fully
// transparent, so that the frame, drawn over, leaves it as it was. Its
// buffers are reused from frame to frame.
type pngRows struct {
	cur, prior []byte
	try        [5][]byte // a row filtered each way, its filter type first
	out        bytes.Buffer
	z          *zlib.Writer
}

// encode is the zlib stream of img's pixels in r; where before (nil for the
// first frame) has the same pixel, a transparent one.
func (p *pngRows) encode(img, before *image.RGBA, r image.Rectangle) ([]byte, error) {
	n := r.Dx() * 4
	p.cur, p.prior = grow(p.cur, n), grow(p.prior, n)
	clear(p.prior)
	for i := range p.try {
		p.try[i] = grow(p.try[i], n+1)
	}
	p.out.Reset()
	if p.z == nil {
		var err error
		if p.z, err = zlib.NewWriterLevel(&p.out, zlib.BestSpeed); err != nil {
			return nil, err
		}
	} else {
		p.z.Reset(&p.out)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		copy(p.cur, img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)])
		if before != nil {
			was := before.Pix[before.PixOffset(r.Min.X, y):before.PixOffset(r.Max.X, y)]
			for i := 0; i < n; i += 4 {
				if p.cur[i] == was[i] && p.cur[i+1] == was[i+1] && p.cur[i+2] == was[i+2] && p.cur[i+3] == was[i+3] {
					p.cur[i], p.cur[i+1], p.cur[i+2], p.cur[i+3] = 0, 0, 0, 0
				}
			}
		}
		row := p.zeroRow(n)
		if row == nil {
			row = p.filter()
		}
		if _, err := p.z.Write(row); err != nil {
			return nil, err
		}
		p.cur, p.prior = p.prior, p.cur
	}
	if err := p.z.Close(); err != nil {
		return nil, err
	}
	return append([]byte(nil), p.out.Bytes()...), nil
}

// zeroRow is the current row unfiltered when every byte of it is zero (a
// row of a frame that changed nothing there: between an action's caption
// in a corner and its target's box), which no filter makes smaller; else
// nil.
func (p *pngRows) zeroRow(n int) []byte {
	for _, b := range p.cur {
		if b != 0 {
			return nil
		}
	}
	out := p.try[0]
	clear(out)
	return out[:n+1]
}

// filter is the current row filtered the best of the five ways, its
// filter type first. Each way is a loop of its own (a switch per byte
// costs as much as the filtering), and one that already sums more than the
// best so far stops.
func (p *pngRows) filter() []byte {
	cur, prior := p.cur, p.prior
	const bpp = 4
	n := len(cur)
	best, bestSum := 0, int(^uint(0)>>1)
	try := func(f int, fn func(d []byte, limit int) int) {
		out := p.try[f]
		out[0] = byte(f) //nolint:gosec // a filter type, 0 to 4
		if sum := fn(out[1:], bestSum); sum < bestSum {
			best, bestSum = f, sum
		}
	}
	try(0, func(d []byte, limit int) int {
		sum := 0
		for i := 0; i < n; i++ {
			d[i] = cur[i]
			sum += abs8(d[i])
		}
		return sum
	})
	try(2, func(d []byte, limit int) int { // up: the most common winner, so early
		sum := 0
		for i := 0; i < n && sum < limit; i++ {
			d[i] = cur[i] - prior[i]
			sum += abs8(d[i])
		}
		return sum
	})
	try(1, func(d []byte, limit int) int { // sub
		sum := 0
		for i := 0; i < bpp; i++ {
			d[i] = cur[i]
			sum += abs8(d[i])
		}
		for i := bpp; i < n && sum < limit; i++ {
			d[i] = cur[i] - cur[i-bpp]
			sum += abs8(d[i])
		}
		return sum
	})
	try(3, func(d []byte, limit int) int { // average
		sum := 0
		for i := 0; i < bpp; i++ {
			d[i] = cur[i] - prior[i]/2
			sum += abs8(d[i])
		}
		for i := bpp; i < n && sum < limit; i++ {
			d[i] = cur[i] - byte((int(cur[i-bpp])+int(prior[i]))/2) //nolint:gosec // the mean of two bytes
			sum += abs8(d[i])
		}
		return sum
	})
	try(4, func(d []byte, limit int) int { // paeth
		sum := 0
		for i := 0; i < bpp; i++ {
			d[i] = cur[i] - prior[i]
			sum += abs8(d[i])
		}
		for i := bpp; i < n && sum < limit; i++ {
			d[i] = cur[i] - paeth(cur[i-bpp], prior[i], prior[i-bpp])
			sum += abs8(d[i])
		}
		return sum
	})
	return p.try[best]
}

func abs8(v byte) int {
	if v < 128 {
		return int(v)
	}
	return 256 - int(v)
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := iabs(p-int(a)), iabs(p-int(b)), iabs(p-int(c))
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
