// Package devserver runs the user's dev-server command under
// the contract of docs/dev-server.md (COMMAND [ARGS...] --start|--restart|--status|--shutdown,
// one JSON object on stdout): [Command.Do] runs one verb with its timeout and checks
// the answer. For projects without such a command, [Managed] runs any dev
// command line itself (start, readiness by the announced URL or port, logs,
// restart, status, shutdown of the whole process group, and detached servers
// that outlive one process, answered for from a state file).
//
// It must never import mcp-go or chromedp: the tools and the CLI use it.
package devserver
