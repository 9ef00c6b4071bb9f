//go:build !linux && !darwin && !windows

package main

import "os"

// isTerminal is false where we have no check: the hint is only a courtesy.
func isTerminal(*os.File) bool { return false }
