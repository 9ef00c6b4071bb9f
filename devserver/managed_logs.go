package devserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// spawn starts cmd with its output going to the log files: through pipes
// copied by goroutines, or with Detach by a relay process that outlives us.
func (m *Managed) spawn(cmd *exec.Cmd, files [3]*os.File) error {
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			_ = f.Close()
		}
	}
	if m.spec.Detach && !canRelay {
		// No way to hand pipes to a relay: the server writes the files itself.
		cmd.Stdout, cmd.Stderr = files[0], files[1]
		_, _ = io.WriteString(files[2], "(combined output is not recorded for detached servers on this platform; see the stdout and stderr logs)\n")
		err := cmd.Start()
		closeAll(files[:]...)
		if err == nil {
			m.reap(cmd)
		}
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(files[:]...)
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(append(files[:], outR, outW)...)
		return err
	}
	if m.spec.Detach {
		if err := startRelay([]*os.File{outR, errR, files[0], files[1], files[2]}); err != nil {
			closeAll(append(files[:], outR, outW, errR, errW)...)
			return fmt.Errorf("log relay: %w", err)
		}
		closeAll(append(files[:], outR, errR)...)
	} else {
		go copyOutput(outR, errR, files[0], files[1], files[2])
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	closeAll(outW, errW) // the child has its copies; EOF comes when it and its children are gone
	if err == nil {
		m.reap(cmd)
	}
	return err
}

// reap waits for cmd in the background, so that it leaves no zombie.
func (m *Managed) reap(cmd *exec.Cmd) {
	k := &child{done: make(chan struct{})}
	m.mu.Lock()
	m.kids[cmd.Process.Pid] = k
	m.mu.Unlock()
	go func() {
		k.err = cmd.Wait()
		close(k.done)
		time.AfterFunc(time.Minute, func() {
			m.mu.Lock()
			if m.kids[cmd.Process.Pid] == k {
				delete(m.kids, cmd.Process.Pid)
			}
			m.mu.Unlock()
		})
	}()
}

// copyOutput copies a server's stdout and stderr to their log files and
// both to the combined log, until both pipes are closed.
func copyOutput(outR, errR, outF, errF, combF *os.File) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Each stream goes to the combined log in whole lines, so that a line
	// of one stream is never cut by the other's (Python's print writes the
	// text and its newline separately). A partial line is written after
	// 200 ms without more output, so prompts still show.
	const partialWait = 200 * time.Millisecond
	combine := func(b []byte) {
		mu.Lock()
		_, _ = combF.Write(b)
		mu.Unlock()
	}
	pump := func(r, f *os.File) {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		var pending []byte
		for {
			if len(pending) > 0 {
				_ = r.SetReadDeadline(time.Now().Add(partialWait))
			} else {
				_ = r.SetReadDeadline(time.Time{})
			}
			n, err := r.Read(buf)
			if n > 0 {
				_, _ = f.Write(buf[:n])
				pending = append(pending, buf[:n]...)
				if i := bytes.LastIndexByte(pending, '\n'); i >= 0 {
					combine(pending[:i+1])
					pending = append(pending[:0], pending[i+1:]...)
				}
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				combine(pending)
				pending = pending[:0]
				continue
			}
			if err != nil {
				if len(pending) > 0 {
					combine(pending)
				}
				return
			}
		}
	}
	wg.Add(2)
	go pump(outR, outF)
	go pump(errR, errF)
	wg.Wait()
	for _, f := range []*os.File{outR, errR, outF, errF, combF} {
		_ = f.Close()
	}
}

// relayEnv makes a process started from this binary a log relay (see init).
const relayEnv = "E2E_MCP_DEVSERVER_LOG_RELAY"

// A detached server's output must be copied to the log files after the
// short-lived process that started it has exited. That process re-runs its
// own executable with relayEnv set and the pipes and files as descriptors 3
// to 7; this hook turns it into the relay before main (or a test) runs.
func init() {
	if os.Getenv(relayEnv) == "1" {
		files := make([]*os.File, 5)
		for i := range files {
			files[i] = os.NewFile(uintptr(3+i), "relay-"+strconv.Itoa(i))
		}
		copyOutput(files[0], files[1], files[2], files[3], files[4])
		os.Exit(0)
	}
}

// startRelay starts the relay process with files as descriptors 3 and up.
func startRelay(files []*os.File) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), relayEnv+"=1")
	cmd.ExtraFiles = files
	cmd.SysProcAttr = sysProcAttr(true)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// openLogs keeps the previous run's logs as *.log.1 and opens new ones.
func openLogs(dir string) (Logs, [3]*os.File, error) {
	logs := Logs{Stdout: filepath.Join(dir, "stdout.log"), Stderr: filepath.Join(dir, "stderr.log"), Combined: filepath.Join(dir, "combined.log")}
	var files [3]*os.File
	for i, p := range []string{logs.Stdout, logs.Stderr, logs.Combined} {
		_ = os.Rename(p, p+".1")
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
		if err != nil {
			for _, g := range files[:i] {
				_ = g.Close()
			}
			return logs, files, err
		}
		files[i] = f
	}
	return logs, files, nil
}

// lineReader reads the lines added to a log file since the last call.
type lineReader struct {
	path    string
	off     int64
	pending []byte
}

// read returns the complete new lines ('\n' or '\r' ended) and the
// incomplete last one.
func (r *lineReader) read() (lines []string, partial string) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, string(r.pending)
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Seek(r.off, io.SeekStart); err != nil {
		return nil, string(r.pending)
	}
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	r.off += int64(len(b))
	buf := append(r.pending, b...)
	for {
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			break
		}
		if i > 0 {
			lines = append(lines, string(buf[:i]))
		}
		buf = buf[i+1:]
	}
	if len(buf) > 4<<10 { // a "line" this long is not an announcement
		buf = nil
	}
	r.pending = append([]byte(nil), buf...)
	return lines, string(r.pending)
}

// tailFile returns up to the last n lines of a file (at most max bytes),
// without terminal escapes.
func tailFile(path string, n, maxBytes int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-int64(maxBytes), 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	s := strings.TrimRight(stripANSI(string(b)), "\r\n")
	if off > 0 {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
