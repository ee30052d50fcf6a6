#!/usr/bin/env bash
# Validate the SARIF of every fixture tree and of the sample repository with the official
# SARIF Multitool (npm package @microsoft/sarif-multitool). Fails on any error result.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
source scripts/tools.sh
bin="$root/${UPLINT_BIN:-target/debug/uplint}"
tools="$root/target/tools/sarif"
tool="$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ ! -x "$tool" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool@5 >/dev/null)
  # npm may block the package's postinstall step, which makes the binary executable.
  chmod u+x "$tool"
  installed "npm @microsoft/sarif-multitool@5" "target/tools/sarif"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
n=0
# The fix fixtures' before trees give results with fixes (multi-line YAML moves among them).
for dir in tests/fixtures/scan/*/ examples/upgrade-audit/ tests/fixtures/fix/*/before/; do
  name="$(basename "$dir")"
  [ "$name" = before ] && name="fix-$(basename "$(dirname "$dir")")"
  (cd "$dir" && "$bin" scan --no-config --format sarif --output "$work/$name.sarif" --fail-on never .)
  "$tool" validate "$work/$name.sarif" --output "$work/$name.validation.sarif" --log ForceOverwrite >/dev/null
  n=$((n + 1))
done
python3 - "$work" <<'PY'
import glob, json, sys
errors = warnings = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.validation.sarif")):
    for run in json.load(open(path))["runs"]:
        for r in run.get("results", []):
            level = r.get("level", "warning")
            text = r.get("message", {}).get("text") or r.get("message", {}).get("arguments")
            print(f"{path.split('/')[-1]}: {level} {r.get('ruleId')}: {text}")
            errors += level == "error"
            warnings += level == "warning"
print(f"sarif validation: {errors} errors, {warnings} warnings")
sys.exit(1 if errors else 0)
PY
echo "validated $n SARIF files"
