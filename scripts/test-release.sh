#!/usr/bin/env bash
# The release pipeline's build jobs (.gitlab-ci.yml: build, verify) in gitlab-ci-local with its
# shell executor, in this checkout, as on a tag of the version in Cargo.toml: they must leave
# dist/ with the static executable, its SHA-256 file and the CycloneDX SBOM, and the verify job
# must see the install step refuse a tampered copy.
# The build reuses target/: UPLINT_PROFILE (default release, which .ci/run has built) is the
# profile, so nothing is compiled again when it is up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
source scripts/tools.sh
glci="$(command -v gitlab-ci-local || true)"
if [ -z "$glci" ]; then
  tools="$root/target/tools/gitlab-ci-local"
  glci="$tools/node_modules/.bin/gitlab-ci-local"
  if [ ! -x "$glci" ]; then
    mkdir -p "$tools"
    (cd "$tools" && npm install --silent --no-audit --no-fund --prefix "$tools" gitlab-ci-local@4.65.1 >/dev/null)
    installed "npm gitlab-ci-local@4.65.1" "target/tools/gitlab-ci-local"
  fi
fi
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
rm -rf dist .gitlab-ci-local
log="$root/target/test-release.log"
start=$SECONDS
if ! "$glci" --force-shell-executor --variable "CI_COMMIT_TAG=$version" \
  --variable "UPLINT_PROFILE=${UPLINT_PROFILE:-release}" build verify >"$log" 2>&1; then
  cat "$log"
  echo "test-release: the build or verify job failed" >&2
  exit 1
fi
grep -q "verify-release: the tampered copy was refused" "$log"
grep -q "build .*finished" "$log" && grep -q "verify .*finished" "$log"
for file in uplint-x86_64-linux uplint-x86_64-linux.sha256 uplint.cdx.json; do
  [ -s "dist/$file" ] || { echo "test-release: no dist/$file" >&2; exit 1; }
done
(cd dist && sha256sum -c uplint-x86_64-linux.sha256)
if readelf -lW dist/uplint-x86_64-linux | grep -q 'program interpreter'; then
  echo "test-release: dist/uplint-x86_64-linux is not static" >&2
  exit 1
fi
python3 scripts/sbom.py --check dist/uplint.cdx.json
wheel="dist/uplint-$version-py3-none-manylinux_2_17_x86_64.whl"
[ -s "$wheel" ] || { echo "test-release: no $wheel" >&2; exit 1; }
python3 - "$wheel" "$version" <<'PY'
import base64, hashlib, sys, zipfile
wheel, version = sys.argv[1:]
zf = zipfile.ZipFile(wheel)
record = zf.read(f"uplint-{version}.dist-info/RECORD").decode().splitlines()
for line in record:
    name, digest, size = line.rsplit(",", 2)
    if not digest:
        continue
    data = zf.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(data), f"RECORD of {name}"
assert f"uplint-{version}.data/scripts/uplint" in zf.namelist()
print(f"  {wheel}: RECORD matches its {len(record) - 1} files")
PY
echo "test-release: build and verify passed in $((SECONDS - start)) s; dist/: $(ls dist | tr '\n' ' ')"
