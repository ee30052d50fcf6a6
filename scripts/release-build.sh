#!/bin/sh
# The release's build: the static Linux x86_64 executable, its SHA-256 checksum file and a
# CycloneDX SBOM, into the directory $1 (default dist/), and the wheel that holds the same executable:
#   uplint-x86_64-linux  uplint-x86_64-linux.sha256  uplint.cdx.json  uplint-VERSION-*.whl
# Run by the `build` job of .gitlab-ci.yml on a tag; the tag must be the version in Cargo.toml.
# The profile is `dist` where Cargo.toml has one (the release pipeline's full optimisation), else
# `release`; UPLINT_PROFILE chooses another.
set -eu
out="${1:-dist}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
if [ -n "${CI_COMMIT_TAG:-}" ] && [ "$CI_COMMIT_TAG" != "$version" ]; then
  echo "release-build: the tag $CI_COMMIT_TAG is not the version in Cargo.toml ($version)" >&2
  exit 1
fi
profile="${UPLINT_PROFILE:-}"
if [ -z "$profile" ]; then
  if grep -q '^\[profile\.dist\]' Cargo.toml; then profile=dist; else profile=release; fi
fi
cargo build --profile "$profile" --locked --bin uplint
exe="${CARGO_TARGET_DIR:-target}/$profile/uplint"
# A static executable has no program interpreter (the dynamic loader).
if readelf -lW "$exe" | grep -q 'Requesting program interpreter'; then
  echo "release-build: $exe is dynamically linked; glibc's static archives (libc6-dev) are needed" >&2
  exit 1
fi
mkdir -p "$out"
asset=uplint-x86_64-linux
cp "$exe" "$out/$asset.tmp"
strip "$out/$asset.tmp" 2>/dev/null || true
mv -f "$out/$asset.tmp" "$out/$asset"
[ "$("$out/$asset" --version)" = "uplint $version" ]
(cd "$out" && sha256sum "$asset" >"$asset.sha256")
python3 scripts/sbom.py >"$out/uplint.cdx.json"
python3 scripts/sbom.py --check "$out/uplint.cdx.json"
python3 scripts/build-wheel.py "$out/$asset" "$out"
echo "release-build: $out/$asset ($profile), $asset.sha256, uplint.cdx.json, the wheel"
