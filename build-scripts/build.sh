#!/usr/bin/env bash
# Builds the WebAssembly engine (dist/engine/), its threaded variant (dist/engine-mt/: -pthread,
# for cross-origin-isolated pages and node) and bundles the page (dist/site/).
# Incremental: CMake and esbuild only redo what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Emscripten 3.1.6 from Debian needs Debian's node modules (acorn) to run its JS optimizer.
export NODE_PATH=/usr/share/nodejs
began=$SECONDS
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j"$(nproc)"
wasm_seconds=$((SECONDS - began))
if [ ! -f build/wasm-mt/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm-mt -DCMAKE_BUILD_TYPE=Release -DATTENTION_WASM_THREADS=ON \
    -DENGINE_OUTPUT_DIR="$PWD/dist/engine-mt" >/dev/null
fi
cmake --build build/wasm-mt -j"$(nproc)"
unset NODE_PATH
# The engine's catalogs (steps, block steps, tasks, temperature bounds) as the JS and .d.ts the
# page and the API read; where one changed, copy the engine's JS again so dist/ has it.
catalog_written=$(node build-scripts/catalog.mjs)
if [ -n "$catalog_written" ]; then
  echo "$catalog_written"
  cmake --build build/wasm --target engine_js
  cmake --build build/wasm-mt --target engine_js
fi
mt_seconds=$((SECONDS - began - wasm_seconds))

node build-scripts/bundle.mjs
# Wall times, so that npm test's minutes can be split into setup, build and test.sh's stages.
echo "build: wasm $wasm_seconds s, wasm-mt $mt_seconds s, bundle $((SECONDS - began - wasm_seconds - mt_seconds)) s"
