package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal asks the terminal driver for f's settings, which only a
// terminal has (a pipe or /dev/null, a character device too, has none).
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
