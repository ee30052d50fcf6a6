#!/bin/sh
# Puts the uplint executable at $UPLINT_DIR/bin/uplint (default .uplint/bin/uplint), for the jobs
# of uplint's CI/CD components (templates/*.yml embed this script verbatim; tests/templates.rs
# checks that they do). Where it comes from, by UPLINT_BINARY:
#   release  the release's static Linux x86_64 executable, downloaded from UPLINT_RELEASE_URL
#            (default: the generic package registry of the project UPLINT_RELEASE_PROJECT on this
#            instance, package uplint, version UPLINT_VERSION) with its .sha256 file; a binary
#            whose checksum does not match is refused and nothing is installed;
#   source   built with `cargo install --locked` from the git URL UPLINT_SOURCE at the tag
#            UPLINT_VERSION (other platforms; the job's image needs Rust);
#   path     copied from UPLINT_PATH, a binary already on the runner.
# A release or source binary of the same version left by an earlier job (the job's cache) is used
# as it is.
set -eu
dir="${UPLINT_DIR:-.uplint}"
how="${UPLINT_BINARY:-release}"
version="${UPLINT_VERSION:?set UPLINT_VERSION, the uplint version to install}"
asset=uplint-x86_64-linux
mkdir -p "$dir/bin"
stamp="$dir/bin/uplint.installed"

if [ "$how" != path ] && [ -x "$dir/bin/uplint" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$how $version" ]; then
  echo "uplint $version from the cache"
  exit 0
fi
rm -f "$stamp"

fetch() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --output "$2" "$1"
  else
    wget -q -O "$2" "$1"
  fi
}

case "$how" in
  release)
    if [ "$(uname -s) $(uname -m)" != "Linux x86_64" ]; then
      echo "uplint: no release binary for $(uname -s) $(uname -m); use the input binary: source" >&2
      exit 1
    fi
    url="${UPLINT_RELEASE_URL:-}"
    if [ -z "$url" ]; then
      project="$(printf '%s' "${UPLINT_RELEASE_PROJECT:-uplint/uplint}" | sed 's|/|%2F|g')"
      url="${CI_API_V4_URL:?CI_API_V4_URL or UPLINT_RELEASE_URL}/projects/$project/packages/generic/uplint/$version"
    fi
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    echo "uplint $version from $url"
    fetch "$url/$asset" "$tmp/$asset"
    fetch "$url/$asset.sha256" "$tmp/$asset.sha256"
    # The checksum file must name the asset and nothing else: `sha256sum -c` checks the files a
    # checksum file names, so one naming another file would check nothing of the download.
    if [ "$(wc -l <"$tmp/$asset.sha256")" -ne 1 ] || ! grep -Eq "^[0-9a-f]{64}  $asset\$" "$tmp/$asset.sha256"; then
      echo "uplint: $url/$asset.sha256 is not the SHA-256 line of $asset; nothing installed" >&2
      exit 1
    fi
    if ! (cd "$tmp" && sha256sum -c "$asset.sha256" >/dev/null 2>&1); then
      echo "uplint: the SHA-256 of $url/$asset does not match $asset.sha256: refused, nothing installed" >&2
      exit 1
    fi
    chmod 755 "$tmp/$asset"
    mv -f "$tmp/$asset" "$dir/bin/uplint"
    ;;
  source)
    cargo install --locked --root "$dir" --git "${UPLINT_SOURCE:?set UPLINT_SOURCE, a git URL of uplint}" --tag "$version" uplint
    ;;
  path)
    cp "${UPLINT_PATH:?set UPLINT_PATH, the path of an uplint binary}" "$dir/bin/uplint.$$"
    chmod 755 "$dir/bin/uplint.$$"
    mv -f "$dir/bin/uplint.$$" "$dir/bin/uplint"
    ;;
  *)
    echo "uplint: UPLINT_BINARY is '$how'; it must be release, source or path" >&2
    exit 2
    ;;
esac
[ "$how" = path ] || echo "$how $version" >"$stamp"
"$dir/bin/uplint" --version
