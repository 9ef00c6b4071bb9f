package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDeclaredAtZero: every known kind of crash and result of a launch is
// on /metrics before it first happens.
func TestDeclaredAtZero(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, k := range crashKinds {
		if want := `e2e_mcp_browser_crashes_total{kind="` + string(k) + `"} 0`; !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, e := range clientEnds {
		if want := `e2e_mcp_clients_ended_total{reason="` + string(e) + `"} 0`; !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, e := range clientRefusals {
		if want := `e2e_mcp_clients_refused_total{reason="` + string(e) + `"} 0`; !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, r := range launchResults {
		if want := `e2e_mcp_browser_launches_total{result="` + r + `"} 0`; !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
