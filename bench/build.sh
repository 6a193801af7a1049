#!/usr/bin/env bash
# Builds the benchmark's programs, each in its own CMake tree (never touching dist/):
#   build/bench-wasm-simd/bench-engine.{mjs,wasm}    the engine as shipped (-msimd128)
#   build/bench-wasm-nosimd/bench-engine.{mjs,wasm}  the same engine without SIMD128
#   build/bench-native/bench/bench_native             g++ -O3 -march=native
#   build/bench-native/bench/train_native             the same, training
#   build/bench-native/bench/gpt2_native              the same, GPT-2 small (bench/gpt2-small.mjs)
#   build/bench-train/tfjs-gradients.mjs              tfjs-core's gradients, loadable by node
set -euo pipefail
cd "$(dirname "$0")/.."

export NODE_PATH=/usr/share/nodejs  # Debian's emscripten needs its acorn (toolchain.md)
for variant in simd nosimd; do
  dir="build/bench-wasm-$variant"
  simd=ON
  [ "$variant" = nosimd ] && simd=OFF
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DATTENTION_BENCH=ON \
      -DATTENTION_WASM_SIMD=$simd -DENGINE_OUTPUT_DIR="$PWD/$dir/engine" >/dev/null
  fi
  cmake --build "$dir" --target bench_wasm -j"$(nproc)" >"$dir/build.log" 2>&1 || {
    tail -30 "$dir/build.log"
    exit 1
  }
done
unset NODE_PATH

if [ ! -f build/bench-native/CMakeCache.txt ]; then
  cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release -DATTENTION_BENCH=ON \
    -DCMAKE_CXX_FLAGS="-march=native -Wno-maybe-uninitialized" >/dev/null
fi
# (-Wno-maybe-uninitialized: GCC 12's AVX-512 headers warn inside Eigen, and the engine
# builds with -Werror.)
cmake --build build/bench-native --target bench_native train_native gpt2_native -j"$(nproc)" >build/bench-native/build.log 2>&1 || {
  tail -30 build/bench-native/build.log
  exit 1
}
# tfjs-core's gradients as one ESM file node can load (bench/train/gradients-entry.mjs).
mkdir -p build/bench-train
npx esbuild bench/train/gradients-entry.mjs --bundle --format=esm --platform=node \
  --outfile=build/bench-train/tfjs-gradients.mjs --log-level=warning
echo "bench: programs built"
