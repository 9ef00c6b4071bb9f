// Package runner replays flows as a test suite, what `e2e-mcp run` does in
// CI, and writes them as Playwright Test specs (`e2e-mcp convert`).
// cmd/e2e-mcp parses the command line into [Options] and calls [Load] and
// [Run], or [Convert]; everything else of a run is here: the scheduling of
// flows, the replay of one, and what a run writes (the console lines,
// JUnit, artifacts, HTML reports, traces, videos, --heal's repaired flows).
package runner
