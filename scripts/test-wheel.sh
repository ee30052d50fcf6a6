#!/usr/bin/env bash
# The wheel and the python-based pre-commit hooks, without compiling:
#   1. scripts/build-wheel.py packs UPLINT_BIN (default target/release/uplint) into the wheel;
#   2. a fresh venv installs it from that directory only (no index) and runs it;
#   3. the real pre-commit runs the hooks of pre-commit-hook/ (language: python) on a throwaway
#      repository, pip taking the local wheel (PIP_FIND_LINKS, no index): a commit with
#      CI_JOB_JWT_V2 is blocked, the fixed one passes; uplint-fix fixes a renamed field.
# No compiler may run: PATH holds neither cargo nor rustc, so neither can be started (pip, which
# puts `rustc --version` in its user agent when it finds one, finds none), and a stand-in `cargo`
# first on the PATH records any call (a maturin build starts with one): the test fails if it was. The first hook run's time (which installs the environment) is shown.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
bin="${UPLINT_BIN:-$root/target/release/uplint}"
[ -x "$bin" ] || { echo "test-wheel: no $bin (build it with cargo build --release --locked)" >&2; exit 1; }
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

start=$SECONDS
wheel="$(python3 scripts/build-wheel.py "$bin" "$work/wheels")"
echo "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB, packed in $((SECONDS - start)) s"

# A stand-in for cargo, first on the PATH, and a PATH without the real compilers.
mkdir -p "$work/no-compiler"
printf '#!/bin/sh\necho "cargo $*" >>"%s/compiler-calls"\nexit 1\n' "$work" >"$work/no-compiler/cargo"
chmod +x "$work/no-compiler/cargo"
python_dir="$(dirname "$(python3 -c 'import sys; print(sys.executable)')")"
clean_path="$work/no-compiler:$python_dir:/usr/local/bin:/usr/bin:/bin"
for dir in /usr/local/bin /usr/bin /bin "$python_dir"; do
  if [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ]; then
    echo "test-wheel: $dir holds a Rust compiler; cannot run without one" >&2
    exit 1
  fi
done

echo "== the wheel in a fresh venv"
python3 -m venv "$work/venv"
PATH="$clean_path" PIP_NO_INDEX=1 "$work/venv/bin/pip" install --quiet --find-links "$work/wheels" "uplint==$version"
[ "$("$work/venv/bin/uplint" --version)" = "uplint $version" ]
"$work/venv/bin/uplint" scan examples/upgrade-audit --current 16.5 --target 17.0 --format concise >"$work/scan.txt" || [ $? -eq 1 ]
grep -q "ci-job-jwt" "$work/scan.txt"
echo "  uplint $version from the wheel: $(wc -l <"$work/scan.txt") findings on the sample repository"

echo "== the python hooks with the real pre-commit"
source scripts/tools.sh
venv="$(tools_venv pre-commit-venv pre-commit)"
echo "  $("$venv/bin/pre-commit" --version)"
hooks="$work/uplint-pre-commit"
cp -R pre-commit-hook "$hooks"
git -C "$hooks" init --quiet
git -C "$hooks" add -A
git -C "$hooks" -c user.email=ci@example.com -c user.name=CI commit --quiet -m "hooks"

export PATH="$venv/bin:$clean_path" PIP_FIND_LINKS="$work/wheels" PIP_NO_INDEX=1
export PRE_COMMIT_HOME="$work/pre-commit-home"
repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
git init --quiet
git config user.email ci@example.com
git config user.name CI
cat >.gitlab-ci.yml <<'YML'
deploy:
  script:
    - vault write auth/jwt/login role=deploy jwt=$CI_JOB_JWT_V2
YML
git add .gitlab-ci.yml
start=$SECONDS
if pre-commit try-repo "$hooks" uplint >out.txt 2>&1; then
  cat out.txt
  echo "test-wheel: the hook let CI_JOB_JWT_V2 through" >&2
  exit 1
fi
first=$((SECONDS - start))
cat out.txt
grep -q "ci-job-jwt" out.txt || { echo "test-wheel: no ci-job-jwt finding" >&2; exit 1; }
echo "  blocked CI_JOB_JWT_V2; the first run, installing the hook's environment, took $first s"
cat >.gitlab-ci.yml <<'YML'
deploy:
  id_tokens:
    VAULT_ID_TOKEN:
      aud: https://vault.example.com
  script:
    - vault write auth/jwt/login role=deploy jwt=$VAULT_ID_TOKEN
YML
git add .gitlab-ci.yml
pre-commit try-repo "$hooks" uplint
git commit --quiet -m "deploy with ID tokens"
echo "  passed the fix"

mkdir -p queries
echo 'query { group(fullPath: "g") { issues { totalWeight } } }' >queries/weight.graphql
git add queries/weight.graphql
# The range, for the fixes to be safe, from the configuration file the hook finds.
printf 'target: "17.0"\ncurrent: "16.5"\n' >.uplint.yml
git add .uplint.yml
if pre-commit try-repo "$hooks" uplint-fix >out.txt 2>&1; then
  cat out.txt
  echo "test-wheel: uplint-fix passed although it should change a file" >&2
  exit 1
fi
grep -q totalIssueWeight queries/weight.graphql || { cat out.txt; echo "test-wheel: not fixed" >&2; exit 1; }
git add queries/weight.graphql
pre-commit try-repo "$hooks" uplint-fix
echo "  uplint-fix fixed the file, failed once, then passed"

if [ -s "$work/compiler-calls" ]; then
  cat "$work/compiler-calls"
  echo "test-wheel: a compiler was called" >&2
  exit 1
fi
if grep -rqs "Compiling\|maturin" "$PRE_COMMIT_HOME"/*.log 2>/dev/null; then
  echo "test-wheel: pre-commit's log shows a build" >&2
  exit 1
fi
for tool in cargo rustc; do
  if [ "$(command -v "$tool" || true)" != "$([ "$tool" = cargo ] && echo "$work/no-compiler/cargo")" ]; then
    echo "test-wheel: $tool is on the PATH: $(command -v "$tool")" >&2
    exit 1
  fi
done
echo "test-wheel: no cargo or rustc ran (none on the PATH, the stand-in cargo never called); the wheel and the python hooks pass"
