//go:build !unit

package devserver

import (
	"context"
	"net/http"
	"net/netip"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestListenersOfRealServer finds, through /proc, the socket of a server
// that binds ::1 on a port of its own choosing and prints nothing, started
// under a shell so that it is a grandchild.
func TestListenersOfRealServer(t *testing.T) {
	if !procAvailable() {
		t.Fatal("this test reads /proc: run it on Linux") // it is in the Linux build only
	}
	py := python(t)
	script := "import http.server; http.server.HTTPServer.address_family = __import__('socket').AF_INET6; " +
		"http.server.HTTPServer(('::1', 0), http.server.SimpleHTTPRequestHandler).serve_forever()"
	cmd := exec.Command("/bin/sh", "-c", shellQuote(py)+" -c "+shellQuote(script)+"; true")
	cmd.SysProcAttr = sysProcAttr(false)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = signalGroup(cmd.Process.Pid, true); _ = cmd.Wait() })
	var ls []listener
	deadline := time.Now().Add(10 * time.Second)
	for len(ls) == 0 && time.Now().Before(deadline) {
		var pids []int
		for _, p := range processTree(cmd.Process.Pid, 0) {
			pids = append(pids, p.PID)
		}
		ls, _ = listeners(pids)
		if len(ls) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if len(ls) != 1 || ls[0].Addr != netip.MustParseAddr("::1") {
		t.Fatalf("listeners = %v, want one on ::1", ls)
	}
	o := tryEndpoint(context.Background(), endpoint{Scheme: "http", Port: ls[0].Port}, ls, "", true, 2*time.Second)
	if !o.OK() {
		t.Fatalf("probe: %+v", o)
	}
	if o.URL != "http://[::1]:"+strconv.Itoa(ls[0].Port) && o.URL != "http://localhost:"+strconv.Itoa(ls[0].Port) {
		t.Fatalf("URL %q", o.URL)
	}
	if resp, err := http.Get(o.URL); err != nil {
		t.Fatalf("GET %s: %v", o.URL, err)
	} else {
		_ = resp.Body.Close()
	}
}
