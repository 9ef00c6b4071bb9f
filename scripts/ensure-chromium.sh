#!/usr/bin/env bash
# Makes sure a Chrome or Chromium is there for the browser tests (and
# python3, a real dev server the dev-server tests drive, and chromedriver,
# the WebDriver grid of e2e/webdriver_test.go). As root on Debian/Ubuntu it
# installs the distribution's packages when they are missing; otherwise it
# explains how and fails (tests never skip).
set -euo pipefail
# apt_install installs Debian packages, reading the package lists first
# only when they are missing or the install fails for want of them.
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e '^lock$' -e '^partial$' -e '^auxfiles$')" ] ||
    ! apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  fi
}
ensure_chromedriver() {
  command -v chromedriver >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "no chromedriver: installing Debian's chromium-driver with apt-get" >&2
    apt_install chromium-driver
    command -v chromedriver >/dev/null || { echo "apt-get installed chromium-driver, but no chromedriver is on PATH" >&2; exit 1; }
    return 0
  fi
  cat >&2 <<'MSG'
chromedriver is needed by the WebDriver grid tests (e2e/webdriver_test.go): install the one of your Chromium's version
  Debian/Ubuntu: sudo apt-get install chromium-driver
  Fedora:        sudo dnf install chromedriver
  macOS:         brew install --cask chromedriver
MSG
  exit 1
}
if ! command -v python3 >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "no python3: installing Debian's python3 with apt-get" >&2
    apt_install python3
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
  ensure_chromedriver
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "no browser found: installing Debian's chromium (and chromium-driver) with apt-get" >&2
  apt_install chromium chromium-driver
  path=$(find_browser) || { echo "apt-get installed chromium, but no browser is on PATH" >&2; exit 1; }
  echo "browser: $path"
  ensure_chromedriver
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
