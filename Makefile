# e2e-mcp. 'make help' lists the targets.
GO            ?= go
BIN           ?= bin/e2e-mcp
LINT_VERSION  := v2.15.0
LINT          := $(shell $(GO) env GOPATH)/bin/golangci-lint
# The platforms make release ships; make cross compiles all but this machine's.
PLATFORMS     := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
CROSS          = $(filter-out $(shell $(GO) env GOOS)/$(shell $(GO) env GOARCH),$(PLATFORMS))
# The build stamp (e2e-mcp version): the tag, the commit and the commit's
# time (not the clock's: two builds of one commit are the same bytes). Outside
# a git checkout they are empty and the binary reads Go's build info instead.
VERSION        = $(shell git describe --tags --always --dirty 2>/dev/null)
COMMIT         = $(shell git rev-parse HEAD 2>/dev/null)
DATE           = $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
LDFLAGS        = -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: help build test unit e2e load lint vet cross snaps docs ensure-browser clean bench bench-quick fuzz fuzz-brief oracle playwright-check pwmcp-check widgets-check trace-check inspector-check image-check release release-check

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

build: ## build the static binary into bin/
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/e2e-mcp

ensure-browser: ## make sure Chromium and chromedriver are installed (installs Debian's chromium, chromium-driver as root)
	@scripts/ensure-chromium.sh

test: ensure-browser vet cross fuzz-brief ## the one test command: browser check, vet, cross-compile, fuzz briefly, all tests with -race
	$(GO) test -race -count=1 -timeout 30m ./...
	@echo "Playwright oracle (browser/testdata/oracle):"; \
	  $(GO) test -count=1 -run '^TestOracle' -v ./browser/ | grep -E '(selectors|aria snapshots): [0-9]+ '

fuzz-brief: ## every fuzz target for 2,000 inputs (their seed corpora also run with the tests)
	@FUZZTIME=2000x GO=$(GO) scripts/fuzz.sh

fuzz: ## every fuzz target for FUZZTIME (60s) each; failures leave inputs in testdata/fuzz to commit
	@FUZZTIME=$${FUZZTIME:-60s} GO=$(GO) scripts/fuzz.sh

# The unit tier: test files that need Chromium or python3 carry the build
# constraint !unit, so -tags unit leaves them out; the e2e package (the built
# binary, black box) is left out too. The module path itself holds /e2e, so
# match the package's own name.
unit: ## the pure tests: no Chromium, no python3, seconds (make test runs everything)
	$(GO) test -race -count=1 -tags unit $$($(GO) list ./... | grep -v '/e2e$$')

e2e: ensure-browser ## only the black-box tests of the built binary
	$(GO) test -race -count=1 -v ./e2e/

load: ensure-browser ## 20 concurrent HTTP clients for 60 s (E2E_LOAD_CLIENTS, E2E_LOAD_DURATION): no failure, no bleed, p50/p95
	$(GO) test -tags load -count=1 -v -timeout 10m -run TestLoad ./e2e/

vet: ## go vet and gofmt
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

cross: ## cross-compile for the other release platforms (CGO off)
	@for p in $(CROSS); do \
	  echo "build $$p"; \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -trimpath -o /dev/null ./cmd/e2e-mcp || exit 1; \
	done

lint: ## golangci-lint, pinned
	@test -x $(LINT) && $(LINT) version 2>/dev/null | grep -q $(LINT_VERSION:v%=%) || \
	  GOBIN=$(dir $(LINT)) $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(LINT_VERSION)
	$(LINT) run ./...

# DOCS_TESTS are the tests that check each generated part of README.md and
# docs/*.md (internal/readme.Sections names the parts and their files).
DOCS_TESTS = '^(TestReadmeToolTable|TestToolFilesTable|TestReadmeFlagTable|TestReadmePlaywrightTable)$$'

docs: ## rewrite the generated parts of README.md and docs/*.md: the tool, flag and Playwright MCP flag tables, the index of the tools' files
	UPDATE_DOCS=true $(GO) test ./mcptools/ ./cmd/e2e-mcp/internal/config/ -run $(DOCS_TESTS) -count=1

# snaps rewrites the snapshots first: the server serves the recorded schemas,
# so the generated tables (their tools/list sizes) are measured after them.
snaps: ## rewrite the tool schema snapshots, server.json's variables and (make docs) the generated tables
	UPDATE_TOOLSNAPS=true $(GO) test ./mcptools/ -run 'TestToolSnapshots' -count=1
	UPDATE_TOOLSNAPS=true $(GO) test ./cmd/e2e-mcp/internal/config/ -run 'TestServerJSON' -count=1
	@$(MAKE) --no-print-directory docs

# ANCHORS installs the peers for make bench and prints their command lines:
# the team's script beside the clone, else the project's own copy of its job.
ANCHORS ?= $(CURDIR)/../shared/tools/install-anchors.sh

bench: build ## e2e-mcp against Playwright MCP, chrome-devtools-mcp, agent-browser, then e2e-mcp run against Playwright Test (docs/benchmarks.md)
	@mkdir -p bench/out; rm -f bench/out/anchors.txt; a="$(ANCHORS)"; [ -f "$$a" ] || a=bench/install-peers.sh; \
	if [ -f "$$a" ] && command -v npm >/dev/null 2>&1; then \
	  echo "installing the peers for the benchmark only: $$a"; \
	  bash "$$a" >bench/out/anchors.txt 2>bench/out/anchors.log || { rm -f bench/out/anchors.txt; \
	    echo "NOTE: installing the peers failed (bench/out/anchors.log): e2e-mcp runs alone"; }; \
	else echo "NOTE: $$a or npm not found: e2e-mcp runs alone"; fi
	@if command -v npm >/dev/null 2>&1; then echo "installing the pinned @playwright/test for the runner table (scripts/pwcheck)"; \
	  (cd scripts/pwcheck && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund) >bench/out/pwcheck.log 2>&1 || \
	    echo "NOTE: npm ci in scripts/pwcheck failed (bench/out/pwcheck.log): the runner table has e2e-mcp alone"; fi
	$(GO) run ./bench -bin $(BIN) -anchors bench/out/anchors.txt $(BENCH_FLAGS)

bench-quick: ## smoke run of the benchmark: 2 runs, fewer warm navigations, one round of the runner table
	@$(MAKE) --no-print-directory bench BENCH_FLAGS="-quick $(BENCH_FLAGS)"

oracle: ensure-browser ## dev-only (needs npm): rerun Playwright over the oracle pages and rewrite browser/testdata/oracle
	cd scripts/oracle && npm ci --no-audit --no-fund && CHROMIUM="$${CHROMIUM:-$$(command -v chromium || command -v chromium-browser)}" node generate.mjs

# The pinned @playwright/test (scripts/pwcheck, npm ci: no browser download)
# runs the spec session_export_flow and e2e-mcp convert write of the sign-up
# flow with the system Chromium: it passes, and fails at the click when the
# app's button changes. CI runs it after make test; it fails, never skips.
playwright-check: ensure-browser ## the exported Playwright spec of the sign-up flow under real @playwright/test (npm; system Chromium)
	cd scripts/pwcheck && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	$(GO) test -tags pwcheck -count=1 -v -timeout 10m -run '^TestPlaywrightCheck' ./e2e/ ./flow/playwright/

# Playwright MCP's own tests (tests/mcp of microsoft/playwright at the
# commit e2e/pwmcp_test.go pins, fetched through the Go module proxy into
# scripts/pwmcp/.cache; its fixtures' npm packages pinned in scripts/pwmcp,
# npm ci: no browser download) run unchanged against the binary through
# scripts/pwmcp/launcher.js, in their chromium project with the system
# Chromium, laid out in scripts/pwmcp/.work (remade each run, kept for a
# look after). Each test's outcome is held to scripts/pwmcp/expectations:
# a test expected to pass that does not, or one it does not name, fails
# it; it prints the figure (pass, wording-only, internals, differs, fail).
# CI runs it after make playwright-check; it fails, never skips.
# PWMCP_FILES=regexp runs some spec files; PWMCP_DUMP=FILE writes every
# test's status and error there; PWMCP_WORKERS sets the workers (3);
# PWMCP_SERVER=playwright runs their own server (the pinned npm
# playwright-core's) instead and rewrites scripts/pwmcp/playwright-fails,
# the tests it does not pass here, for the figure each run prints.
pwmcp-check: ensure-browser ## Playwright MCP's own test suite against the binary, held to scripts/pwmcp/expectations (Go proxy, npm; system Chromium)
	@cd scripts/pwmcp && t=$$(date +%s) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund && \
	  echo "pwmcp-check: npm ci $$(( $$(date +%s) - t ))s"
	$(GO) test -tags pwmcp -count=1 -v -timeout 20m -run '^TestPwmcpCheck$$' ./e2e/

# A widget app of our own (scripts/widgets: React pages on real component
# libraries, every version pinned, npm ci; built by Vite into its dist/)
# and 30+ agent tasks on it through the binary (e2e/widgets_check_test.go,
# build tag widgets): each alone in a fresh server and all in one session,
# each exported flow replayed by e2e-mcp run and, converted, run under the
# pinned @playwright/test with the system Chromium. What does not pass yet
# is listed in the test with its reason. CI runs it after make
# playwright-check; it fails, never skips. While working on tasks:
# WIDGETS_TASKS=regexp runs some, WIDGETS_PARALLEL=N sets the browsers at
# once (default: the cores, at least 2), WIDGETS_KEEP=1 keeps the flows and
# specs in scripts/widgets/run-*.
widgets-check: ensure-browser ## agent tasks on a widget app of real component libraries: alone, in one session, replayed, as Playwright specs (npm; system Chromium)
	@cd scripts/widgets && t=$$(date +%s) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund && \
	  echo "widgets-check: npm ci $$(( $$(date +%s) - t ))s" && t=$$(date +%s) && npm run --silent build && \
	  echo "widgets-check: vite build $$(( $$(date +%s) - t ))s"
	$(GO) test -tags widgets -count=1 -v -timeout 20m -run '^TestWidgetsCheck$$' ./e2e/

# The pinned playwright (scripts/tracecheck, npm ci: no browser download)
# holds Playwright's Trace Viewer, built. A session recorded through the
# binary (a navigation, fills, a click that fails, a console error, failed
# requests) is opened in it, served as show-trace serves it, in Chromium
# driven by the binary: every action with its name and status, the console
# error, the requests and a frame for the failing click must show. CI runs
# it after make playwright-check; it fails, never skips.
trace-check: ensure-browser ## a session's trace (browser_stop_tracing) in Playwright's own Trace Viewer (npm; system Chromium)
	cd scripts/tracecheck && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	$(GO) test -tags tracecheck -count=1 -v -timeout 10m -run '^TestTraceViewerCheck$$' ./e2e/

# The pinned MCP Inspector (scripts/inspector, npm ci) runs tools/list with
# --strict on the binary, over stdio and over Streamable HTTP with a token,
# with the default tools and with every capability group: a tool schema a
# strict client would refuse exits 6 and fails it. It first checks that
# --strict refuses such a schema (scripts/inspector/unportable-server.mjs).
# CI runs it after make playwright-check; it fails, never skips.
inspector-check: ## the MCP Inspector CLI's --strict tools/list on the binary, stdio and HTTP (npm)
	cd scripts/inspector && npm ci --no-audit --no-fund
	$(GO) test -tags inspector -count=1 -v -timeout 10m -run '^TestInspectorCheck$$' ./e2e/

# The Dockerfile's steps are scripts/install-image.sh's; CI checks them
# without Docker: the build into a temp prefix, the packages resolve with
# apt-get --simulate (nothing installed, no user made), then the binary is
# run as the image runs it (entrypoint, token, /health, SIGTERM).
image-check: ensure-browser ## the container image's steps without Docker (scripts/install-image.sh --check)
	@scripts/install-image.sh --check

release: ## archives for every platform in dist/, stamped, with SHA256SUMS and server.json
	@GO=$(GO) PLATFORMS="$(PLATFORMS)" VERSION="$(VERSION)" COMMIT="$(COMMIT)" DATE="$(DATE)" scripts/release.sh

# A fresh clone, tagged, through make release: every archive, SHA256SUMS,
# the stamp in each binary (linux/amd64 runs `version`), and a second run
# giving the same bytes. CI runs it after make test.
release-check: ## make release from a fresh clone: archives, checksums, stamps, reproducible
	$(GO) test -tags release -count=1 -v -timeout 20m -run '^TestReleaseCheck$$' ./scripts/release/

clean: ## remove build output
	rm -rf bin dist
