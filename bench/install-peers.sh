#!/usr/bin/env bash
# bench/install-peers.sh: the project's own way to install the three peers
# that `make bench` measures e2e-mcp against, for a clone that has no
# ../shared/tools/install-anchors.sh beside it. They are for the benchmark
# only, never a dependency of e2e-mcp: npm puts them under
# ${ANCHORS_DIR:-~/.cache/e2e-mcp-anchors}, and they use the machine's
# Chromium. The versions are pinned to the ones docs/benchmarks.md reports.
#
# Output (what bench/servers.go parseAnchors reads): one line per server,
# "label: [VAR=value...] command args...".
set -euo pipefail

peers=(@playwright/mcp@0.0.83 chrome-devtools-mcp@1.11.0 agent-browser@0.41.2)
home=${ANCHORS_DIR:-$HOME/.cache/e2e-mcp-anchors}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
	echo "install-peers: no Chromium on PATH (Debian: apt-get install chromium)" >&2
	exit 1
fi
command -v npm >/dev/null || { echo "install-peers: npm not found" >&2; exit 1; }

mkdir -p "$home"
(
	cd "$home"
	[ -f package.json ] || npm init -y >/dev/null
	# No install scripts: Playwright would download a browser of its own.
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --ignore-scripts "${peers[@]}" >/dev/null
)
ab="$home/node_modules/agent-browser/bin/agent-browser-linux-x64"
chmod +x "$ab" 2>/dev/null || true
bin="$home/node_modules/.bin"

echo "playwright-mcp:      $bin/playwright-mcp --headless --isolated --no-sandbox --executable-path $browser"
echo "chrome-devtools-mcp: $bin/chrome-devtools-mcp --headless --isolated --executablePath $browser --chromeArg=--no-sandbox --no-usage-statistics"
echo "agent-browser (MCP): AGENT_BROWSER_EXECUTABLE_PATH=$browser AGENT_BROWSER_ARGS=--no-sandbox $ab mcp"
echo "agent-browser (CLI): $ab --executable-path $browser --args --no-sandbox <command> --json"
