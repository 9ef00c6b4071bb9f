# e2e-mcp as a container: MCP over Streamable HTTP on port 8931 (/mcp, with
# /health and /metrics), driving Debian's Chromium. Every step but the Go
# toolchain's is scripts/install-image.sh, which a CI image or a server runs
# without Docker; CI checks those steps with make image-check. README,
# "Container", says how to run it.
#
#   docker build -t e2e-mcp --build-arg VERSION=$(git describe --tags --always) .
#   docker run --rm -p 8931:8931 --shm-size=1g -e E2E_MCP_AUTH_TOKEN=... -v e2e-data:/data e2e-mcp

# The Go of go.mod, on the Debian release of the runtime stage.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
RUN scripts/install-image.sh --prefix /out --version "$VERSION" build

FROM debian:bookworm-slim
COPY scripts/install-image.sh /tmp/install-image.sh
COPY --from=build /out/bin/e2e-mcp /usr/local/bin/e2e-mcp
RUN /tmp/install-image.sh --prefix /usr/local --slim packages user entrypoint && rm /tmp/install-image.sh
# Chromium's sandbox needs user namespaces, which Docker's default seccomp
# profile forbids: the container is the boundary (README, "Container").
# Tools write only under /data/output; uploads are read from /data/files.
ENV HOME=/home/e2e \
    E2E_MCP_HTTP=0.0.0.0:8931 \
    E2E_MCP_NO_SANDBOX=true \
    E2E_MCP_OUTPUT_DIR=/data/output \
    E2E_MCP_FILE_ROOTS=/data/files
USER 10001:10001
WORKDIR /home/e2e
VOLUME /data
EXPOSE 8931
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 CMD ["/usr/local/bin/e2e-mcp", "healthcheck"]
# tini reaps the processes Chromium leaves to PID 1 and passes signals on
# (SIGTERM drains calls in flight).
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/e2e-mcp-entrypoint"]
