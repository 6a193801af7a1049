#!/usr/bin/env bash
# Exploratory fuzzing, outside the tests: every harness of tests/fuzz for SECONDS each (default
# 600), one after another on every core (-fork), in the -O2 tree build/fuzz with ASan + UBSan.
# The working corpora in build/fuzz/corpus/ grow and are kept for the next run. A crash, leak or
# timeout is written to build/fuzz/artifacts/<harness>-…; to keep it as a regression input that
# the full test tier replays every time, copy it to tests/fuzz/corpus/<harness>/regression-<what>
# (after the fix). Unlike the tests' deterministic runs, what this finds depends on time and load.
#   bash tests/fuzz/explore.sh [SECONDS] [HARNESS…]      (npm run fuzz:explore -- 60 run)
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-600}
shift || true
mapfile -t known < <(find tests/fuzz -maxdepth 1 -name '*_fuzzer.cpp' -printf '%f\n' | sed 's/_fuzzer\.cpp$//' | sort)
if ! [[ $seconds =~ ^[1-9][0-9]{0,5}$ ]]; then
  echo "explore.sh: SECONDS ($seconds) must be a whole number from 1 to 999999" >&2
  exit 2
fi
harnesses=("$@")
if ((${#harnesses[@]} == 0)); then harnesses=("${known[@]}"); fi
for harness in "${harnesses[@]}"; do
  if [[ " ${known[*]} " != *" $harness "* ]]; then
    echo "explore.sh: harness ($harness) must be one of: ${known[*]}" >&2
    exit 2
  fi
done
CLANG=${CLANG:-$(command -v clang++-14 || command -v clang++)}
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

cmake -S tests/fuzz -B build/fuzz -DCMAKE_CXX_COMPILER="$CLANG" >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target $(printf '%s_fuzzer ' "${harnesses[@]}") >/dev/null
mkdir -p build/fuzz/artifacts
for harness in "${harnesses[@]}"; do
  mkdir -p "build/fuzz/corpus/$harness"
  echo "== $harness: $seconds s on $(nproc) cores"
  # -timeout 10: an input slower than that is worth a look (it is written as a timeout artifact);
  # the tests replay such inputs with a far larger budget.
  "./build/fuzz/${harness}_fuzzer" -fork="$(nproc)" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="build/fuzz/artifacts/$harness-" \
    "build/fuzz/corpus/$harness" "tests/fuzz/corpus/$harness" 2>&1 | grep -E "^#[0-9]+.*(DONE|NEW)|crash|timeout|leak|ERROR|SUMMARY" | tail -5 || true
done
echo "artifacts (none is good news):"
ls build/fuzz/artifacts/ 2>/dev/null || true
