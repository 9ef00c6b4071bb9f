package launcher

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// executableNames are looked up on PATH, in this order, when no path is given.
var executableNames = [...]string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell"}

// InstallHint tells a user how to get a browser on the common platforms.
const InstallHint = "install Chromium (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium) " +
	"or point --browser-path / E2E_MCP_BROWSER_PATH at a Chrome or Chromium executable"

// FindExecutable returns the browser to run: explicit if it is set (it must
// exist), else the first of chromium, google-chrome, chrome and headless_shell
// found on PATH, else the platform's usual install locations.
func FindExecutable(explicit string) (string, error) {
	if explicit != "" {
		p, err := exec.LookPath(explicit)
		if err != nil {
			return "", &refusal.Error{Kind: refusal.BrowserNotFound, Message: fmt.Sprintf("browser %q is not an executable", explicit), Hint: InstallHint, Err: err}
		}
		return p, nil
	}
	for _, name := range executableNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range platformLocations {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", &refusal.Error{Kind: refusal.BrowserNotFound, Message: "no Chrome or Chromium found on PATH", Hint: InstallHint}
}
