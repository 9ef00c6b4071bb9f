package launcher

import (
	"os"
	"runtime"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// HeadedWithoutDisplay is the error of a visible browser (Config.Headed)
// asked for on a machine with no display to show it on, or nil. On Linux
// and the BSDs a window needs an X or Wayland display, which DISPLAY or
// WAYLAND_DISPLAY names; without one Chrome does not start, and chromedp's
// error speaks of its own options. This says what the user can do.
func HeadedWithoutDisplay() error {
	if e := noDisplay(runtime.GOOS, os.Getenv); e != nil {
		return e
	}
	return nil
}

func noDisplay(goos string, getenv func(string) string) *refusal.Error {
	switch goos {
	case "darwin", "windows", "android", "ios":
		return nil // a window needs no display variable there
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return nil
	}
	return &refusal.Error{Kind: refusal.BrowserLaunchFail,
		Message: "a visible browser (--headed, or HEADLESS=false) needs a display, and there is no display here: DISPLAY and WAYLAND_DISPLAY are not set",
		Hint:    "run headless (drop --headed, or set HEADLESS=true), or start e2e-mcp under a virtual display: xvfb-run e2e-mcp ..."}
}
