// Package devserver runs the user's dev-server command under the contract of
// docs/mission.md §1 (COMMAND [ARGS...] --start|--restart|--status|--shutdown,
// one JSON object on stdout) and, for projects without such a command, a
// managed runner for any dev command line.
//
// The executor lands with the dev-server lifecycle issue; the package exists
// now so that the module has the layout of the design card and the import
// rules (it must never import mcp-go or chromedp) are checked from day one.
package devserver
