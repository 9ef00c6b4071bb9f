package e2e

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitsHint is part of the line e2e-mcp writes on stderr when a person
// starts the stdio server at a terminal.
const waitsHint = "waits for a client"

// openPTY opens a pseudo-terminal and returns its two ends: what the
// terminal's user types goes into master, and the program reads it from
// tty. Both are closed when the test ends.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { _ = master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pseudo-terminal's number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { _ = tty.Close() })
	return master, tty
}

// startOn starts the binary with stdin the given file and its stdout and
// stderr captured; the channel gets its exit. It is killed when the test
// ends.
func startOn(t *testing.T, stdin *os.File, args ...string) (stdout, stderr *lockedBuffer, done chan error) {
	t.Helper()
	env, _ := serverEnv(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return stdout, stderr, done
}

// TestStdioSaysItWaitsAtATerminal: started by hand at a terminal, the
// stdio server looks hung; it says once on stderr that it speaks MCP over
// stdin and stdout and waits for a client. Stdout stays the protocol's: an
// initialize typed at the terminal gets its answer and nothing else there,
// and Ctrl-D ends the server cleanly. Started by a client (stdin a pipe),
// on /dev/null (a character device, not a terminal), or serving HTTP, it
// says nothing of the kind.
func TestStdioSaysItWaitsAtATerminal(t *testing.T) {
	t.Run("terminal", func(t *testing.T) {
		master, tty := openPTY(t)
		stdout, stderr, done := startOn(t, tty)
		waitFor(t, 30*time.Second, "the hint on stderr", func() bool { return strings.Contains(stderr.String(), waitsHint) })

		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"a person","version":"1"}}}`
		if _, err := master.WriteString(init + "\n"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 30*time.Second, "the answer to initialize on stdout", func() bool { return strings.Contains(stdout.String(), `"id":1`) })
		if _, err := master.WriteString("\x04"); err != nil { // Ctrl-D: end of input
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("after Ctrl-D: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Ctrl-D did not end the server")
		}
		out := strings.TrimSpace(stdout.String())
		if strings.Count(out, "\n") != 0 || !strings.HasPrefix(out, `{"jsonrpc":"2.0","id":1,"result":`) {
			t.Errorf("stdout holds more than the answer to initialize:\n%s", out)
		}
		if n := strings.Count(stderr.String(), waitsHint); n != 1 {
			t.Errorf("the hint is on stderr %d times, want once", n)
		}
	})

	t.Run("a client's pipe", func(t *testing.T) {
		env, _ := serverEnv(t)
		s := startRaw(t, env)
		s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"client","version":"1"}}}`)
		s.await(t, 1)
		_ = s.stdin.Close()
		s.waitExit(t, 30*time.Second)
		if strings.Contains(s.stderr.String(), waitsHint) {
			t.Errorf("the hint with stdin a pipe:\n%s", s.stderr.String())
		}
	})

	t.Run("/dev/null", func(t *testing.T) {
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		stdout, stderr, done := startOn(t, null)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not end at the end of /dev/null")
		}
		if strings.Contains(stderr.String(), waitsHint) || stdout.String() != "" {
			t.Errorf("stdin /dev/null: stdout %q, stderr:\n%s", stdout.String(), stderr.String())
		}
	})

	t.Run("serving HTTP", func(t *testing.T) {
		_, tty := openPTY(t)
		_, stderr, _ := startOn(t, tty, "serve", "--http", "127.0.0.1:0")
		waitFor(t, 30*time.Second, "the server listening", func() bool { return listenRE.MatchString(stderr.String()) })
		if strings.Contains(stderr.String(), waitsHint) {
			t.Errorf("the hint with --http:\n%s", stderr.String())
		}
	})
}
