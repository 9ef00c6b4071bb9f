package devserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// maxOutput bounds what is kept of a command's stdout and stderr: their
// ends (readBack).
const maxOutput = 64 << 10

// Command is a user's dev-server command under the contract: it is run
// without a shell as Path Args... --verb, in Dir, and prints one JSON object.
type Command struct {
	Path     string
	Args     []string
	Dir      string
	Env      []string // added to this process's environment
	Timeouts Timeouts
}

// requiredFields are the fields each verb's answer must have, and the
// statuses it may report.
var (
	requiredFields = map[Verb][]string{
		Start:    {"status", "url", "port", "pid"},
		Restart:  {"status", "url", "port", "pid"},
		Status:   {"status"},
		Shutdown: {"status"},
	}
	validStatus = map[Verb][]string{
		Start:    {"ready", "already_running"},
		Restart:  {"restarted", "started"},
		Status:   {"running", "stopped", "unhealthy"},
		Shutdown: {"stopped", "already_stopped", "force_stopped"},
	}
)

// Do runs one verb and returns its answer. The command's output goes to
// files, not pipes, so a command that leaves a background server holding its
// stdout and stderr (as `npm run dev &` does) is answered as soon as the
// command itself exits. A command that outlives its timeout is killed with
// its whole process group.
func (c *Command) Do(ctx context.Context, verb Verb) (*Result, error) {
	timeout := c.Timeouts.For(verb)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	outF, err := os.CreateTemp("", "e2e-mcp-cmd-*.out")
	if err != nil {
		return nil, fmt.Errorf("devserver: %w", err)
	}
	errF, err := os.CreateTemp("", "e2e-mcp-cmd-*.err")
	if err != nil {
		_ = outF.Close()
		_ = os.Remove(outF.Name())
		return nil, fmt.Errorf("devserver: %w", err)
	}
	// The files are unlinked at once: a background server that still holds
	// them writes into space that is freed when it exits.
	defer func() {
		_ = outF.Close()
		_ = errF.Close()
	}()
	_ = os.Remove(outF.Name())
	_ = os.Remove(errF.Name())

	args := append(append([]string{}, c.Args...), "--"+string(verb))
	cmd := supervised(c.Path, args)
	if cmd != nil {
		// The supervisor reports a verb that cannot start as an exit
		// status; look first, so that it is typed as before.
		if err := runnable(c.Path, c.Dir); err != nil {
			return nil, c.startError(verb, err)
		}
	} else {
		cmd = exec.Command(c.Path, args...)
		setProcessGroup(cmd)
	}
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = outF, errF
	if err := cmd.Start(); err != nil {
		return nil, c.startError(verb, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		killProcessGroup(cmd)
		if werr := <-done; werr != nil && !isKilled(werr) {
			return nil, fmt.Errorf("devserver: --%s: %w", verb, werr)
		}
		stdout, stderr := readBack(outF), readBack(errF)
		e := &Error{Kind: KindTimeout, Verb: verb, Stdout: stdout, Stderr: text.LastLines(stderr, 40),
			Message: fmt.Sprintf("%s --%s did not answer within %s; it was killed with its process group", redact.CommandLine(c.Path), verb, timeout)}
		if ctx.Err() != context.DeadlineExceeded {
			e.Message = fmt.Sprintf("%s --%s was cancelled", redact.CommandLine(c.Path), verb)
		}
		return nil, e
	}
	stdout, stderr := readBack(outF), readBack(errF)
	res, perr := parseAnswer(verb, stdout)
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		e := &Error{Kind: KindNonZeroExit, Verb: verb, ExitCode: exitErr.ExitCode(), Stderr: text.LastLines(stderr, 40),
			Message: fmt.Sprintf("%s --%s exited with status %d", redact.CommandLine(c.Path), verb, exitErr.ExitCode())}
		if res != nil {
			e.Reported = strings.TrimSpace(strings.Trim(res.Error+": "+res.Message, ": "))
			e.Logs = res.Logs
		} else {
			e.Stdout = stdout
		}
		return nil, e
	}
	if waitErr != nil {
		return nil, fmt.Errorf("devserver: --%s: %w", verb, waitErr)
	}
	if perr != nil {
		perr.Stderr = text.LastLines(stderr, 40)
		return nil, perr
	}
	return res, nil
}

// runnable checks that path names an executable file (found on PATH when
// it has no separator), as starting it would.
func runnable(path, dir string) error {
	if !strings.ContainsRune(path, filepath.Separator) {
		_, err := exec.LookPath(path)
		return err
	}
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// isKilled reports whether a wait error is the kill we sent.
func isKilled(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// startError types a command that could not be started.
func (c *Command) startError(verb Verb, err error) error {
	// The path may be a whole command line given as one word, credentials
	// and all (--server-command "DATABASE_URL=postgres://u:p@h/db ./dev").
	path := redact.CommandLine(c.Path)
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return &Error{Kind: KindCommandNotFound, Verb: verb, Message: fmt.Sprintf("%s: no such command", path)}
	case errors.Is(err, fs.ErrPermission):
		return &Error{Kind: KindPermissionDenied, Verb: verb, Message: fmt.Sprintf("%s is not executable (chmod +x it)", path)}
	}
	return &Error{Kind: KindCommandNotFound, Verb: verb, Message: fmt.Sprintf("%s: %v", path, redact.Err(err))}
}

// readBack reads the end of a command's output: its last maxOutput bytes,
// from the first line that starts within them. The answer is the last JSON
// object and the log's last lines tell what went wrong, so the end is what
// matters; a command that logs megabytes before answering is still read.
func readBack(f *os.File) string {
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return ""
	}
	from := max(0, end-maxOutput)
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, maxOutput))
	if from > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:] // a line cut in the middle is not a line of its own
		}
	}
	return string(b)
}

// parseAnswer finds the one JSON object in a command's stdout (log lines
// may come before it: the last object that parses wins) and checks the
// fields its verb requires.
func parseAnswer(verb Verb, stdout string) (*Result, *Error) {
	raw := lastObject(stdout)
	if raw == nil {
		return nil, &Error{Kind: KindInvalidJSON, Verb: verb, Stdout: stdout,
			Message: "the command printed no JSON object on stdout; the contract wants one, such as {\"status\":\"ready\",\"url\":...}"}
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields)
	var res Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &Error{Kind: KindInvalidJSON, Verb: verb, Stdout: stdout, Message: "a field has the wrong type: " + err.Error()}
	}
	res.Raw = raw
	if res.Status == "error" {
		// A failure answer with exit status 0: the caller sees it as such.
		return &res, &Error{Kind: KindNonZeroExit, Verb: verb, Reported: strings.Trim(res.Error+": "+res.Message, ": "), Logs: res.Logs,
			Message: "the command answered status \"error\" (and exited 0)"}
	}
	for _, f := range requiredFields[verb] {
		if v, ok := fields[f]; !ok || string(v) == "null" || string(v) == `""` || string(v) == "0" {
			return &res, &Error{Kind: KindMissingField, Verb: verb, Field: f, Stdout: stdout,
				Message: fmt.Sprintf("the answer to --%s has no %q field", verb, f)}
		}
	}
	ok := false
	for _, s := range validStatus[verb] {
		ok = ok || res.Status == s
	}
	if !ok {
		return &res, &Error{Kind: KindInvalidJSON, Verb: verb, Field: "status", Stdout: stdout,
			Message: fmt.Sprintf("status %q is not one of %s for --%s", res.Status, strings.Join(validStatus[verb], ", "), verb)}
	}
	for name, p := range map[string]string{"logs.stdout": res.Logs.Stdout, "logs.stderr": res.Logs.Stderr, "logs.combined": res.Logs.Combined} {
		if p != "" && !filepath.IsAbs(p) {
			return &res, &Error{Kind: KindInvalidJSON, Verb: verb, Field: name, Stdout: stdout,
				Message: fmt.Sprintf("%s %q is not an absolute path", name, p)}
		}
	}
	return &res, nil
}

// lastObject returns the last JSON object in s that starts at a line start.
func lastObject(s string) json.RawMessage {
	var found json.RawMessage
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			break
		}
		at := i + j
		if at == 0 || s[at-1] == '\n' || strings.TrimSpace(s[strings.LastIndexByte(s[:at], '\n')+1:at]) == "" {
			dec := json.NewDecoder(strings.NewReader(s[at:]))
			var v json.RawMessage
			if dec.Decode(&v) == nil && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
				found = v
				i = at + int(dec.InputOffset())
				continue
			}
		}
		i = at + 1
	}
	return found
}
