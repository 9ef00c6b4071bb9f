package browser

import (
	"errors"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/storage"
)

// TestStorageErrors: what browser/storage refuses (a cookie, a state's
// origin) reaches the agent as an invalid_input error with the package's
// message and hint (storageError, the seam); any other error is itself.
func TestStorageErrors(t *testing.T) {
	_, cerr := storage.Params([]storage.Cookie{{Name: "sid"}})
	oerr := (&storage.State{Origins: []storage.OriginState{{Origin: "app.test"}}}).CheckOrigins()
	for _, err := range []error{cerr, oerr} {
		var s *storage.Error
		if !errors.As(err, &s) {
			t.Fatalf("%v is no refusal of browser/storage", err)
		}
		e, ok := AsError(storageError(err))
		if !ok || e.Kind != KindInvalidInput || e.Message != s.Message || e.Hint != s.Hint || e.Hint == "" || e.Error() != err.Error() {
			t.Errorf("%v became %v (hint %q)", err, e, e.Hint)
		}
	}
	other := errors.New("read the cookies: gone")
	if err := storageError(other); err != other {
		t.Errorf("storageError(%v) = %v", other, err)
	}
	if err := storageError(nil); err != nil {
		t.Errorf("storageError(nil) = %v", err)
	}
}
