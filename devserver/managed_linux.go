package devserver

import "syscall"

// setDeathSignal has the kernel kill the server when the thread that started
// it goes away, that is with this process (Go does not end idle threads).
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
