package recording

import "testing"

func TestFrameWidth(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x05\x00\x00\x00\x02\xd0\x08\x02\x00\x00\x00")
	if w := frameWidth(png); w != 1280 {
		t.Errorf("PNG width %d", w)
	}
	// SOI, APP0 (length 16), SOF0: length 17, precision 8, height 720, width 1280.
	jpg := append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10}, make([]byte, 14)...)
	jpg = append(jpg, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x02, 0xD0, 0x05, 0x00, 0x03)
	if w := frameWidth(jpg); w != 1280 {
		t.Errorf("JPEG width %d", w)
	}
}
