#!/usr/bin/env bash
# Builds the WebAssembly engine (dist/engine/) and bundles the page (dist/site/).
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
unset NODE_PATH
wasm_seconds=$((SECONDS - began))

node build-scripts/bundle.mjs
# Wall times, so that npm test's minutes can be split into setup, build and test.sh's stages.
echo "build: wasm $wasm_seconds s, bundle $((SECONDS - began - wasm_seconds)) s"
