#!/usr/bin/env bash
# Render the HTML audit report of the sample repository in headless Chromium and save a
# screenshot: docs/audit-report.png (shown in the README).
# Needs Debian's chromium (`apt-get install chromium`).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/audit-report.png}"
cargo build --release --locked --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd examples/upgrade-audit && ../../target/release/uplint scan --current 16.5 --target 17.0 \
  --format html --output "$work/audit.html" --fail-on never)
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,1600 \
  --screenshot="$work/shot.png" "file://$work/audit.html" 2>/dev/null
mkdir -p "$(dirname "$out")"
cp "$work/shot.png" "$out"
echo "wrote $out"
