package video

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"os"
	"time"
)

// An animated PNG (APNG) is a PNG whose default image is the first frame,
// with an acTL chunk saying how many frames there are, and an fcTL chunk
// before each frame saying where it goes, how long it shows and how it is
// combined with what was there. A frame after the first is fdAT chunks: the
// data of a PNG image (filtered scanlines, zlib), numbered. Every current
// browser plays it in <img>, and so do GitHub's README and pull request views.
//
// The encoder keeps each frame as the smallest rectangle that changed since
// the frame before, its unchanged pixels transparent and drawn over what
// is there (dispose op none, blend op over): a page where only a spinner
// turns costs the spinner's box a frame, and an action's caption in a corner
// with its target's box in the middle costs the two, not the screen between
// them (the transparent runs compress to almost nothing). So every frame is
// 8-bit RGBA; pngRows filters and compresses the scanlines. Frames are
// written to a temp file as they come (a session may run for an hour); acTL,
// which must come before them and holds their count, is written when the
// file is read out.
//
// Browsers play a frame of 10 ms or less for 100 ms (as they do GIFs), so a
// frame that comes less than minDelay after the one before replaces it.

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// maxDelay is the longest an fcTL delay can say in milliseconds (16 bits);
// minDelay the shortest a frame may last and play as it says.
const (
	maxDelay = 65535 * time.Millisecond
	minDelay = 20 * time.Millisecond
)

// apngWriter writes the frames of one animation, of one size.
type apngWriter struct {
	w, h   int
	body   *os.File      // the chunks after acTL, as written
	size   int64         // bytes in body
	seq    uint32        // the next chunk sequence number (fcTL and fdAT share it)
	count  int           // frames written
	played time.Duration // the delays written, added up
	prev   *image.RGBA   // the picture as the frames written leave it
	// pending is the last frame added: its delay is known only when the
	// next one comes, and its fcTL goes before its data.
	pending *image.RGBA
	at      time.Duration // when pending shows
	rows    pngRows
}

// newAPNGWriter makes a writer of w x h frames whose body goes to a temp
// file in dir ("": the system's). The file is unlinked at once where the
// system allows (Linux, macOS), so that nothing is left behind however the
// process ends; close removes it elsewhere.
func newAPNGWriter(w, h int, dir string) (*apngWriter, error) {
	if w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 {
		return nil, fmt.Errorf("video size %dx%d: each side must be 1 to 16384", w, h)
	}
	f, err := os.CreateTemp(dir, "e2e-mcp-video-*.part")
	if err != nil {
		return nil, fmt.Errorf("video temp file: %w", err)
	}
	_ = os.Remove(f.Name()) // fails on Windows while open: close removes it there
	return &apngWriter{w: w, h: h, body: f}, nil
}

// add adds a frame shown from at (since the video's start) until the next
// frame's at. img must be w x h and opaque, and the writer keeps it: the
// caller must not change it after. It reports whether the picture changed
// (a picture that changes nothing adds no frame).
func (a *apngWriter) add(img *image.RGBA, at time.Duration) (bool, error) {
	if img.Rect.Dx() != a.w || img.Rect.Dy() != a.h {
		return false, fmt.Errorf("frame is %dx%d, the video %dx%d", img.Rect.Dx(), img.Rect.Dy(), a.w, a.h)
	}
	last := a.pending
	if last == nil {
		last = a.prev
	}
	if last != nil && changed(last, img).Empty() {
		return false, nil
	}
	if a.pending != nil && at-a.at < minDelay && a.count > 0 {
		// Too soon to play as a frame of its own: it replaces the one
		// before, which never showed for long.
		a.pending = img
		return true, nil
	}
	if err := a.flush(at); err != nil {
		return false, err
	}
	a.pending, a.at = img, at
	return true, nil
}

// flush writes the pending frame, now that it is known to last until at.
func (a *apngWriter) flush(at time.Duration) error {
	img := a.pending
	if img == nil {
		return nil
	}
	a.pending = nil
	first := a.prev == nil
	r := img.Rect
	if !first {
		r = changed(a.prev, img)
		if r.Empty() {
			return nil // it came back to what was shown
		}
	}
	data, err := a.rows.encode(img, a.prev, r)
	if err != nil {
		return err
	}
	delay := min(max(at-a.at, minDelay), maxDelay).Truncate(time.Millisecond)
	a.played += delay
	blend := byte(1) // over: unchanged pixels are transparent
	if first {
		blend = 0
	}
	if err := a.chunk("fcTL", fcTL(a.nextSeq(), r.Sub(img.Rect.Min), delay, blend)); err != nil {
		return err
	}
	a.count++
	const part = 1 << 16
	for off := 0; off < len(data); off += part {
		end := min(off+part, len(data))
		if first {
			if err := a.chunk("IDAT", data[off:end]); err != nil {
				return err
			}
			continue
		}
		b := make([]byte, 4, 4+end-off)
		binary.BigEndian.PutUint32(b, a.nextSeq())
		if err := a.chunk("fdAT", append(b, data[off:end]...)); err != nil {
			return err
		}
	}
	if first {
		a.prev = image.NewRGBA(img.Rect)
	}
	copyRect(a.prev, img, r)
	return nil
}

func (a *apngWriter) nextSeq() uint32 {
	s := a.seq
	a.seq++
	return s
}

// chunk appends a chunk to the body.
func (a *apngWriter) chunk(typ string, data []byte) error {
	n, err := a.body.Write(chunkBytes(typ, data))
	a.size += int64(n)
	return err
}

// chunkBytes is a PNG chunk: length, type, data, CRC of type and data.
func chunkBytes(typ string, data []byte) []byte {
	b := make([]byte, 8, 12+len(data))
	binary.BigEndian.PutUint32(b, uint32(len(data))) //nolint:gosec // a chunk we write holds at most 64 KB (flush splits the data)
	copy(b[4:], typ)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

// fcTL is a frame control chunk's data: the frame's place, its delay, and
// ops that leave what it covers as it drew it (dispose none) and draw it
// as it is (blend 0, source) or over what is there (1, over).
func fcTL(seq uint32, r image.Rectangle, delay time.Duration, blend byte) []byte {
	b := make([]byte, 0, 26)
	b = binary.BigEndian.AppendUint32(b, seq)
	// The rectangle is inside the video (each side at most 16384, as
	// newAPNGWriter checks) and the delay at most maxDelay (65535 ms).
	for _, v := range []int{r.Dx(), r.Dy(), r.Min.X, r.Min.Y} {
		b = binary.BigEndian.AppendUint32(b, uint32(v)) //nolint:gosec // see above
	}
	b = binary.BigEndian.AppendUint16(b, uint16(delay/time.Millisecond)) //nolint:gosec // see above
	b = binary.BigEndian.AppendUint16(b, 1000)
	return append(b, 0, blend) // dispose none
}

// finish writes the last frame, lasting last, and returns the whole file:
// its header, acTL with the frame count, the frames, IEND. The reader reads
// the temp file, which close removes.
func (a *apngWriter) finish(last time.Duration) (io.Reader, int64, error) {
	if a.pending == nil && a.count == 0 {
		return nil, 0, ErrNoFrames
	}
	if a.pending != nil {
		if err := a.flush(a.at + max(last, minDelay)); err != nil {
			return nil, 0, err
		}
	}
	var head bytes.Buffer
	head.Write(pngSignature)
	// Each side is at most 16384 (newAPNGWriter), and a frame takes
	// more than a byte of the file, so the count fits too.
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(a.w)) //nolint:gosec // see above
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(a.h)) //nolint:gosec // see above
	ihdr = append(ihdr, 8, 6, 0, 0, 0)                      // 8-bit RGBA, deflate, adaptive filters, no interlace
	head.Write(chunkBytes("IHDR", ihdr))
	actl := binary.BigEndian.AppendUint32(nil, uint32(a.count)) //nolint:gosec // see above
	actl = binary.BigEndian.AppendUint32(actl, 0)               // loop
	head.Write(chunkBytes("acTL", actl))
	tail := chunkBytes("IEND", nil)
	if _, err := a.body.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	size := int64(head.Len()) + a.size + int64(len(tail))
	return io.MultiReader(&head, io.LimitReader(a.body, a.size), bytes.NewReader(tail)), size, nil
}

// close removes the temp file.
func (a *apngWriter) close() {
	name := a.body.Name()
	_ = a.body.Close()
	_ = os.Remove(name)
}

// changed is the smallest rectangle that holds every pixel where a and b
// differ (empty when none does). Both are the video's size.
func changed(a, b *image.RGBA) image.Rectangle {
	w, h, stride := a.Rect.Dx(), a.Rect.Dy(), a.Stride
	row := func(y int) []byte { return a.Pix[y*stride : y*stride+w*4] }
	rowB := func(y int) []byte { return b.Pix[y*b.Stride : y*b.Stride+w*4] }
	top := 0
	for top < h && bytes.Equal(row(top), rowB(top)) {
		top++
	}
	if top == h {
		return image.Rectangle{}
	}
	bottom := h
	for bottom > top && bytes.Equal(row(bottom-1), rowB(bottom-1)) {
		bottom--
	}
	left, right := w, 0
	for y := top; y < bottom; y++ {
		ra, rb := row(y), rowB(y)
		if bytes.Equal(ra, rb) {
			continue
		}
		for x := 0; x < left; x++ {
			if !bytes.Equal(ra[x*4:x*4+4], rb[x*4:x*4+4]) {
				left = x
				break
			}
		}
		for x := w - 1; x >= right; x-- {
			if !bytes.Equal(ra[x*4:x*4+4], rb[x*4:x*4+4]) {
				right = x + 1
				break
			}
		}
	}
	return image.Rect(left, top, right, bottom).Add(a.Rect.Min)
}

// copyRect copies src's pixels in r into dst.
func copyRect(dst, src *image.RGBA, r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		copy(dst.Pix[dst.PixOffset(r.Min.X, y):dst.PixOffset(r.Max.X, y)], src.Pix[src.PixOffset(r.Min.X, y):src.PixOffset(r.Max.X, y)])
	}
}

// pngChunk is one chunk of a PNG stream.
type pngChunk struct {
	typ  string
	data []byte
}

// readChunks splits a PNG stream into its chunks, checking each CRC.
func readChunks(b []byte) ([]pngChunk, error) {
	if !bytes.HasPrefix(b, pngSignature) {
		return nil, errors.New("not a PNG")
	}
	b = b[len(pngSignature):]
	var out []pngChunk
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, errors.New("a PNG chunk is cut short")
		}
		n := binary.BigEndian.Uint32(b)
		if int64(n) > int64(len(b))-12 {
			return nil, errors.New("a PNG chunk is longer than the file")
		}
		body := b[4 : 8+n]
		if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(b[8+n:]) {
			return nil, fmt.Errorf("the PNG chunk %q has a bad CRC", body[:4])
		}
		out = append(out, pngChunk{typ: string(body[:4]), data: body[4:]})
		b = b[12+n:]
	}
	return out, nil
}
