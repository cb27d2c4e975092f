# The release image (.github/workflows/release.yml): the static musl binary the release
# built for the platform, in the same empty image as ../Dockerfile (root-owned /tailor,
# user nobody 65534:65534, nothing else). Built for linux/amd64 and linux/arm64 at once.
FROM scratch
ARG TARGETARCH
COPY docker/passwd docker/group /etc/
COPY --chmod=0755 dist/image/tailor-${TARGETARCH} /tailor
USER 65534:65534
ENTRYPOINT ["/tailor"]
LABEL org.opencontainers.image.title="tailor" \
      org.opencontainers.image.description="KRM function that tailors Kubernetes manifests to a target cluster" \
      org.opencontainers.image.licenses="Apache-2.0"
