package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// isTerminal: only a console has a console mode.
func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
