# syntax=docker/dockerfile:1
#
# Cellar in a container: built on the Swift toolchain's Debian 12 image, run on
# debian:bookworm-slim with libmicrohttpd12, libsqlite3-0 and libpq5 and nothing else.
#
#   docker build -t cellar . && docker run -p 8080:8080 cellar
#   docker run -v "$PWD/data:/data:ro" -p 8080:8080 cellar serve --database /data/my.db
#
# Debian 12 (bookworm) because it ships libmicrohttpd 0.9.75, the version the server is
# written and tested against (Ubuntu noble ships 1.0.x under another package name). The
# toolchain used to develop and test this repository is Swift 6.3.1; swift:6.3-bookworm
# follows the 6.3 patch releases. Tests/ops/run.sh rehearses the runtime stage without a
# Docker engine: same static build, ldd checked against what this image provides.

# ---------------------------------------------------------------- build
FROM swift:6.3-bookworm AS build

# Unpinned on purpose: the build stage takes Debian's current security updates. libsqlite3-dev
# and libpq-dev are for `cellar serve --database` (CellarDatabase: SQLite files, PostgreSQL);
# the runtime stage has libsqlite3-0 and libpq5.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Dependencies first, so this layer stays cached while only the sources change.
# (Package.resolved is not committed; the wildcard copies it when a local one exists.)
COPY Package.swift Package.resolved* ./
RUN swift package resolve

# The manifest names the test targets too, so their folders must exist.
COPY Sources ./Sources
COPY Tests ./Tests

# The Swift standard library and Foundation are linked in; only libc, libstdc++, libgcc_s,
# libmicrohttpd (with its GnuTLS), SQLite and libpq (with OpenSSL, Kerberos and LDAP) stay dynamic. Symbols are kept for crash backtraces.
RUN swift build -c release --static-swift-stdlib --product cellar \
    && install -D -m 0555 "$(swift build -c release --static-swift-stdlib --show-bin-path)/cellar" /staging/cellar

# ---------------------------------------------------------------- run
FROM debian:bookworm-slim

# Unpinned on purpose: the runtime takes Debian's current security updates for
# libmicrohttpd12, GnuTLS, SQLite, libpq5 and OpenSSL on every build.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 cellar \
    && useradd --system --uid 10001 --gid cellar --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin cellar

WORKDIR /app

# Owned by root and not writable: the server only reads its binary and Public/.
COPY --from=build --chown=root:root /staging/cellar /app/cellar
COPY --chown=root:root Public /app/Public
RUN chmod -R a-w /app/Public

# `docker stop` sends SIGKILL 10 s after SIGTERM unless told otherwise: 8 s of draining leaves
# the server time to exit 0. Raise both together (docker stop --time, Kubernetes'
# terminationGracePeriodSeconds) for longer responses.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    CELLAR_PUBLIC=/app/Public \
    CELLAR_SHUTDOWN_GRACE=8

USER 10001:10001
EXPOSE 8080

# On SIGTERM the server stops accepting, drains responses in flight for up to
# CELLAR_SHUTDOWN_GRACE seconds and exits 0.
STOPSIGNAL SIGTERM

# No curl in the slim image: the binary probes GET /healthz itself (exit 0 or 1).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/app/cellar", "healthcheck", "--timeout", "3"]

ENTRYPOINT ["/app/cellar"]
CMD ["serve"]
