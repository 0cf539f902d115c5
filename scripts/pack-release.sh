#!/usr/bin/env bash
# Packs the release archive other teams download: a `conformance` binary with the Swift runtime
# and Foundation linked in statically (it needs only the C and C++ runtimes every glibc Linux
# has, no Swift toolchain), with vectors/, SPEC.md and schemas/ beside it.
#
#   scripts/pack-release.sh [OUT_DIR]      (default: dist; RELEASE_SCRATCH=DIR builds in DIR)
#
# Prints the archive's path as its last line. The binary finds the vectors packed beside it, so
# `conformance-<version>-linux-<arch>/conformance run -- ./my-testee` works from any directory.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
mkdir -p "$out"

# RELEASE_SCRATCH: a build directory of its own (CI builds the release beside the debug build and
# swift test, and two SwiftPM processes cannot share one build directory).
scratch=()
[ -n "${RELEASE_SCRATCH:-}" ] && scratch=(--scratch-path "$RELEASE_SCRATCH")
swift build -c release --static-swift-stdlib "${scratch[@]}" --product conformance >&2
bin="$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)/conformance"
version="$("$bin" --version)"
name="conformance-$version-linux-$(uname -m)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name"
cp "$bin" "$stage/$name/conformance"
strip "$stage/$name/conformance" 2>/dev/null || true
cp -R vectors schemas SPEC.md "$stage/$name/"
cat > "$stage/$name/README.txt" <<TXT
Pixie conformance suite $version: the runner, the golden vectors, SPEC.md and the protocol schemas.

  ./conformance selftest -- ./my-testee          # protocol checks first (SPEC.md §6.11)
  ./conformance run --report junit=out.xml -- ./my-testee
  ./conformance run --require-all -- ./my-testee # release gate: every skipped case fails
  ./conformance --help

The vectors beside this binary are used unless --vectors DIR says otherwise.
TXT

# A reproducible archive: sorted names, fixed owner and time.
archive="$(cd "$out" && pwd)/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2026-01-01 00:00:00Z' \
    -C "$stage" -cf - "$name" | gzip -n -9 > "$archive"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$archive"
