package launcher

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// processAlive reports whether a process with this PID exists.
func processAlive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// killProfileProcesses kills every process whose command line names dir as
// its --user-data-dir: Chrome passes the flag to all its children, so this
// finds the zygote and renderers too. It looks again until a pass finds
// nothing, because a dying parent can still fork, bounded to two seconds.
func killProfileProcesses(dir string) {
	needle := []byte("--user-data-dir=" + dir)
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if len(profilePIDs(needle)) == 0 {
			return
		}
		for _, pid := range profilePIDs(needle) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond) // let the kills land before the next look
	}
}

// ProfileProcesses lists the PIDs of processes that use dir as their
// --user-data-dir (tests use it to count what a browser left behind).
func ProfileProcesses(dir string) []int {
	return profilePIDs([]byte("--user-data-dir=" + dir))
}

func profilePIDs(needle []byte) []int {
	entries, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []int
	for _, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil || !bytes.Contains(b, needle) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(e)))
		if err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}
