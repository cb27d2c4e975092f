# tailor: a static binary in an empty image, running as nobody (65534).
#
# Runtime layout (identical for both ways of building):
#   /tailor                  static binary, root-owned, mode 0755 (ENTRYPOINT)
#   /etc/passwd, /etc/group  root and nobody/nogroup only, so `--user nobody` (what kpt passes) resolves
#   USER 65534:65534         numeric, so Kubernetes' runAsNonRoot can verify it
# Nothing else: no shell, no libc, nothing written at runtime, works with --read-only.
#
# (a) Here, from a binary built on the host; pulls no base image:
#       RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --target x86_64-unknown-linux-gnu
#       podman build --target host -t localhost/tailor:dev .
#     --build-arg TAILOR_BIN=<path in the context> picks another binary (scripts/build-image.sh stages one).
# (b) Anywhere with registry access, a normal multi-stage build (the default, last stage):
#       docker build -t tailor .

ARG RUST_IMAGE=rust:1-bookworm

# ---- build stage (only for (b)) --------------------------------------------------------------
FROM ${RUST_IMAGE} AS build
WORKDIR /src
COPY . .
RUN set -eu; \
    locked=""; [ -f Cargo.lock ] && locked="--locked"; \
    RUSTFLAGS="-C target-feature=+crt-static" \
      cargo build --release $locked --bin tailor --target x86_64-unknown-linux-gnu; \
    mkdir -p /out; \
    cp target/x86_64-unknown-linux-gnu/release/tailor /out/tailor; \
    strip /out/tailor; \
    chmod 0755 /out/tailor; \
    /out/tailor --help >/dev/null || true

# ---- common runtime base ---------------------------------------------------------------------
FROM scratch AS base
COPY docker/passwd docker/group /etc/
USER 65534:65534
ENTRYPOINT ["/tailor"]
LABEL org.opencontainers.image.title="tailor" \
      org.opencontainers.image.description="KRM function that tailors Kubernetes manifests to a target cluster" \
      org.opencontainers.image.licenses="Apache-2.0"

# ---- (a) host-built binary: podman build --target host ----------------------------------------
FROM base AS host
ARG TAILOR_BIN=target/x86_64-unknown-linux-gnu/release/tailor
COPY ${TAILOR_BIN} /tailor

# ---- (b) default: binary from the build stage ------------------------------------------------
FROM base AS release
COPY --from=build /out/tailor /tailor
