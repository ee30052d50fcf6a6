#!/usr/bin/env bash
# uplint server in a real client: Neovim headless (Debian's neovim, 0.7 in Debian 12, whose
# client has vim.lsp.start_client but not vim.lsp.start) opens a .gitlab-ci.yml with
# $CI_JOB_JWT_V2 and a GraphQL file with totalWeight, receives the diagnostics, applies the
# preferred quick fix (totalWeight -> totalIssueWeight, safe with min-version 16.5) and the
# suppression of ci-job-jwt through its own LSP client, and writes the buffers; this script
# checks the files. Uses UPLINT_BIN (default: target/release/uplint).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${UPLINT_BIN:-target/release/uplint}")"

source scripts/tools.sh
command -v nvim >/dev/null 2>&1 || apt_install neovim
nvim --version | head -1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf 'min-version: "16.5"\n' >"$work/.uplint.yml"
printf 'build:\n  script:\n    - echo "é → $CI_JOB_JWT_V2"\n' >"$work/.gitlab-ci.yml"
printf 'query w($p: ID!) {\n  group(fullPath: $p) {\n    issues {\n      totalWeight\n    }\n  }\n}\n' >"$work/weight.graphql"

UPLINT_BIN="$bin" UPLINT_NVIM_WORKSPACE="$work" UPLINT_NVIM_LUA="$PWD/editors/neovim" \
  timeout 90 nvim --headless --clean -n -u NONE \
  -c "luafile $PWD/editors/neovim/check.lua" 2>&1 | tr '\r' '\n' | sed '/^$/d'
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || { echo "test-neovim: nvim exited with $status"; exit 1; }

fail=0
check() { # file, expected text
  if [ "$(cat "$work/$1")" != "$2" ]; then
    echo "test-neovim: $1 is not as expected:"; cat "$work/$1"; fail=1
  fi
}
check weight.graphql "$(printf 'query w($p: ID!) {\n  group(fullPath: $p) {\n    issues {\n      totalIssueWeight\n    }\n  }\n}')"
check .gitlab-ci.yml "$(printf 'build:\n  script:\n    # uplint: ignore[ci-job-jwt]\n    - echo "é → $CI_JOB_JWT_V2"')"
[ "$fail" -eq 0 ] || exit 1
echo "test-neovim: 2 passed, 0 failed"
