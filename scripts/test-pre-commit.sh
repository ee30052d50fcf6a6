#!/usr/bin/env bash
# The real pre-commit framework runs uplint's hook from this repository (`pre-commit try-repo`)
# on a throwaway git repository: a commit that adds CI_JOB_JWT_V2 is blocked, the fixed one
# goes through; the `uplint-fix` hook fixes a renamed GraphQL field and fails once, then passes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
source scripts/tools.sh
venv="$(tools_venv pre-commit-venv pre-commit)"
export PATH="$venv/bin:$PATH"
# Reuse this repository's build directory for the hook's `cargo install`.
export CARGO_TARGET_DIR="$repo/target/pre-commit"
# The hook's behaviour is under test here, not the optimised binary a user's `cargo install`
# builds (fat LTO, one codegen unit: about two minutes a build on two cores). `try-repo` copies
# the repository anew for each of its four runs, so each run rebuilds uplint: unoptimised and
# incremental, the four builds take under two minutes together instead of ten.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=0
export CARGO_PROFILE_RELEASE_LTO=off
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256
export CARGO_PROFILE_RELEASE_DEBUG=0
export CARGO_PROFILE_RELEASE_INCREMENTAL=true
export PRE_COMMIT_HOME="$repo/target/tools/pre-commit-cache"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
git init --quiet
git config user.email ci@example.com
git config user.name CI
cat > .gitlab-ci.yml <<'YML'
deploy:
  script:
    - vault write auth/jwt/login role=deploy jwt=$CI_JOB_JWT_V2
YML
git add .gitlab-ci.yml
if pre-commit try-repo "$repo" uplint > out.txt 2>&1; then
  cat out.txt
  echo "pre-commit: the hook let CI_JOB_JWT_V2 through" >&2
  exit 1
fi
cat out.txt
grep -q "ci-job-jwt" out.txt || { echo "pre-commit: no ci-job-jwt finding in the output" >&2; exit 1; }
cat > .gitlab-ci.yml <<'YML'
deploy:
  id_tokens:
    VAULT_ID_TOKEN:
      aud: https://vault.example.com
  script:
    - vault write auth/jwt/login role=deploy jwt=$VAULT_ID_TOKEN
YML
git add .gitlab-ci.yml
pre-commit try-repo "$repo" uplint
git commit --quiet -m "deploy with ID tokens"
echo "pre-commit: blocked CI_JOB_JWT_V2, passed the fix"

# uplint-fix: the hook rewrites totalWeight (safe: the range starts at 16.5) and fails because
# it changed the file; with the fix added, it passes.
cat > .uplint.yml <<'YML'
target: "17.0"
current: "16.5"
YML
mkdir -p queries
query='query { group(fullPath: "g") { issues { totalWeight } } }'
echo "$query" > queries/weight.graphql
git add .uplint.yml queries/weight.graphql
if pre-commit try-repo "$repo" uplint-fix > out.txt 2>&1; then
  cat out.txt
  echo "pre-commit: uplint-fix passed although it changed a file" >&2
  exit 1
fi
cat out.txt
fixed='query { group(fullPath: "g") { issues { totalIssueWeight } } }'
[ "$(cat queries/weight.graphql)" = "$fixed" ] || { echo "pre-commit: the file was not fixed: $(cat queries/weight.graphql)" >&2; exit 1; }
git add queries/weight.graphql
pre-commit try-repo "$repo" uplint-fix
git commit --quiet -m "total issue weight"
echo "pre-commit: uplint-fix fixed the file, failed once, then passed"
