package devserver

import (
	"context"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestStripANSI(t *testing.T) {
	// Vite 5 colours the port and underlines links.
	in := "  \x1b[32m➜\x1b[39m  \x1b[1mLocal\x1b[22m:   \x1b[36mhttp://localhost:\x1b[1m5173\x1b[22m/\x1b[39m"
	if got, want := stripANSI(in), "  ➜  Local:   http://localhost:5173/"; got != want {
		t.Fatalf("stripANSI = %q, want %q", got, want)
	}
	if got := stripANSI("\x1b]8;;http://x\x07link\x1b]8;;\x07 \x1b[2K\x1b[1Gdone"); got != "link done" {
		t.Fatalf("OSC and erase: %q", got)
	}
}

func TestEndpointsInLine(t *testing.T) {
	ep := func(scheme, host string, port int, path string) endpoint {
		return endpoint{Scheme: scheme, Host: host, Port: port, Path: path}
	}
	cases := []struct {
		line string
		want []endpoint
	}{
		{"  \x1b[32m➜\x1b[39m  \x1b[1mLocal\x1b[22m:   \x1b[36mhttp://localhost:\x1b[1m5173\x1b[22m/\x1b[39m", []endpoint{ep("http", "localhost", 5173, "/")}},
		{"  ➜  Network: http://192.168.1.20:5173/", nil}, // LAN addresses are never probed
		{"  ➜  Local:   http://localhost:5174/app/", []endpoint{ep("http", "localhost", 5174, "/app/")}},
		{"Listening on http://127.0.0.1:8000", []endpoint{ep("http", "127.0.0.1", 8000, "")}},
		{"Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...", []endpoint{ep("http", "0.0.0.0", 8000, "/")}},
		{"Serving HTTP on ::1 port 41234 (http://[::1]:41234/) ...", []endpoint{ep("http", "::1", 41234, "/")}},
		{"   - Local:        http://localhost:3000", []endpoint{ep("http", "localhost", 3000, "")}},
		{"Starting development server at http://127.0.0.1:8000/", []endpoint{ep("http", "127.0.0.1", 8000, "/")}},
		{" * Running on http://127.0.0.1:5000", []endpoint{ep("http", "127.0.0.1", 5000, "")}},
		{"* Listening on http://[::1]:3000", []endpoint{ep("http", "::1", 3000, "")}},
		{"** Angular Live Development Server is listening on localhost:4200, open your browser on http://localhost:4200/ **", []endpoint{ep("http", "localhost", 4200, "/")}},
		{"Server started on port 3000", []endpoint{ep("http", "", 3000, "")}},
		{"2025/11/02 10:30:00 listening on :8080", []endpoint{ep("http", "", 8080, "")}},
		{"time=10:30:00 msg=\"server listening\" addr=[::]:9090", []endpoint{ep("http", "::", 9090, "")}},
		{"VITE v5.0.0  ready in 312 ms", nil},
		{"Docs: https://vitejs.dev/guide/ and http://example.com:8080/x", nil},
		{"  ➜  Local:   https://localhost:5173/", []endpoint{ep("https", "localhost", 5173, "/")}},
		{"compiled at 10:30:05, 2 files", nil},
	}
	for _, c := range cases {
		if got := endpointsInLine(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("endpointsInLine(%q)\n got %+v\nwant %+v", c.line, got, c.want)
		}
	}
}

func TestParseProcNetTCP(t *testing.T) {
	tcp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 632 1 0000000003ff4556 100 0 0 10 0
   1: 0100007F:ADEB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 396056 2 00000000859c61f4 100 0 0 10 0
   3: 0100007F:C364 0100007F:8D49 06 00000000:00000000 03:000010AF 00000000     0        0 0 3 0000000076d57d9e
`
	tcp6 := `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:861F 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 396182 1 0000000000d59c50 100 0 0 10 0
   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000d59c50 100 0 0 10 0
`
	got, err := parseProcNetTCP(strings.NewReader(tcp), map[string]bool{"396056": true, "0": true})
	if err != nil {
		t.Fatal(err)
	}
	// These fixtures are little-endian words, as on amd64 and arm64.
	want := []listener{{Addr: netip.MustParseAddr("127.0.0.1"), Port: 0xADEB}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tcp: got %v, want %v", got, want)
	}
	got, err = parseProcNetTCP(strings.NewReader(tcp6), nil)
	if err != nil {
		t.Fatal(err)
	}
	want = []listener{{Addr: netip.MustParseAddr("::1"), Port: 0x861F}, {Addr: netip.MustParseAddr("::"), Port: 8080}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tcp6: got %v, want %v", got, want)
	}
}

func TestParseProcStat(t *testing.T) {
	line := "15845 (my (odd) server) S 1 15842 7210 0 -1 4194304 4008 6520 0 0 11 2 5 3 20 0 1 0 316899 28479488 5289\n"
	p, err := parseProcStat(15845, []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if p.PPID != 1 || p.PGID != 15842 || p.State != 'S' || p.Start != "316899" {
		t.Fatalf("got %+v", p)
	}
}

func TestCandidatesOrder(t *testing.T) {
	owned := []listener{{Addr: netip.MustParseAddr("127.0.0.1"), Port: 9000}, {Addr: netip.MustParseAddr("::1"), Port: 7000}}
	announced := []endpoint{{Scheme: "http", Host: "localhost", Port: 8080}, {Scheme: "http", Host: "localhost", Port: 9000, Path: "/app/"}}
	var ports []int
	for _, c := range candidates(announced, 5000, owned, true) {
		ports = append(ports, c.Port)
	}
	// Owned first (announced, then others lowest first), then the rest.
	if want := []int{9000, 7000, 8080, 5000}; !reflect.DeepEqual(ports, want) {
		t.Fatalf("order %v, want %v", ports, want)
	}
	ports = nil
	for _, c := range candidates(announced, 5000, owned, false) {
		ports = append(ports, c.Port)
	}
	if want := []int{9000, 8080, 5000}; !reflect.DeepEqual(ports, want) {
		t.Fatalf("without others: order %v, want %v", ports, want)
	}
}

// TestHostsForSkipsAmbiguousLocalhost: when another program holds the same
// port on 127.0.0.1, a server on ::1 only must not be reported as localhost.
func TestHostsForSkipsAmbiguousLocalhost(t *testing.T) {
	l4, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l4.Close()
	port := l4.Addr().(*net.TCPAddr).Port
	l6, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(port)))
	if err != nil {
		t.Fatal("this test needs the IPv6 loopback (::1):", err)
	}
	defer l6.Close()
	owned := []listener{{Addr: netip.MustParseAddr("::1"), Port: port}}
	if got := hostsFor(context.Background(), port, owned); !reflect.DeepEqual(got, []string{"127.0.0.1", "[::1]"}) {
		t.Fatalf("hostsFor = %v", got)
	}
	if got := hostsFor(context.Background(), port, nil); got[0] != "localhost" {
		t.Fatalf("without ownership: %v", got)
	}
}

// realPython finds the real interpreter behind python3 (pyenv shims cost
// most of a second per start).
var realPython = sync.OnceValues(func() (string, error) {
	p, err := exec.LookPath("python3")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", err
	}
	if p = strings.TrimSpace(string(out)); !filepath.IsAbs(p) {
		return "", os.ErrNotExist
	}
	return p, nil
})

// python returns the python3 interpreter, or skips the test.
func python(t testing.TB) string {
	t.Helper()
	p, err := realPython()
	if err != nil {
		t.Fatal("python3 is needed for this test (apt-get install python3):", err)
	}
	return p
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
