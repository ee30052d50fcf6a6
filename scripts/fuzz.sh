#!/usr/bin/env bash
# Run every fuzz target for SECONDS each (default 10: a minute in all), on the machine's stable
# toolchain (RUSTC_BOOTSTRAP=1 lets cargo-fuzz use the nightly-only flags it needs). Optimised,
# with debug assertions and overflow checks (`-a`): an arithmetic overflow is a crash too.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# A crash stops the run; its input is in fuzz/artifacts/TARGET/. Fix it, then keep the input in
# fuzz/regressions/TARGET/, where tests/fuzz_regressions.rs replays it on every `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(data_loader yaml_keys runner_flags rest_paths graphql_documents scan_file)
fi
# cargo-fuzz: the one on the PATH, else installed once into target/tools/cargo-fuzz.
source scripts/tools.sh
export PATH="$tools_root/cargo-fuzz/bin:$PATH"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install --quiet --locked --root "$tools_root/cargo-fuzz" cargo-fuzz
  installed "cargo-fuzz $(cargo-fuzz --version | cut -d' ' -f2)" "target/tools/cargo-fuzz (cargo install --locked --root)"
fi
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O -a --sanitizer none
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  echo "fuzz $t for ${seconds}s"
  cargo fuzz run -O -a --sanitizer none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 2>&1 \
    | grep -E "^(Done|stat::number_of_executed_units|==[0-9]+== ERROR|thread .* panicked|SUMMARY)" || true
  # Any one kind of artifact is a failure (one `ls` of all three globs fails when one is absent).
  if compgen -G "fuzz/artifacts/$t/crash-*" >/dev/null || compgen -G "fuzz/artifacts/$t/oom-*" >/dev/null \
    || compgen -G "fuzz/artifacts/$t/timeout-*" >/dev/null; then
    echo "fuzz $t: crash inputs in fuzz/artifacts/$t" >&2
    exit 1
  fi
done
echo "fuzzing: no crash"
