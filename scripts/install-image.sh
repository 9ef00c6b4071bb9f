#!/usr/bin/env bash
# The steps of e2e-mcp's container image, as one script that a CI image or a
# server runs without Docker. The Dockerfile's RUN steps call this script, so
# the two cannot drift (cmd/e2e-mcp/image_test.go checks that they do not).
#
# Usage: scripts/install-image.sh [--check] [--prefix DIR] [--version V] [--slim] [STEP...]
#
# STEPs, in this order (default: all of them):
#   build       build the static binary (CGO off, -trimpath) into PREFIX/bin/e2e-mcp;
#               needs Go, and runs in the clone this script belongs to
#   packages    apt-get install Debian's Chromium, fonts, CA certificates and tini (root)
#   user        the user e2e (uid 10001), its HOME /home/e2e and the data directory
#               /data with output/ (E2E_MCP_OUTPUT_DIR) and files/ (E2E_MCP_FILE_ROOTS) (root)
#   entrypoint  PREFIX/bin/e2e-mcp-entrypoint: serves MCP over HTTP on E2E_MCP_HTTP
#               (0.0.0.0:8931), and refuses to start without a credential
#
# --prefix DIR  where build and entrypoint install (default /usr/local; with --check a temp dir)
# --version V   the version the binary reports (default: git describe of the clone, if any)
# --slim        remove apt's package lists afterwards (image layers)
# --check       change nothing on the machine: build and entrypoint run for real into the
#               prefix, packages must resolve (apt-get --simulate), the user is reported as
#               present or to be made; then the binary is smoke-tested as the image runs
#               it: version, the entrypoint refuses without a token, and with one it
#               serves, /health answers 200 to 'e2e-mcp healthcheck' (the image's
#               HEALTHCHECK) and /mcp answers 401 without the token.
#
# It is idempotent: installed packages are not reinstalled, an existing user is kept.
set -euo pipefail

# What the image holds. The Dockerfile has no list of its own.
STEPS="build packages user entrypoint"
PACKAGES="chromium fonts-liberation fonts-noto-color-emoji ca-certificates tini"
IMAGE_USER=e2e
IMAGE_UID=10001
IMAGE_HOME=/home/e2e
DATA_DIR=/data

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=false prefix="" version="" slim=false steps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=true ;;
    --slim) slim=true ;;
    --prefix) prefix=${2:?--prefix needs a directory}; shift ;;
    --version) version=${2-}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    build|packages|user|entrypoint|all) steps+=("$1") ;;
    *) echo "install-image.sh: unknown argument $1 (steps: $STEPS; --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ ${#steps[@]} = 0 ] || [[ " ${steps[*]} " == *" all "* ]]; then read -ra steps <<<"$STEPS"; fi
has() { [[ " ${steps[*]} " == *" $1 "* ]]; }
say() { echo "install-image: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

work=""
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" || true; fi
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
if $check; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/e2e-image-check.XXXXXX")
  [ -n "$prefix" ] || prefix=$work/prefix
fi
[ -n "$prefix" ] || prefix=/usr/local

step_build() {
  command -v go >/dev/null || die "build: no go on PATH"
  if [ -z "$version" ] && [ -e "$SRC/.git" ] && command -v git >/dev/null; then
    version=$(git -C "$SRC" describe --tags --always --dirty 2>/dev/null || true)
  fi
  local ldflags="-s -w"
  [ -z "$version" ] || ldflags="$ldflags -X main.version=$version"
  mkdir -p "$prefix/bin"
  say "build: $prefix/bin/e2e-mcp (version ${version:-from the build info})"
  (cd "$SRC" && CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$prefix/bin/e2e-mcp" ./cmd/e2e-mcp)
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

step_packages() {
  command -v apt-get >/dev/null || die "packages: no apt-get (Debian or Ubuntu needed; install: $PACKAGES)"
  export DEBIAN_FRONTEND=noninteractive
  local missing=() p
  for p in $PACKAGES; do installed "$p" || missing+=("$p"); done
  if $check; then
    # Every package must have a candidate; read the lists if there are none.
    if ! apt-get install --simulate --no-install-recommends $PACKAGES >/dev/null 2>&1; then
      [ "$(id -u)" = 0 ] || die "packages: apt-get --simulate cannot resolve $PACKAGES (run apt-get update)"
      apt-get update -qq >/dev/null
      apt-get install --simulate --no-install-recommends $PACKAGES >/dev/null ||
        die "packages: apt-get cannot install $PACKAGES"
    fi
    say "packages: $PACKAGES resolve; ${missing[*]:-none} would be installed"
    return
  fi
  if [ ${#missing[@]} = 0 ]; then
    say "packages: $PACKAGES already installed"
  else
    [ "$(id -u)" = 0 ] || die "packages: installing ${missing[*]} needs root"
    say "packages: installing ${missing[*]}"
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if $slim; then
    apt-get clean
    rm -rf /var/lib/apt/lists/*
  fi
}

step_user() {
  local have byuid
  have=$(getent passwd "$IMAGE_USER" | cut -d: -f3 || true)
  byuid=$(getent passwd "$IMAGE_UID" | cut -d: -f1 || true)
  if [ -z "$have" ] && [ -n "$byuid" ]; then die "user: uid $IMAGE_UID is taken by $byuid"; fi
  if $check; then
    command -v useradd >/dev/null && command -v groupadd >/dev/null || die "user: no useradd/groupadd"
    if [ -n "$have" ]; then say "user: $IMAGE_USER exists (uid $have)"; else say "user: $IMAGE_USER (uid $IMAGE_UID) would be created"; fi
    say "user: would make $IMAGE_HOME, $DATA_DIR/output and $DATA_DIR/files, owned by $IMAGE_USER"
    return
  fi
  [ "$(id -u)" = 0 ] || die "user: creating $IMAGE_USER needs root"
  if [ -z "$have" ]; then
    getent group "$IMAGE_USER" >/dev/null || groupadd --gid "$IMAGE_UID" "$IMAGE_USER"
    useradd --uid "$IMAGE_UID" --gid "$IMAGE_USER" --home-dir "$IMAGE_HOME" --create-home \
      --shell /usr/sbin/nologin "$IMAGE_USER"
    say "user: created $IMAGE_USER (uid $IMAGE_UID)"
  else
    say "user: $IMAGE_USER exists (uid $have)"
  fi
  # Not recursive: an existing data directory may be large, and is the operator's.
  mkdir -p "$IMAGE_HOME" "$DATA_DIR/output" "$DATA_DIR/files"
  chown "$IMAGE_USER:" "$IMAGE_HOME" "$DATA_DIR" "$DATA_DIR/output" "$DATA_DIR/files"
  chmod 0750 "$DATA_DIR" "$DATA_DIR/output" "$DATA_DIR/files"
}

step_entrypoint() {
  mkdir -p "$prefix/bin"
  local ep=$prefix/bin/e2e-mcp-entrypoint
  cat >"$ep.tmp" <<EOF
#!/bin/sh
# e2e-mcp's container entrypoint (written by scripts/install-image.sh).
# With no arguments or flags only: serve MCP over HTTP on E2E_MCP_HTTP
# (default 0.0.0.0:8931), but only with a credential. e2e-mcp itself serves
# every interface without one when told to, and then whoever reaches the
# port drives the browser and the dev servers. A command (version, doctor,
# run FLOW.yaml...) runs as given.
set -eu
case "\${1:-}" in
  ""|-*) ;;
  *) exec "$prefix/bin/e2e-mcp" "\$@" ;;
esac
: "\${E2E_MCP_HTTP:=0.0.0.0:8931}"
export E2E_MCP_HTTP
if [ -z "\${E2E_MCP_AUTH_TOKEN:-}" ] && [ -z "\${E2E_MCP_OAUTH_ISSUER:-}" ]; then
  echo "e2e-mcp: set E2E_MCP_AUTH_TOKEN (clients send 'Authorization: Bearer TOKEN') or the E2E_MCP_OAUTH_* settings: this server listens on \$E2E_MCP_HTTP" >&2
  exit 64
fi
exec "$prefix/bin/e2e-mcp" serve "\$@"
EOF
  chmod 0755 "$ep.tmp"
  mv "$ep.tmp" "$ep"
  say "entrypoint: $ep"
}

# smoke runs the built binary as the image does, on a loopback port of its own.
smoke() {
  local bin=$prefix/bin/e2e-mcp ep=$prefix/bin/e2e-mcp-entrypoint rc=0 addr="" i line
  say "smoke: $("$bin" version)"
  env -u E2E_MCP_AUTH_TOKEN -u E2E_MCP_OAUTH_ISSUER "$ep" >"$work/noauth.log" 2>&1 || rc=$?
  [ "$rc" = 64 ] && grep -q E2E_MCP_AUTH_TOKEN "$work/noauth.log" ||
    die "smoke: the entrypoint without a token exited $rc: $(cat "$work/noauth.log")"
  say "smoke: without E2E_MCP_AUTH_TOKEN the entrypoint refuses to start"
  mkdir -p "$work/home" "$work/data/output" "$work/data/files"
  env HOME="$work/home" E2E_MCP_AUTH_TOKEN="check-$RANDOM$RANDOM" E2E_MCP_HTTP=127.0.0.1:0 \
    E2E_MCP_NO_SANDBOX=true E2E_MCP_STATE_DIR="$work/state" E2E_MCP_OUTPUT_DIR="$work/data/output" \
    E2E_MCP_FILE_ROOTS="$work/data/files" "$ep" 2>"$work/serve.log" &
  server=$!
  # The server logs its bound address once it listens (bounded: 30 s).
  for i in $(seq 300); do
    addr=$(grep -o '"addr":"[^"]*"' "$work/serve.log" | head -1 | cut -d'"' -f4 || true)
    [ -n "$addr" ] && break
    kill -0 "$server" 2>/dev/null || die "smoke: the server exited: $(cat "$work/serve.log")"
    sleep 0.1
  done
  [ -n "$addr" ] || die "smoke: the server did not listen within 30 s: $(cat "$work/serve.log")"
  E2E_MCP_HTTP=$addr "$bin" healthcheck >&2 || die "smoke: healthcheck of $addr failed"
  exec 3<>"/dev/tcp/${addr%:*}/${addr##*:}"
  printf 'POST /mcp HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}' "$addr" >&3
  IFS= read -r line <&3 || true
  exec 3<&-
  [[ "$line" == *" 401 "* ]] || die "smoke: /mcp without the token answered '$line', want 401"
  say "smoke: /mcp without the token: ${line%$'\r'}"
  kill -TERM "$server"
  rc=0
  wait "$server" || rc=$?
  server=""
  [ "$rc" = 0 ] || die "smoke: the server exited $rc on SIGTERM: $(tail -5 "$work/serve.log")"
  say "smoke: SIGTERM stops the server cleanly"
}

for s in "${steps[@]}"; do "step_$s"; done
if $check; then
  if has build && has entrypoint; then smoke; fi
  say "check passed"
fi
