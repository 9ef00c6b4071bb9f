#!/usr/bin/env bash
# Makes sure a Chrome or Chromium is there for the browser tests (and
# python3, a real dev server the dev-server tests drive). As root on
# Debian/Ubuntu it installs the distribution's packages when they are
# missing; otherwise it explains how and fails (tests never skip).
set -euo pipefail
if ! command -v python3 >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "no python3: installing Debian's python3 with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 >/dev/null
  else
    echo "python3 is needed by the dev-server tests: install it (sudo apt-get install python3)" >&2
    exit 1
  fi
fi
find_browser() {
  if [ -n "${E2E_MCP_BROWSER_PATH:-}" ]; then command -v "$E2E_MCP_BROWSER_PATH" && return 0; fi
  for b in chromium chromium-browser google-chrome google-chrome-stable chrome headless_shell; do
    command -v "$b" && return 0
  done
  return 1
}
if path=$(find_browser); then
  echo "browser: $path"
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "no browser found: installing Debian's chromium with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  path=$(find_browser) || { echo "apt-get installed chromium, but no browser is on PATH" >&2; exit 1; }
  echo "browser: $path"
  exit 0
fi
cat >&2 <<'MSG'
No Chrome or Chromium found, and this script can only install one as root on Debian/Ubuntu.
Install one, then run 'make test' again:
  Debian/Ubuntu: sudo apt-get install chromium
  Fedora:        sudo dnf install chromium
  macOS:         brew install --cask chromium
or set E2E_MCP_BROWSER_PATH to a Chrome/Chromium executable.
MSG
exit 1
