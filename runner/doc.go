// Package runner replays flows as a test suite, what `e2e-mcp run` does in
// CI, merges the reports of a suite's shards (`e2e-mcp merge-reports`),
// and writes flows as Playwright Test specs (`e2e-mcp convert`).
// cmd/e2e-mcp parses the command line into [Options] and calls [Load] and
// [Run], or [Merge], or [Convert]; everything else of a run is here: the
// loading of the flows (a shard of them: [Shard]), their scheduling (one
// at a time or in parallel), the replay of one in its own session
// (prepare, then its steps, drift diagnosed and healed; a failed one run
// again with --retries, and where a flaky one's attempts parted named), the reporters
// that hear each flow's result (list, line, dot, JUnit, JSON, the HTML
// index, GitHub annotations, the blob that [Merge] reads) and the flow
// writers that write what a flow left before its session ends (--heal's
// repaired flow, the video, the HTML report, the trace).
//
// The runner calls the tools through [mcptools.Caller], as an agent's
// client would, and knows nothing of MCP: depguard keeps mcp-go, chromedp
// and the browser package out of it. docs/architecture.md ("How to add to
// the runner") says which file a new option, reporter, flow writer or step
// kind goes in.
package runner
