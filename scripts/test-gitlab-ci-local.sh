#!/usr/bin/env bash
# Run both CI/CD catalog components of templates/ in a real pipeline runner: gitlab-ci-local (npm)
# with its shell executor, offline, against local git repositories cloned through file:// URLs.
# Each pipeline includes the component as the catalog does, from the project itself at its commit:
#   include:
#     - component: $CI_SERVER_FQDN/$CI_PROJECT_PATH/NAME@$CI_COMMIT_SHA
# (gitlab-ci-local 4.65.1 reads such a "local component" from templates/ of the checkout).
#   1. fleet-audit over three repositories: the merged HTML audit must list every project with its
#      findings, and the merged JSON hold exactly each one's findings;
#   2. uplint on the sample repository: the Code Quality report must validate against the Code
#      Quality schema and hold the scan's findings;
#   3. uplint on a repository that commits links at its report paths to files outside the
#      checkout: the job must fail with the refusal and write nothing outside.
# The uplint binary is UPLINT_BIN (default: target/release/uplint, built if absent), published in a
# release directory with its SHA-256 file: the components download it through their release-url
# input and check it, as they do from the package registry.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
if [ -z "${UPLINT_BIN:-}" ]; then
  cargo build --release --locked --quiet
  UPLINT_BIN="$root/target/release/uplint"
fi
bin="$(cd "$(dirname "$UPLINT_BIN")" && pwd)/$(basename "$UPLINT_BIN")"

source scripts/tools.sh
# gitlab-ci-local 4.65.1: the newest release that runs on Node 18 and 20 (later ones need Node 22).
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
echo "gitlab-ci-local $("$glci" --version)"
# It copies the repository into its build directory with rsync.
command -v rsync >/dev/null 2>&1 || apt_install rsync

# The Code Quality schema check below: jsonschema in a venv of target/tools.
schema_python="$(tools_venv python-jsonschema jsonschema)/bin/python"
work="$(mktemp -d)"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
# The release as the package registry serves it: the executable and its checksum file.
release="$work/release/$version"
mkdir -p "$release"
cp "$bin" "$release/uplint-x86_64-linux"
(cd "$release" && sha256sum uplint-x86_64-linux >uplint-x86_64-linux.sha256)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=uplint GIT_AUTHOR_EMAIL=uplint@example.com
export GIT_COMMITTER_NAME=uplint GIT_COMMITTER_EMAIL=uplint@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME="$work/home"
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global user.name uplint
git config --global user.email uplint@example.com
git config --global advice.detachedHead false

# A git repository at $1 holding the files of $2, with an origin on a GitLab host ($3: path).
repo() {
  mkdir -p "$1"
  cp -R "$2/." "$1/"
  git -C "$1" init --quiet
  git -C "$1" remote add origin "git@gitlab.example.com:$3.git"
  git -C "$1" add -A
  git -C "$1" commit --quiet -m "initial"
}

# Run the pipeline in $1 with gitlab-ci-local; $2: the jobs that must fail with status 1 (they
# found removed items), every other job must pass.
run_pipeline() {
  local dir="$1" failing="$2"; shift 2
  local status=0
  (cd "$dir" && "$glci" --force-shell-executor --shell-isolation --home "$work/home" "$@") >"$dir.log" 2>&1 || status=$?
  local failed
  failed="$(sed -n 's/^ FAIL  \([^ ]*\).*/\1/p' "$dir.log" | sort -u | tr '\n' ' ')"
  if [ "$failed" != "$failing" ] || { [ -z "$failing" ] && [ "$status" -ne 0 ]; } \
    || { [ -n "$failing" ] && ! grep -q "finished in .* FAIL 1 *$" "$dir.log"; }; then
    cat "$dir.log"
    echo "gitlab-ci-local in $dir: failed jobs '$failed', expected '$failing' (status $status)" >&2
    exit 1
  fi
}

# The include of component $1 of the project itself, with the inputs that follow (YAML lines).
component() {
  printf 'include:\n  - component: $CI_SERVER_FQDN/$CI_PROJECT_PATH/%s@$CI_COMMIT_SHA\n    inputs:\n' "$1"
  printf '      release-url: "file://%s"\n' "$release"
  shift
  printf '      %s\n' "$@"
}

echo "== fleet-audit component over three repositories"
declare -A trees=(
  [demo/upgrade-audit]=examples/upgrade-audit
  [demo/ci-templates]=tests/fixtures/scan/ci
  [platform/helm-charts]=tests/fixtures/scan/helm
)
projects=""
for name in "${!trees[@]}"; do
  repo "$work/repos/$name" "$root/${trees[$name]}" "$name"
  projects+="file://$work/repos/$name $name"$'\n'
done
fleet="$work/fleet"
mkdir -p "$fleet/templates"
cp templates/*.yml "$fleet/templates/"
component fleet-audit 'target: "18.0"' 'current: "16.0"' >"$fleet/.gitlab-ci.yml"
printf '# the fleet\n%s' "$projects" | sort >"$fleet/uplint-projects.txt"
printf '.gitlab-ci-local/\n.uplint/\n' >"$fleet/.gitignore"
git -C "$fleet" init --quiet
git -C "$fleet" remote add origin git@gitlab.example.com:platform/upgrade.git
git -C "$fleet" add -A
git -C "$fleet" commit --quiet -m "fleet audit"
run_pipeline "$fleet" ""
audit="$fleet/.gitlab-ci-local/artifacts/uplint-fleet-audit/uplint-fleet-audit.html"
merged="$(dirname "$audit")/uplint-fleet-audit.json"
for name in "${!trees[@]}"; do
  # What a scan of the project itself finds, to compare with the pipeline's merged report.
  "$bin" scan "$work/repos/$name" --no-config --project "$name" --target 18.0 --current 16.0 \
    --format json --output "$work/expected-${name//\//_}.json" --exit-zero
done
python3 - "$audit" "$merged" "$work" "${!trees[@]}" <<'PY'
import json, sys
audit_path, merged_path, work, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
html = open(audit_path).read()
merged = json.load(open(merged_path))
assert sorted(p["name"] for p in merged["projects"]) == sorted(names), merged["projects"]
for name in names:
    expected = json.load(open(f"{work}/expected-{name.replace('/', '_')}.json"))
    assert expected["findings"], f"{name}: the test repository must have findings"
    want = [dict(f, path=f"{name}/{f['path']}") for f in expected["findings"]]
    got = [f for f in merged["findings"] if f["path"].startswith(name + "/")]
    assert got == want, f"{name}: the merged audit differs from a scan of the project"
    assert f'">{name}</a></td>' in html, f"{name} not in the audit's project table"
    for f in want:
        assert f"<code>{f['path']}:{f['line']}:{f['column']}</code>" in html, f"{f['path']} not in the audit"
    print(f"  {name}: {len(want)} findings in the merged audit")
PY

echo "== the same fleet over parallel:matrix, one job per project"
matrix="$work/fleet-matrix"
cp -R "$fleet" "$matrix"
rm -rf "$matrix/.gitlab-ci-local" "$matrix/uplint-projects.txt"
{
  component fleet-audit 'target: "18.0"' 'current: "16.0"'
  printf '\nuplint-scan:\n  parallel:\n    matrix:\n      - UPLINT_PROJECT:\n'
  printf '%s' "$projects" | sort | sed -e '/^$/d' -e 's/.*/          - "&"/'
} >"$matrix/.gitlab-ci.yml"
git -C "$matrix" add -A
git -C "$matrix" commit --quiet -m "one job per project"
run_pipeline "$matrix" ""
cmp "$merged" "$matrix/.gitlab-ci-local/artifacts/uplint-fleet-audit/uplint-fleet-audit.json"
jobs="$(grep -c '^uplint-scan: \[file:.*\] *finished' "$matrix.log")"
[ "$jobs" -eq "${#trees[@]}" ] || { echo "$jobs matrix jobs, expected ${#trees[@]}" >&2; exit 1; }
echo "  $jobs jobs, the same merged audit"

echo "== uplint component on the sample repository"
single="$work/single"
repo "$single" "$root/examples/upgrade-audit" demo/upgrade-audit
mkdir -p "$single/templates"
cp templates/*.yml "$single/templates/"
# The sample repository's own .gitlab-ci.yml is what it scans; the pipeline comes from another file.
component uplint 'target: "17.0"' 'formats: sarif html' >"$single/uplint-pipeline.yml"
# (Not .gitlab-ci-local/ in .gitignore: the job runs below it, and parent ignore files apply.)
printf '.uplint/\n' >"$single/.gitignore"
git -C "$single" add -A
git -C "$single" commit --quiet -m "uplint job"
"$bin" scan "$single" --no-config --target 17.0 --exclude ".uplint/**" --format codequality \
  --output "$work/expected-cq.json" --exit-zero
run_pipeline "$single" "uplint " --file uplint-pipeline.yml uplint
grep -q "uplint $version from file://$release" "$single.log"
# This gitlab-ci-local exports artifacts:paths only, not artifacts:reports: the report is read
# where the job wrote it.
report="$single/.gitlab-ci-local/builds/uplint/gl-code-quality-report.json"
for artifact in uplint-audit.html uplint.sarif; do
  [ -f "$single/.gitlab-ci-local/artifacts/uplint/$artifact" ] || { echo "no $artifact artifact" >&2; exit 1; }
done
python3 - "$single/.gitlab-ci-local/builds/uplint/uplint-junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
print(f"  {sum(1 for _ in cases)} JUnit test cases")
PY
"$schema_python" - "$report" "$root/tests/fixtures/schemas/codeclimate.json" "$work/expected-cq.json" <<'PY'
import json, sys
import jsonschema
report, schema, expected = (json.load(open(p)) for p in sys.argv[1:])
# The schema describes one issue; the report is an array of them.
assert isinstance(report, list)
for issue in report:
    jsonschema.validate(issue, schema)
assert len({i["fingerprint"] for i in report}) == len(report), "fingerprints are unique"
assert report, "the sample repository has findings"
assert report == expected, "the pipeline's Code Quality report differs from a scan"
print(f"  {len(report)} Code Quality issues, valid against the schema")
PY

echo "== the binary comes from the cache in the next pipeline"
run_pipeline "$single" "uplint " --file uplint-pipeline.yml uplint
grep -q "uplint $version from the cache" "$single.log"
echo "  uplint from the cache, nothing downloaded"

echo "== inputs: a binary on the runner, a window, other formats, no test report, never failing"
other="$work/single-inputs"
cp -R "$single" "$other"
rm -rf "$other/.gitlab-ci-local" "$other/.uplint"
component uplint 'target: "17.0"' 'current: "16.5"' 'fail-on: never' 'formats: json markdown' \
  'tests: false' 'binary: path' "path: \"$bin\"" 'args: --select ci' >"$other/uplint-pipeline.yml"
git -C "$other" commit --quiet -am "other inputs"
"$bin" scan "$other" --no-config --target 17.0 --current 16.5 --select ci --exclude ".uplint/**" \
  --format json --output "$work/expected-inputs.json" --exit-zero
run_pipeline "$other" "" --file uplint-pipeline.yml uplint
python3 - "$other/.gitlab-ci-local/builds/uplint" "$work/expected-inputs.json" <<'PY'
import json, os, sys
build = sys.argv[1]
report = json.load(open(f"{build}/uplint.json"))
expected = json.load(open(sys.argv[2]))
assert report["current"] == "16.5" and report["target"] == "17.0", (report["current"], report["target"])
assert report["findings"] and report["findings"] == expected["findings"], "the findings of --select ci in (16.5, 17.0]"
assert len(report["findings"]) < 18, "a narrower scan than the default one"
assert os.path.exists(f"{build}/uplint.md"), "the markdown report"
assert not os.path.exists(f"{build}/uplint-junit.xml"), "tests: false writes no JUnit report"
print(f"  {len(report['findings'])} ci findings in (16.5, 17.0], the job passed with fail-on: never")
PY

echo "== a repository with links at the report paths: refused, nothing written outside"
linked="$work/linked"
repo "$linked" "$root/examples/upgrade-audit" demo/linked
mkdir -p "$linked/templates"
cp templates/*.yml "$linked/templates/"
component uplint 'target: "17.0"' 'binary: path' "path: \"$bin\"" >"$linked/uplint-pipeline.yml"
printf '.uplint/\n' >"$linked/.gitignore"
victim="$work/victim/.ssh"
mkdir -p "$victim"
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA victim@host\n' >"$victim/authorized_keys"
cp "$victim/authorized_keys" "$work/authorized_keys.before"
# Absolute targets: the job's copy of the checkout points at the same files.
ln -s "$victim/authorized_keys" "$linked/uplint-junit.xml"
ln -s "$victim/gl-code-quality-report.json" "$linked/gl-code-quality-report.json"
git -C "$linked" add -A
git -C "$linked" commit --quiet -m "links at the report paths"
status=0
(cd "$linked" && "$glci" --force-shell-executor --shell-isolation --home "$work/home" \
  --file uplint-pipeline.yml uplint) >"$linked.log" 2>&1 || status=$?
failed="$(sed -n 's/^ FAIL  \([^ ]*\).*/\1/p' "$linked.log" | sort -u | tr '\n' ' ')"
if [ "$failed" != "uplint " ] || [ "$status" -eq 0 ] \
  || ! grep -q "is a symbolic link inside the scanned tree" "$linked.log" \
  || ! cmp -s "$victim/authorized_keys" "$work/authorized_keys.before" \
  || [ -e "$victim/gl-code-quality-report.json" ] || [ "$(ls -A "$victim")" != authorized_keys ]; then
  cat "$linked.log"
  ls -la "$victim"
  echo "the linked repository's job: failed jobs '$failed' (status $status); the refusal and an unchanged $victim were expected" >&2
  exit 1
fi
grep -m1 "is a symbolic link inside the scanned tree" "$linked.log" | sed 's/^/  /'
echo "  the job failed with the refusal; $victim is unchanged"

echo "== a tampered release binary fails the job"
printf 'tampered' >>"$release/uplint-x86_64-linux"
rm -rf "$single/.gitlab-ci-local"
run_pipeline "$single" "uplint " --file uplint-pipeline.yml uplint
grep -q "does not match uplint-x86_64-linux.sha256: refused" "$single.log"
! grep -q "uplint $version from the cache" "$single.log"
echo "  refused"
echo "gitlab-ci-local: both components pass"
