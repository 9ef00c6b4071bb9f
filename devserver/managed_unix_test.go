//go:build (linux || darwin || freebsd || netbsd || openbsd || dragonfly) && !unit

package devserver

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestManagedUnhealthy: a server whose process lives but does not answer
// (stopped with SIGSTOP) is reported unhealthy, then running again.
func TestManagedUnhealthy(t *testing.T) {
	t.Parallel()
	py := python(t)
	m := newManaged(t, ManagedSpec{Run: shellQuote(py) + " -m http.server $PORT --bind 127.0.0.1"})
	res := do(t, m, Start)
	if err := syscall.Kill(res.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st, err := m.Do(ctx, Status)
	_ = syscall.Kill(res.PID, syscall.SIGCONT)
	if err != nil || st.Status != "unhealthy" || st.Healthy == nil || *st.Healthy || st.PID != res.PID {
		t.Fatalf("status of a stopped process: %+v, %v", st, err)
	}
	if st := do(t, m, Status); st.Status != "running" || !*st.Healthy {
		t.Fatalf("status after SIGCONT: %+v", st)
	}
}
