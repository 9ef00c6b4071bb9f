//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package devserver

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// canRelay: descriptors can be handed to a relay process (ExtraFiles).
const canRelay = true

// sysProcAttr puts the server in a process group of its own, so that one
// signal reaches its children. Detached, it gets a session of its own too
// (setsid), away from the terminal and the short-lived command that started
// it; otherwise it is killed when this process dies (Linux).
func sysProcAttr(detach bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{}
	if detach {
		a.Setsid = true
	} else {
		a.Setpgid = true
		setDeathSignal(a)
	}
	return a
}

// processGroup is the group of a process started with [sysProcAttr]: its
// own PID.
func processGroup(pid int) int { return pid }

// pidAlive reports whether some process has this PID (perhaps a zombie).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// groupAlive reports whether the process group has members.
func groupAlive(pgid int) bool {
	if pgid <= 1 {
		return false
	}
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func signalOf(force bool) syscall.Signal {
	if force {
		return syscall.SIGKILL
	}
	return syscall.SIGTERM
}

// signalGroup sends SIGTERM (or SIGKILL with force) to a process group.
func signalGroup(pgid int, force bool) error {
	if pgid <= 1 {
		return errors.New("no process group")
	}
	return syscall.Kill(-pgid, signalOf(force))
}

// signalPID sends SIGTERM (or SIGKILL with force) to a process.
func signalPID(pid int, force bool) error {
	if pid <= 1 {
		return errors.New("no process")
	}
	return syscall.Kill(pid, signalOf(force))
}

// lockFile takes an exclusive flock on path, waiting while ctx allows; the
// lock goes with the process if it dies.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
