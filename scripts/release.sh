#!/usr/bin/env bash
# make release: one archive per platform in dist/ (tar.gz, or zip for
# Windows: the binary, README.md, LICENSE if present, and docs/*.md, which the
# README links to), SHA256SUMS over them,
# and dist/server.json with the version filled in. The Makefile passes
# PLATFORMS and the stamp (VERSION, COMMIT, DATE: the commit's time, so two
# runs on one commit give the same bytes: sorted entries, fixed times and
# owners, gzip -n).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${GO:=go}" "${PLATFORMS:?}" "${VERSION:?no version: make release needs a git checkout}" "${COMMIT:?}" "${DATE:?}"
export LC_ALL=C
ldflags="-s -w -X main.version=$VERSION -X main.commit=$COMMIT -X main.date=$DATE"
rm -rf dist
stage=dist/.stage
mkdir -p "$stage"
docs=()
for f in README.md LICENSE docs/*.md; do [ -f "$f" ] && docs+=("$f"); done
for p in $PLATFORMS; do
  os=${p%/*} arch=${p#*/}
  name=e2e-mcp_${VERSION}_${os}_${arch}
  exe=e2e-mcp
  [ "$os" = windows ] && exe=e2e-mcp.exe
  mkdir -p "$stage/$name"
  echo "build $p"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -ldflags "$ldflags" -o "$stage/$name/$exe" ./cmd/e2e-mcp
  mkdir -p "$stage/$name/docs"
  for f in "${docs[@]}"; do cp "$f" "$stage/$name/$f" && chmod 0644 "$stage/$name/$f"; done
  chmod 0755 "$stage/$name" "$stage/$name/docs" "$stage/$name/$exe"
  if [ "$os" = windows ]; then
    "$GO" run ./scripts/release zip "dist/$name.zip" "$DATE" "$stage/$name"
  else
    tar --sort=name --mtime="$DATE" --owner=0 --group=0 --numeric-owner --format=gnu \
      -C "$stage" -cf - "$name" | gzip -n -9 >"dist/$name.tar.gz"
  fi
done
(cd dist && sha256sum -- *.tar.gz *.zip >SHA256SUMS)
# server.json carries the placeholder version 0.0.0-dev (and image tag).
sed "s/0\.0\.0-dev/${VERSION#v}/g" server.json >dist/server.json
rm -rf "$stage"
echo "dist/:"; ls -l dist
