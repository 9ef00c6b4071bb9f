package devserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file finds where a dev server listens when it does not simply take
// the PORT it was given: from what it prints (URLs and "listening on port N"
// lines), from the TCP sockets its process tree holds in LISTEN state (Linux,
// through /proc), and then confirms the guess with an HTTP probe on a loopback
// address. Everything here is plain file reading, so it compiles everywhere;
// where /proc does not exist the socket step finds nothing.

// endpoint is a place a dev server may listen: a loopback (or unspecified)
// host and a port, with the scheme and base path its output announced.
type endpoint struct {
	Scheme string // "http" or "https"
	Host   string // as announced: "localhost", "127.0.0.1", "::1", "0.0.0.0", "" (any)
	Port   int
	Path   string // "" or the announced base path, e.g. "/app/"
}

var (
	ansiRE = regexp.MustCompile(`\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])`)
	// A URL; the host is a bracketed IPv6 address or a name or IPv4 address.
	urlRE = regexp.MustCompile(`(?i)\b(https?)://(\[[0-9a-f:.]+\]|[a-z0-9][a-z0-9.-]*)(?::(\d{1,5}))?(/[^\s"'<>` + "`" + `]*)?`)
	// "listening on localhost:3000", "listening on [::]:8080", "listening on :8080".
	hostPortRE = regexp.MustCompile(`(?i)\b(?:listening|running|started|serving|available|bound|ready)\b.*?(?:(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|::1?|\*)|(?:^|[\s(=]))[ \t]*:(\d{2,5})\b`)
	// "Server started on port 3000", "Serving HTTP on 0.0.0.0 port 8000".
	portRE = regexp.MustCompile(`(?i)\b(?:listening|running|started|serving|available|bound|ready)\b.*?\bport\b\s*[:=]?\s*(\d{2,5})\b`)
)

// stripANSI removes terminal colour and cursor escape sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiRE.ReplaceAllString(s, "")
}

// endpointsInLine returns the local endpoints a line of dev-server output
// announces, in the order they appear, without duplicate ports. URLs with a
// non-local host (a LAN address, a documentation link) are skipped: only
// loopback addresses are ever probed.
func endpointsInLine(line string) []endpoint {
	line = stripANSI(line)
	var eps []endpoint
	add := func(ep endpoint) {
		if ep.Port < 1 || ep.Port > 65535 || !localHost(ep.Host) {
			return
		}
		for _, e := range eps {
			if e.Port == ep.Port {
				return
			}
		}
		eps = append(eps, ep)
	}
	for _, m := range urlRE.FindAllStringSubmatch(line, -1) {
		scheme := strings.ToLower(m[1])
		port := 80
		if scheme == "https" {
			port = 443
		}
		if m[3] != "" {
			port, _ = strconv.Atoi(m[3])
		}
		path := strings.TrimRight(m[4], ".,;:!?)]}'\"")
		add(endpoint{Scheme: scheme, Host: strings.Trim(strings.ToLower(m[2]), "[]"), Port: port, Path: path})
	}
	for _, m := range hostPortRE.FindAllStringSubmatch(line, -1) {
		port, _ := strconv.Atoi(m[2])
		add(endpoint{Scheme: "http", Host: strings.Trim(strings.ToLower(m[1]), "[]"), Port: port})
	}
	for _, m := range portRE.FindAllStringSubmatch(line, -1) {
		port, _ := strconv.Atoi(m[1])
		add(endpoint{Scheme: "http", Port: port})
	}
	return eps
}

// localHost reports whether an announced host is this machine's loopback or
// any-address, which a probe on loopback reaches.
func localHost(h string) bool {
	switch h {
	case "", "localhost", "*":
		return true
	}
	if strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && (a.IsLoopback() || a.IsUnspecified())
}

// listener is a TCP socket in LISTEN state.
type listener struct {
	Addr netip.Addr
	Port int
}

// procInfo is what /proc/<pid>/stat says about a process.
type procInfo struct {
	PID, PPID, PGID int
	State           byte   // R, S, D, Z, T, X...
	Start           string // start time in clock ticks since boot: with the PID, an identity
}

// procAvailable reports whether this system has a Linux-style /proc.
func procAvailable() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// readProcStat reads /proc/<pid>/stat.
func readProcStat(pid int) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, err
	}
	return parseProcStat(pid, b)
}

// parseProcStat parses a stat line; the command name in parentheses may hold
// anything, so fields are counted from the last ')'.
func parseProcStat(pid int, b []byte) (procInfo, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, errors.New("malformed stat")
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] state, f[1] ppid, f[2] pgrp, ... f[19] starttime (field 22).
	if len(f) < 20 || len(f[0]) == 0 {
		return procInfo{}, errors.New("short stat")
	}
	ppid, _ := strconv.Atoi(f[1])
	pgid, _ := strconv.Atoi(f[2])
	return procInfo{PID: pid, PPID: ppid, PGID: pgid, State: f[0][0], Start: f[19]}, nil
}

// live reports whether a process still runs (a zombie does not).
func (p procInfo) live() bool { return p.State != 'Z' && p.State != 'X' && p.State != 'x' }

// allProcs lists every process /proc shows; nil without /proc.
func allProcs() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var ps []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := readProcStat(pid); err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// processTree returns the live processes descended from root (root
// included when alive) and the live members of process group pgid (when
// pgid > 0), from one walk of /proc. Nil without /proc.
func processTree(root, pgid int) []procInfo {
	ps := allProcs()
	children := map[int][]int{}
	byPID := map[int]procInfo{}
	for _, p := range ps {
		byPID[p.PID] = p
		children[p.PPID] = append(children[p.PPID], p.PID)
	}
	seen := map[int]bool{}
	var out []procInfo
	var walk func(int)
	walk = func(pid int) {
		p, ok := byPID[pid]
		if !ok || seen[pid] {
			return
		}
		seen[pid] = true
		if p.live() {
			out = append(out, p)
		}
		for _, c := range children[pid] {
			walk(c)
		}
	}
	walk(root)
	if pgid > 0 {
		for _, p := range ps {
			if p.PGID == pgid && !seen[p.PID] {
				seen[p.PID] = true
				if p.live() {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// listeners returns the TCP sockets in LISTEN state held by the processes in
// pids, read from /proc/<pid>/fd and the network namespace of the first pid.
// Nil (no error) where there is no /proc.
func listeners(pids []int) ([]listener, error) {
	if len(pids) == 0 || !procAvailable() {
		return nil, nil
	}
	inodes := map[string]bool{}
	for _, pid := range pids {
		fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
		if err != nil {
			continue // gone, or not ours to read
		}
		for _, fd := range fds {
			l, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name()))
			if err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
			}
		}
	}
	if len(inodes) == 0 {
		return nil, nil
	}
	var out []listener
	var firstErr error
	for _, name := range []string{"tcp", "tcp6"} {
		f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pids[0]), "net", name))
		if err != nil {
			if f, err = os.Open(filepath.Join("/proc/net", name)); err != nil {
				if firstErr == nil && !errors.Is(err, os.ErrNotExist) {
					firstErr = err
				}
				continue
			}
		}
		ls, err := parseProcNetTCP(f, inodes)
		_ = f.Close()
		if err != nil && firstErr == nil {
			firstErr = err
		}
		out = append(out, ls...)
	}
	return out, firstErr
}

// parseProcNetTCP reads a /proc/net/tcp or tcp6 table and returns the LISTEN
// sockets whose inode is in inodes (all of them when inodes is nil).
func parseProcNetTCP(r io.Reader, inodes map[string]bool) ([]listener, error) {
	var out []listener
	sc := bufio.NewScanner(r)
	sc.Scan() // header
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
		if len(f) < 10 || f[3] != "0A" {
			continue
		}
		if inodes != nil && !inodes[f[9]] {
			continue
		}
		host, port, ok := strings.Cut(f[1], ":")
		if !ok {
			continue
		}
		p, err := strconv.ParseUint(port, 16, 16)
		if err != nil {
			continue
		}
		addr, ok := parseProcAddr(host)
		if !ok {
			continue
		}
		out = append(out, listener{Addr: addr, Port: int(p)})
	}
	return out, sc.Err()
}

// parseProcAddr decodes an address of /proc/net/tcp{,6}: the bytes of the
// address as 32-bit words, each in host byte order.
func parseProcAddr(h string) (netip.Addr, bool) {
	b, err := hex.DecodeString(h)
	if err != nil || (len(b) != 4 && len(b) != 16) {
		return netip.Addr{}, false
	}
	out := make([]byte, len(b))
	for i := 0; i < len(b); i += 4 {
		binary.BigEndian.PutUint32(out[i:], binary.NativeEndian.Uint32(b[i:]))
	}
	a, ok := netip.AddrFromSlice(out)
	return a.Unmap(), ok
}

// tcpOpen reports whether something accepts TCP connections at addr.
func tcpOpen(ctx context.Context, addr string) bool {
	d := net.Dialer{Timeout: 300 * time.Millisecond}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// probeClient talks to loopback only: no proxy, no redirects followed (a 302
// to a login page is an answer), no keep-alive, and no certificate checks
// (dev servers use self-signed certificates on localhost).
var probeClient = &http.Client{
	Transport: &http.Transport{
		Proxy:             nil,
		DisableKeepAlives: true,
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback dev servers with self-signed certificates
	},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// probeHTTP GETs url and returns the status code.
func probeHTTP(ctx context.Context, url string, timeout time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "e2e-mcp-devserver-probe")
	resp, err := probeClient.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// hostsFor lists the hosts to try, in order of preference, for a server on
// port: "localhost" first (what people type, and what the contract's example
// shows), then the loopback literals that accept connections. "localhost" is
// left out when both loopback families answer but the server owns only one
// (another program holds the other), since localhost could reach either.
func hostsFor(ctx context.Context, port int, owned []listener) []string {
	p := strconv.Itoa(port)
	v4 := tcpOpen(ctx, net.JoinHostPort("127.0.0.1", p))
	v6 := tcpOpen(ctx, net.JoinHostPort("::1", p))
	hosts := []string{"localhost"}
	if v4 && v6 && len(owned) > 0 {
		var own4, own6 bool
		for _, l := range owned {
			if l.Port != port {
				continue
			}
			switch {
			case l.Addr.Is6() && l.Addr.IsUnspecified(): // "::" takes IPv4 too, unless v6only
				own4, own6 = true, true
			case l.Addr.Is4():
				own4 = true
			default:
				own6 = true
			}
		}
		if own4 != own6 {
			hosts = nil
		}
	}
	if v4 {
		hosts = append(hosts, "127.0.0.1")
	}
	if v6 {
		hosts = append(hosts, "[::1]")
	}
	return hosts
}

// endpointURL is the URL of a server at host:port with ep's scheme and path;
// a bare "/" path is left off ("http://localhost:3000").
func endpointURL(scheme, host string, port int, path string) string {
	if scheme == "" {
		scheme = "http"
	}
	if path == "/" {
		path = ""
	}
	return scheme + "://" + host + ":" + strconv.Itoa(port) + path
}

// ownedPorts returns the distinct ports in ls, lowest first.
func ownedPorts(ls []listener) []int {
	var ports []int
	for _, l := range ls {
		if !slices.Contains(ports, l.Port) {
			ports = append(ports, l.Port)
		}
	}
	slices.Sort(ports)
	return ports
}

// candidates orders the endpoints to try: first those the process tree is
// seen listening on (announced ones, then the assigned port, then, with
// others, any other port it holds), then announced ones it is not seen
// holding (a server in a container, or where /proc is missing), then the
// assigned port. Other ports come last in the tree's share because they may
// be a debugger's or a websocket's rather than the app's.
func candidates(announced []endpoint, assigned int, owned []listener, others bool) []endpoint {
	ports := ownedPorts(owned)
	var first, rest []endpoint
	seen := map[int]bool{}
	add := func(ep endpoint) {
		if seen[ep.Port] {
			return
		}
		seen[ep.Port] = true
		if slices.Contains(ports, ep.Port) {
			first = append(first, ep)
		} else {
			rest = append(rest, ep)
		}
	}
	for _, ep := range announced {
		add(ep)
	}
	if assigned > 0 {
		add(endpoint{Scheme: "http", Port: assigned})
	}
	if others {
		for _, p := range ports {
			add(endpoint{Scheme: "http", Port: p})
		}
	}
	return append(first, rest...)
}

// probeOutcome is what trying one endpoint found.
type probeOutcome struct {
	URL  string // the URL to report: first host that answered HTTP below 500, else first that accepted TCP
	Open bool   // some loopback host accepted a TCP connection
	Code int    // the HTTP status at URL (0 when HTTP failed or was not tried)
	Err  error  // why HTTP failed
}

// OK reports an HTTP answer below 500.
func (o probeOutcome) OK() bool { return o.Code > 0 && o.Code < 500 }

// tryEndpoint looks for ep on the loopback hosts of [hostsFor]; with httpProbe
// it GETs readyPath there ("" means ep's own path, or "/").
func tryEndpoint(ctx context.Context, ep endpoint, owned []listener, readyPath string, httpProbe bool, timeout time.Duration) probeOutcome {
	var out probeOutcome
	for _, host := range hostsFor(ctx, ep.Port, owned) {
		if !tcpOpen(ctx, net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(ep.Port))) {
			continue
		}
		u := endpointURL(ep.Scheme, host, ep.Port, ep.Path)
		if !out.Open {
			out = probeOutcome{URL: u, Open: true}
		}
		if !httpProbe {
			return out
		}
		path := readyPath
		if path == "" {
			path = ep.Path
		}
		if path == "" {
			path = "/"
		}
		code, err := probeHTTP(ctx, endpointURL(ep.Scheme, host, ep.Port, "")+path, timeout)
		if err == nil && code < 500 {
			return probeOutcome{URL: u, Open: true, Code: code}
		}
		if out.URL == u {
			out.Code, out.Err = code, err
		}
	}
	return out
}
