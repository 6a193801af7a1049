#!/usr/bin/env bash
# The engine under Clang's sanitizers, in two parts (after setup.sh; needs clang-14,
# libclang-rt-14-dev and llvm-14 from Debian), for the full test tier:
#   1. the native GoogleTest suites (engine_tests, train_tests; not the learning suites) built
#      with AddressSanitizer + UndefinedBehaviorSanitizer (any error is fatal) in build/sanitize,
#      each binary run once, side by side;
#   2. each libFuzzer harness of tests/fuzz, built in the same tree (ATTENTION_FUZZERS=ON: the
#      engine compiled once, with ASan + UBSan and libFuzzer's coverage counters, for the suites
#      and the harnesses), run deterministically: every committed input of
#      tests/fuzz/corpus/<harness>/ (seeds and the regression inputs saved from earlier finds),
#      then a fixed number of mutations from a fixed seed (FUZZ_RUNS_<HARNESS>). Nothing here
#      depends on time: a per-input timeout of FUZZ_TIMEOUT seconds (default 300) is far above
#      the slowest input's few seconds at -O1 under ASan, so a loaded machine gives the verdict an
#      idle one does. Exploring for new inputs by time is tests/fuzz/explore.sh's job.
# Runs both parts even when one fails, then prints one closing line and fails if any failed:
#   sanitizers: N passed, M failed      (each suite binary and each harness counts as one run)
# and, before it, the wall time of each part ("time: …").
set -uo pipefail
cd "$(dirname "$0")/.."

FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-300}
# Mutations per harness after the committed inputs: about 20 s of a core each at -O1 under ASan
# (measured: model_file about 1,000 inputs/s, run 1,600/s, tokenize 6,000/s; bpe about 10,000/s
# at -O1; safetensors 740/s at -O2 on a busy machine), so they take about half a minute side by
# side on two idle cores, and longer, with the same verdict, on busy ones.
FUZZ_RUNS_model_file=${FUZZ_RUNS_model_file:-20000}
FUZZ_RUNS_safetensors=${FUZZ_RUNS_safetensors:-15000}
FUZZ_RUNS_run=${FUZZ_RUNS_run:-30000}
FUZZ_RUNS_tokenize=${FUZZ_RUNS_tokenize:-120000}
FUZZ_RUNS_bpe=${FUZZ_RUNS_bpe:-30000}
CLANG=${CLANG:-$(command -v clang++-14 || command -v clang++ || true)}
SYMBOLIZER=$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer ||
  echo /usr/lib/llvm-14/bin/llvm-symbolizer)
export ASAN_SYMBOLIZER_PATH=$SYMBOLIZER
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

logs=$(mktemp -d)
passed=0
failed=0
jobs=$(nproc)
times=()  # "part N s"
timed() {  # part, command...: runs the command and records its wall time
  local part=$1 began=$SECONDS status
  shift
  "$@"
  status=$?
  times+=("$part $((SECONDS - began)) s")
  return $status
}

# One run's verdict (a suite binary's or a harness's): "  name: ok, <what it did>" and a pass, or
# "  name: FAILED (exit N)" with the lines of its log that say why, and a failure.
verdict() {  # name, exit status, what it did, its log, the pattern of the lines that say why
  if [ "$2" -eq 0 ]; then
    echo "  $1: ok, $3"
    passed=$((passed + 1))
  else
    echo "  $1: FAILED (exit $2)"
    grep -E "$5" "$4" | head -40
    failed=$((failed + 1))
  fi
}

if [ -z "$CLANG" ]; then
  echo "clang++ not found: apt-get install clang-14 libclang-rt-14-dev llvm-14"
  echo "sanitizers: 0 passed, 1 failed"
  exit 1
fi

echo "== sanitize (GoogleTest under ASan + UBSan, $(basename "$CLANG"))"
# Line tables, not full debug information: a report still names file and line, and the build
# takes 8% less CPU (219 against 238 CPU-seconds for the two suites). CMAKE_CXX_FLAGS_DEBUG is
# emptied so that the Debug type does not add -g back.
sanitize_flags="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
# Only the suites run here: the "learning" ones (tests/cpp/learning_test.cpp, corpus_*_test.cpp)
# are training runs that take minutes under ASan in Debug and check accuracy, not memory; the
# train_* suites exercise the same code briefly. Not building them saves their compile.
suites=(engine_tests train_tests)
configured=0
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$CLANG" \
  -DCMAKE_CXX_FLAGS="$sanitize_flags" -DCMAKE_CXX_FLAGS_DEBUG= -DATTENTION_FUZZERS=ON >"$logs/sanitize-configure.log" 2>&1 &&
  configured=1
if [ $configured -eq 1 ] &&
  timed "sanitize build" cmake --build build/sanitize -j"$jobs" --target "${suites[@]}" \
    >"$logs/sanitize-build.log" 2>&1; then
  # Each suite binary once, the two side by side (one core each); a suite counts as one run.
  run_suites() {
    local suite
    for suite in "${suites[@]}"; do
      {
        "./build/sanitize/tests/cpp/$suite" --gtest_brief=1 >"$logs/$suite.log" 2>&1
        echo $? >"$logs/$suite.status"
      } &
    done
    wait
  }
  timed "sanitize suites" run_suites
  for suite in "${suites[@]}"; do
    tests=$(grep -oE "^\[  PASSED  \] [0-9]+ tests?" "$logs/$suite.log" | awk '{print $4}')
    verdict "$suite" "$(cat "$logs/$suite.status" 2>/dev/null || echo 1)" "${tests:-?} tests" "$logs/$suite.log" \
      "^\[  FAILED  \]|runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer|SUMMARY"
  done
else
  cat "$logs/sanitize-configure.log" "$logs/sanitize-build.log" | grep -E "error|Error" | head -40
  failed=$((failed + 1))
fi

echo "== fuzz (libFuzzer + ASan + UBSan: committed inputs, then a fixed number of mutations, side by side)"
harnesses=$(find tests/fuzz -maxdepth 1 -name '*_fuzzer.cpp' -printf '%f\n' | sed 's/_fuzzer\.cpp$//' | sort)
fuzz_all() {  # starts every harness, waits for all; each one's exit status in $logs/fuzz-<harness>.status
  local harness work runs
  for harness in $harnesses; do
    runs_var=FUZZ_RUNS_$harness
    runs=${!runs_var:-2000}
    # A fresh working corpus each time, so that -seed=1 makes the run repeatable; the committed
    # seeds are read-only (libFuzzer writes new inputs to the first folder only).
    work=build/sanitize/fuzz/corpus/$harness
    rm -rf "$work"
    mkdir -p "$work" build/sanitize/fuzz/artifacts
    {
      "./build/sanitize/${harness}_fuzzer" -seed=1 -runs="$runs" -timeout="$FUZZ_TIMEOUT" \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="build/sanitize/fuzz/artifacts/$harness-" \
        "$work" "tests/fuzz/corpus/$harness" >"$logs/fuzz-$harness.log" 2>&1
      echo $? >"$logs/fuzz-$harness.status"
    } &
  done
  wait
}
# After the suites' build, the engine's libraries are there: only the harnesses compile.
if [ $configured -eq 1 ] &&
  timed "fuzz build" cmake --build build/sanitize -j"$jobs" --target $(printf '%s_fuzzer ' $harnesses) \
    >"$logs/fuzz-build.log" 2>&1; then
  timed "fuzz runs" fuzz_all
  for harness in $harnesses; do
    runs=$(grep -oE "^Done [0-9]+ runs in [0-9]+ second" "$logs/fuzz-$harness.log" | awk '{print $2}')
    seeds=$(find "tests/fuzz/corpus/$harness" -type f | wc -l)
    verdict "$harness" "$(cat "$logs/fuzz-$harness.status" 2>/dev/null || echo 1)" \
      "$seeds seeds then ${runs:-?} runs" "$logs/fuzz-$harness.log" \
      "invariant violated|runtime error|ERROR: |SUMMARY|Test unit written|^Base64"
  done
else
  cat "$logs/sanitize-configure.log" "$logs/fuzz-build.log" 2>/dev/null | grep -E "error|Error" | head -40
  failed=$((failed + $(echo "$harnesses" | wc -w)))
fi

echo
printf -v joined '%s, ' "${times[@]}"
echo "time: ${joined%, }"
echo "sanitizers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
