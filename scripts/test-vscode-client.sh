#!/usr/bin/env bash
# uplint server through vscode-languageclient (the client library VS Code's language extensions
# use), under Node: editors/vscode/test/round.js starts the server with the extension of
# editors/vscode through the library's `node` entry (`vscode` itself being a minimal shim,
# editors/vscode/test/vscode-shim.js), opens a .gitlab-ci.yml with $CI_JOB_JWT_V2 and a GraphQL
# file with totalWeight, receives the diagnostics, asks for the code actions, applies the
# preferred quick fix's WorkspaceEdit (totalWeight -> totalIssueWeight) and the suppression of
# ci-job-jwt, and checks the texts and that the diagnostics go away. Uses UPLINT_BIN (default:
# target/release/uplint).
#
# Installs: Debian's nodejs and npm when node is missing, and the npm packages of
# editors/vscode/package-lock.json (vscode-languageclient and its dependencies) with `npm ci`
# into editors/vscode/node_modules (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${UPLINT_BIN:-target/release/uplint}")"
source scripts/tools.sh

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi
echo "node $(node --version), npm $(npm --version)"

(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error)
installed "npm packages of editors/vscode/package-lock.json" "editors/vscode/node_modules"
UPLINT_BIN="$bin" timeout 120 node editors/vscode/test/round.js
