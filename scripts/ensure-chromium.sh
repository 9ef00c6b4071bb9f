#!/usr/bin/env bash
# Makes sure a Chrome or Chromium is there for the browser tests. As root on
# Debian/Ubuntu it installs the distribution's chromium package when none is
# found; otherwise it explains how and fails (browser tests never skip).
set -euo pipefail
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
