package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// proc is one process as /proc shows it.
type proc struct {
	pid, ppid int
	start     uint64 // start time in clock ticks since boot: tells a reused pid apart
	cpu       int64  // user + system time so far, in clock ticks
	comm, exe string
}

// readProcs lists every process on the machine.
func readProcs() map[int]proc {
	out := map[int]proc{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out[pid] = p
		}
	}
	return out
}

func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	open, closing := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return proc{}, false
	}
	f := strings.Fields(string(b[closing+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	return proc{pid: pid, ppid: ppid, start: start, cpu: utime + stime, comm: string(b[open+1 : closing]), exe: exe}, true
}

// alive says whether p still runs (and is not a zombie or a reused pid).
func (p proc) alive() bool {
	q, ok := readProc(p.pid)
	if !ok || q.start != p.start {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// isBrowser says whether p is a Chrome/Chromium process.
func (p proc) isBrowser() bool {
	name := strings.ToLower(filepath.Base(p.exe))
	if name == "" || name == "." {
		name = strings.ToLower(p.comm)
	}
	return strings.Contains(name, "chrom") || strings.Contains(name, "headless_shell")
}

// tree is the processes of one server: its own process, what it started,
// and processes it detached (agent-browser's daemon) with what they started.
func tree(all map[int]proc, roots []int) []proc {
	kids := map[int][]int{}
	for _, p := range all {
		kids[p.ppid] = append(kids[p.ppid], p.pid)
	}
	seen := map[int]bool{}
	var out []proc
	stack := append([]int(nil), roots...)
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p, ok := all[pid]
		if !ok || seen[pid] {
			continue
		}
		seen[pid] = true
		out = append(out, p)
		stack = append(stack, kids[pid]...)
	}
	return out
}

// withEnv finds processes whose environment holds kv (such as a socket
// directory only this run uses): how a detached daemon is found.
func withEnv(all map[int]proc, kv string) []int {
	var out []int
	want := []byte(kv)
	for pid := range all {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil {
			continue
		}
		for _, e := range bytes.Split(b, []byte{0}) {
			if bytes.Equal(e, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// memKB reads a process's proportional set size (shared pages divided among
// every process that maps them, on the whole machine) and its unique set size
// (private pages only) from smaps_rollup.
func memKB(pid int) (pss, uss int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	found := false
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch key {
		case "Pss":
			pss, found = n, true
		case "Private_Clean", "Private_Dirty":
			uss += n
		}
	}
	if !found {
		return 0, 0, fmt.Errorf("no Pss in /proc/%d/smaps_rollup", pid)
	}
	return pss, uss, nil
}

// memory is the PSS of a server's processes.
type memory struct {
	MainKB    int64 `json:"main_kb"`     // the process the client started
	ServerKB  int64 `json:"server_kb"`   // every process of the tree that is not the browser
	BrowserKB int64 `json:"browser_kb"`  // the browser's processes
	TreeKB    int64 `json:"tree_kb"`     // all of them
	TreeUSSKB int64 `json:"tree_uss_kb"` // private memory of all of them: does not depend on other programs sharing pages
	Procs     int   `json:"procs"`
	Browsers  int   `json:"browser_procs"`
	// ByKind is PSS by kind of process: the server's own, and the browser's
	// by its --type (browser, renderer, gpu-process, utility, zygote...).
	ByKind map[string]kindMem `json:"by_kind"`
}

type kindMem struct {
	N      int      `json:"n"`
	PSSKB  int64    `json:"pss_kb"`
	USSKB  int64    `json:"uss_kb"`
	Detail []string `json:"detail,omitempty"` // utility processes: their --utility-sub-type; renderers: each one's PSS
}

// kind names a process of a tree: "server", or the browser's --type.
func kind(p proc) (string, string) {
	if !p.isBrowser() {
		return "server " + p.comm, ""
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.pid))
	if err != nil {
		return "browser ?", ""
	}
	typ, sub := "browser", ""
	// Chrome's children rewrite their command line into one string.
	for _, a := range strings.Fields(strings.ReplaceAll(string(b), "\x00", " ")) {
		if v, ok := strings.CutPrefix(a, "--type="); ok {
			typ = v
		}
		if v, ok := strings.CutPrefix(a, "--utility-sub-type="); ok {
			sub = v
		}
	}
	return "chrome " + typ, sub
}

func measure(procs []proc, mainPID int) (memory, error) {
	var m memory
	for _, p := range procs {
		kb, uss, err := memKB(p.pid)
		if err != nil {
			if !p.alive() {
				continue
			}
			return m, err
		}
		m.Procs++
		m.TreeKB += kb
		m.TreeUSSKB += uss
		if m.ByKind == nil {
			m.ByKind = map[string]kindMem{}
		}
		k, sub := kind(p)
		km := m.ByKind[k]
		km.N++
		km.PSSKB += kb
		km.USSKB += uss
		if sub != "" {
			km.Detail = append(km.Detail, sub)
		} else if strings.HasSuffix(k, "renderer") {
			km.Detail = append(km.Detail, fmt.Sprintf("%d MB", (kb+512)/1024))
		}
		m.ByKind[k] = km
		switch {
		case p.pid == mainPID:
			m.MainKB, m.ServerKB = kb, m.ServerKB+kb
		case p.isBrowser():
			m.Browsers++
			m.BrowserKB += kb
		default:
			m.ServerKB += kb
		}
	}
	return m, nil
}

// reap waits up to d for procs to end, then kills what is left (each by its
// pid, after checking it is still the same process) and returns it.
func reap(procs []proc, d time.Duration) []proc {
	deadline := time.Now().Add(d)
	for {
		var left []proc
		for _, p := range procs {
			if p.alive() {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			for _, p := range left {
				if pr, err := os.FindProcess(p.pid); err == nil {
					_ = pr.Kill()
				}
			}
			time.Sleep(200 * time.Millisecond)
			return left
		}
		time.Sleep(100 * time.Millisecond)
	}
}
