//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package devserver

import "syscall"

// setDeathSignal: there is no parent-death signal here; a server started
// in-process outlives a crash of this process until something stops it.
func setDeathSignal(*syscall.SysProcAttr) {}
