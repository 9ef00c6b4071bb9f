package video

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"time"
)

// Animation is an animated PNG decoded: each frame as the whole picture it
// shows, and for how long. The tests (and `make bench`) read our videos
// with it; it reads what the encoder writes and the ops of the format it
// uses (dispose none; blend source or over), and refuses others.
type Animation struct {
	Width, Height int
	Frames        []DecodedFrame
	// Text are the file's tEXt chunks, by keyword.
	Text map[string]string
}

// DecodedFrame is one frame of an Animation.
type DecodedFrame struct {
	Rect  image.Rectangle // the part this frame draws
	Patch image.Image     // what it draws there
	Over  bool            // drawn over what is there (else replacing it)
	Delay time.Duration
}

// Image is the whole picture frame i shows: every frame up to it drawn in
// turn.
func (a *Animation) Image(i int) *image.RGBA {
	canvas := image.NewRGBA(image.Rect(0, 0, a.Width, a.Height))
	for _, f := range a.Frames[:i+1] {
		op := draw.Src
		if f.Over {
			op = draw.Over
		}
		draw.Draw(canvas, f.Rect, f.Patch, f.Patch.Bounds().Min, op)
	}
	return canvas
}

// Duration is how long the animation plays once.
func (a *Animation) Duration() time.Duration {
	var d time.Duration
	for _, f := range a.Frames {
		d += f.Delay
	}
	return d
}

// At is the index of the frame shown at t from the start (-1: after the
// end).
func (a *Animation) At(t time.Duration) int {
	for i := range a.Frames {
		if t < a.Frames[i].Delay {
			return i
		}
		t -= a.Frames[i].Delay
	}
	return -1
}

// DecodeAPNG decodes an animated PNG.
func DecodeAPNG(b []byte) (*Animation, error) {
	chunks, err := readChunks(b)
	if err != nil {
		return nil, err
	}
	if len(chunks) == 0 || chunks[0].typ != "IHDR" || len(chunks[0].data) != 13 {
		return nil, errors.New("no IHDR first")
	}
	ihdr := chunks[0].data
	a := &Animation{Width: int(binary.BigEndian.Uint32(ihdr)), Height: int(binary.BigEndian.Uint32(ihdr[4:])), Text: map[string]string{}}
	var ctl []byte  // the fcTL of the frame being read
	var data []byte // its data so far
	var seq uint32  // the next sequence number
	frames := -1    // acTL's count
	finish := func() error {
		if ctl == nil {
			return nil
		}
		f, err := decodeFrame(ihdr, ctl, data)
		if err != nil {
			return fmt.Errorf("frame %d: %w", len(a.Frames), err)
		}
		if !f.Rect.In(image.Rect(0, 0, a.Width, a.Height)) {
			return fmt.Errorf("frame %d is outside the image", len(a.Frames))
		}
		a.Frames = append(a.Frames, DecodedFrame{Patch: f.img, Rect: f.Rect, Over: f.over, Delay: f.delay})
		ctl, data = nil, nil
		return nil
	}
	for _, c := range chunks[1:] {
		switch c.typ {
		case "acTL":
			if len(c.data) != 8 {
				return nil, errors.New("bad acTL")
			}
			frames = int(binary.BigEndian.Uint32(c.data))
		case "fcTL":
			if err := finish(); err != nil {
				return nil, err
			}
			if len(c.data) != 26 || binary.BigEndian.Uint32(c.data) != seq {
				return nil, fmt.Errorf("fcTL out of sequence (want %d)", seq)
			}
			seq++
			ctl = c.data
		case "IDAT":
			if len(a.Frames) > 0 || ctl == nil {
				return nil, errors.New("IDAT outside the first frame (a default image not in the animation is not what we write)")
			}
			data = append(data, c.data...)
		case "fdAT":
			if ctl == nil || len(c.data) < 4 || binary.BigEndian.Uint32(c.data) != seq {
				return nil, fmt.Errorf("fdAT out of sequence (want %d)", seq)
			}
			seq++
			data = append(data, c.data[4:]...)
		case "tEXt":
			if k, v, ok := bytes.Cut(c.data, []byte{0}); ok {
				a.Text[string(k)] = string(v)
			}
		case "IEND":
			if err := finish(); err != nil {
				return nil, err
			}
		}
	}
	if frames < 0 {
		return nil, errors.New("no acTL: not animated")
	}
	if frames != len(a.Frames) {
		return nil, fmt.Errorf("acTL says %d frames, the file has %d", frames, len(a.Frames))
	}
	return a, nil
}

type rawFrame struct {
	img   image.Image
	Rect  image.Rectangle
	over  bool
	delay time.Duration
}

// decodeFrame decodes one frame's data through image/png, as a PNG of the
// frame's size with the file's IHDR.
func decodeFrame(ihdr, ctl, data []byte) (rawFrame, error) {
	w, h := binary.BigEndian.Uint32(ctl[4:]), binary.BigEndian.Uint32(ctl[8:])
	x, y := binary.BigEndian.Uint32(ctl[12:]), binary.BigEndian.Uint32(ctl[16:])
	num, den := binary.BigEndian.Uint16(ctl[20:]), binary.BigEndian.Uint16(ctl[22:])
	if ctl[24] != 0 || ctl[25] > 1 {
		return rawFrame{}, fmt.Errorf("dispose op %d, blend op %d: only dispose none is read", ctl[24], ctl[25])
	}
	if den == 0 {
		den = 100
	}
	hdr := append([]byte(nil), ihdr...)
	binary.BigEndian.PutUint32(hdr, w)
	binary.BigEndian.PutUint32(hdr[4:], h)
	var b bytes.Buffer
	b.Write(pngSignature)
	b.Write(chunkBytes("IHDR", hdr))
	b.Write(chunkBytes("IDAT", data))
	b.Write(chunkBytes("IEND", nil))
	img, err := png.Decode(&b)
	if err != nil {
		return rawFrame{}, err
	}
	r := image.Rect(int(x), int(y), int(x+w), int(y+h))
	return rawFrame{img: img, Rect: r, over: ctl[25] == 1, delay: time.Duration(num) * time.Second / time.Duration(den)}, nil
}
