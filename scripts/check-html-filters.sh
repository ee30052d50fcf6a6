#!/usr/bin/env bash
# Load the HTML audit report of the sample repository in headless Chromium with filters set in
# the address, and check from the rendered DOM that the filters hide exactly what they should.
# Needs Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${UPLINT_BIN:-target/debug/uplint}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd examples/upgrade-audit && "$OLDPWD/$bin" scan --current 16.5 --target 17.0 --format html \
  --output "$work/audit.html" --fail-on never)
dom() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --dump-dom "file://$work/audit.html#$1" 2>/dev/null
}
visible() { grep -o '<tr class="finding[^"]*"[^>]*>' | grep -vc 'hidden' || true; }
all=$(dom "" | visible)
runner=$(dom "surface=runner" | visible)
errors=$(dom "severity=error" | visible)
v18=$(dom "version=18.0&surface=runner" | visible)
shown=$(dom "surface=runner" | grep -o '<span id="shown">[0-9]*' | grep -o '[0-9]*$')
echo "all=$all runner=$runner errors=$errors 18.0+runner=$v18 shown(runner)=$shown"
[ "$all" = 18 ] && [ "$runner" = 7 ] && [ "$errors" = 8 ] && [ "$v18" = 5 ] && [ "$shown" = 7 ] \
  || { echo "html filters: unexpected counts" >&2; exit 1; }
echo "html filters: ok"
