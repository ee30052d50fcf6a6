#!/bin/sh
# Check the release files in $1 (default dist/) for version $2: the install step of the components
# (scripts/install-uplint.sh) installs the binary from them and runs it, and refuses a copy whose
# last byte was changed; the SBOM has the shape consumers read.
set -eu
dist="$(cd "${1:-dist}" && pwd)"
version="${2:?the version}"
script="$(cd "$(dirname "$0")" && pwd)/install-uplint.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export UPLINT_BINARY=release UPLINT_VERSION="$version"

(cd "$work" && mkdir ok && cd ok && UPLINT_RELEASE_URL="file://$dist" sh "$script")
[ "$("$work/ok/.uplint/bin/uplint" --version)" = "uplint $version" ]

mkdir -p "$work/tampered-release" "$work/tampered"
cp "$dist/uplint-x86_64-linux.sha256" "$work/tampered-release/"
cp "$dist/uplint-x86_64-linux" "$work/tampered-release/"
printf 'x' >>"$work/tampered-release/uplint-x86_64-linux"
if (cd "$work/tampered" && UPLINT_RELEASE_URL="file://$work/tampered-release" sh "$script"); then
  echo "verify-release: a tampered binary was installed" >&2
  exit 1
fi
[ ! -e "$work/tampered/.uplint/bin/uplint" ]
echo "verify-release: the tampered copy was refused"
python3 "$(dirname "$script")/sbom.py" --check "$dist/uplint.cdx.json"
echo "verify-release: $dist holds a verified uplint $version"
