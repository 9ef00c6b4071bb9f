#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME each (default 60s):
# the parsers that take outside input (selectors, flows, tool arguments, the
# dev-server contract's answers, HTTP headers, origin patterns, IP literals).
# 'make test' runs it briefly (FUZZTIME=2000x: a count, not a time, so a
# slow machine still fuzzes each); 'make fuzz' for longer. A
# failure leaves its input under the package's testdata/fuzz/ to commit as
# a regression case.
set -euo pipefail
cd "$(dirname "$0")/.."
time="${FUZZTIME:-60s}"
go=${GO:-go}
failed=0
for pkg in $($go list ./...); do
  # -list runs no test; packages without fuzz targets list nothing.
  targets=$($go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true)
  for t in $targets; do
    echo "fuzz $pkg $t ($time)"
    if ! $go test -run '^$' -fuzz "^${t}\$" -fuzztime "$time" "$pkg" >/tmp/fuzz.$$.log 2>&1; then
      if grep -q "context deadline exceeded" /tmp/fuzz.$$.log && ! grep -q "Failing input written" /tmp/fuzz.$$.log; then
        # Go's fuzzer can report its own time running out as a failure
        # (golang/go#48127): no input failed, so nothing was found.
        echo "  (the fuzzer's deadline, not a finding)"
        continue
      fi
      cat /tmp/fuzz.$$.log
      failed=1
    fi
  done
done
rm -f /tmp/fuzz.$$.log
exit $failed
