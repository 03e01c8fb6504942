#!/usr/bin/env bash
# Builds the wasm module (dist/wasm/), the shipped JS (dist/index.min.js, dist/bloomcuckoo.min.js) and
# the native library + tests (build/native).
#   BUILD_NATIVE=0 skips the native build.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
log() { printf '[build] %s\n' "$*" >&2; }

if ! grep -qsx "BLOOMCUCKOO_WASM_OUT:PATH=$PWD/dist/wasm" build/wasm/CMakeCache.txt; then
  emcmake cmake -B build/wasm -S . -DCMAKE_BUILD_TYPE=Release -DBLOOMCUCKOO_WASM_OUT="$PWD/dist/wasm" >/dev/null
fi
log "wasm"
cmake --build build/wasm -j"$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\]' || true
test -f dist/wasm/bloomcuckoo.wasm || { log "wasm build failed"; exit 1; }
# the status of the pipeline above hides cmake's; check it explicitly
cmake --build build/wasm -j"$jobs" >/dev/null
# the no-eval glue (workerd) loads the same wasm: check that, and keep one copy
if [ -f dist/wasm/bloomcuckoo.noeval.wasm ]; then
  cmp -s dist/wasm/bloomcuckoo.wasm dist/wasm/bloomcuckoo.noeval.wasm || { log "the two glues' wasm differ"; exit 1; }
  rm -f dist/wasm/bloomcuckoo.noeval.wasm
fi
# ...and name that one copy in the no-eval glue too: the loader hands the glue the wasm, but the
# glue's own fallback `new URL("bloomcuckoo.noeval.wasm", import.meta.url)` is an asset that
# bundlers (webpack) try to emit, and it would dangle
sed -i 's/bloomcuckoo\.noeval\.wasm/bloomcuckoo.wasm/g' dist/wasm/bloomcuckoo.noeval.mjs
# bloomcuckoo/check's small per-kind modules (dist/wasm/check-<kind>.wasm), rebuilt when a source changed
log "checker wasm"
node scripts/build-checker.mjs
# what the package ships of our JS: dist/index.min.js and dist/bloomcuckoo.min.js (scripts/build-js.mjs)
log "js"
node scripts/build-js.mjs

if [ "${BUILD_NATIVE:-1}" = "1" ]; then
  if [ ! -f build/native/CMakeCache.txt ]; then
    cmake -B build/native -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  log "native"
  cmake --build build/native -j"$jobs" >/dev/null
fi
