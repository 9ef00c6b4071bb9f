package browser

import (
	"errors"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/browser/storage"
)

// TestStorageErrors: what browser/storage refuses (a cookie, a state's
// origin) reaches the agent as an invalid_input error with the package's
// message and hint (AsError reads the refusal); any other error is none
// of the engine's.
func TestStorageErrors(t *testing.T) {
	_, cerr := storage.Params([]storage.Cookie{{Name: "sid"}})
	oerr := (&storage.State{Origins: []storage.OriginState{{Origin: "app.test"}}}).CheckOrigins()
	for _, err := range []error{cerr, oerr} {
		var s *refusal.Error
		if !errors.As(err, &s) {
			t.Fatalf("%v is no refusal of browser/storage", err)
		}
		e, ok := AsError(err)
		if !ok || e.Kind != KindInvalidInput || e.Message != s.Message || e.Hint != s.Hint || e.Hint == "" || e.Error() != err.Error() {
			t.Errorf("%v became %v (hint %q)", err, e, e.Hint)
		}
	}
}
