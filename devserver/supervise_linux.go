package devserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

// A verb the server runs must not outlive the server, not even when the
// server is killed with SIGKILL (clients kill a server a few seconds after
// closing it, and a --shutdown that hangs would live on for minutes, with
// whatever it started). A parent-death signal reaches only the process the
// server started, not what that process started, so on Linux each verb runs
// under a supervisor that leads the verb's process group: the kernel sends
// it SIGTERM when the server dies, and it kills its whole group. A verb
// that finishes ends the supervisor the same moment, with the verb's exit
// status; whatever the verb left running on purpose (a dev server that
// --start put in the background) is untouched then.
//
// The supervisor is a three-line /bin/sh script (a shell starts in about a
// millisecond); where there is no /bin/sh, this same program started with
// SupervisorArg ([Supervise]), which pays the program's start-up.

// SupervisorArg is the first argument that makes the program the
// supervisor of one verb: see [Supervise].
const SupervisorArg = "__e2e-mcp-verb"

// supervisorExe is the program that supervises verbs when there is no
// shell, "" for none: then verbs run directly.
var supervisorExe string

// UseSupervisor has every verb run under a supervisor: /bin/sh, else exe
// (this program, whose main hands SupervisorArg to Supervise).
func UseSupervisor(exe string) { supervisorExe = exe }

// supervisorScript is the shell supervisor: the verb runs as a job of the
// shell's process group, and a signal to the shell kills the group.
const supervisorScript = `trap 'kill -KILL 0' TERM HUP INT
"$@" &
wait $!`

// shell is the shell the supervisor script runs in, if there is one.
var shell = func() string {
	if fi, err := os.Stat("/bin/sh"); err == nil && !fi.IsDir() {
		return "/bin/sh"
	}
	return ""
}()

// supervised returns the command that runs path with args under the
// supervisor, or nil when verbs run directly.
func supervised(path string, args []string) *exec.Cmd {
	if supervisorExe == "" {
		return nil
	}
	var cmd *exec.Cmd
	if shell != "" {
		cmd = exec.Command(shell, append([]string{"-c", supervisorScript, "e2e-mcp-verb", path}, args...)...)
	} else {
		cmd = exec.Command(supervisorExe, append([]string{SupervisorArg, strconv.Itoa(os.Getpid()), path}, args...)...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	return cmd
}

// Supervise is the supervisor's whole program: args are the server's pid,
// then the verb's command line. It returns the exit status to exit with.
func Supervise(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: "+SupervisorArg+" PARENT-PID COMMAND [ARGS...]")
		return 2
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if parent, _ := strconv.Atoi(args[0]); os.Getppid() != parent {
		return 137 // the server died before the death signal was set
	}
	cmd := exec.Command(args[1], args[2:]...) //nolint:gosec // the verb the server was told to run
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, os.ErrPermission) {
			return 126
		}
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitStatus(err)
	case <-sig:
		// The server is gone (or asked us to stop): the verb and all it
		// started go with us.
		_ = syscall.Kill(-os.Getpid(), syscall.SIGKILL)
		return 137
	}
}

// exitStatus is the status a shell would report for a finished command.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if err != nil {
			return 1
		}
		return 0
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
