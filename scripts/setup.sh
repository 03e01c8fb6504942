#!/usr/bin/env bash
# Idempotent set-up: installs what is missing, then builds native + wasm.
#   apt: emscripten (the wasm toolchain), chromium (the e2e browser) and redis-server (the
#        RedisBloom interop oracle), only when absent
#   npm: `npm ci` when node_modules is missing or older than package-lock.json; the pack suite's
#        runtimes and bundlers into tests/pack/tools
# Usage: scripts/setup.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*" >&2; }

need_apt=()
command -v emcc >/dev/null 2>&1 || need_apt+=(emscripten)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
command -v clang++ >/dev/null 2>&1 || need_apt+=(clang)
# the C++ style check of npm test (.clang-format)
command -v clang-format >/dev/null 2>&1 || need_apt+=(clang-format)
# the RedisBloom interop tests load ../shared/redisbloom/redisbloom.so into Debian's redis-server
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
[ -f /usr/include/benchmark/benchmark.h ] || need_apt+=(libbenchmark-dev)
# libFuzzer + sanitizer runtimes for clang
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need_apt+=(libclang-rt-dev)

if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { log "need root (or sudo) to install: ${need_apt[*]}"; exit 1; }
    SUDO="sudo"
  fi
  log "installing with apt-get: ${need_apt[*]}"
  start=$(date +%s)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
  log "apt-get done in $(( $(date +%s) - start )) s"
fi

stamp=node_modules/.bloomcuckoo-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "npm ci"
  start=$(date +%s)
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
  log "npm ci done in $(( $(date +%s) - start )) s"
fi

# The runtimes and bundlers the pack suite tests the tarball with (Bun, Deno, workerd, webpack,
# esbuild, Rollup), from npm into tests/pack/tools: `npm install`, not `ci`, as their
# other-platform optional packages are not on every mirror (so there is no lock file).
tools=tests/pack/tools
tstamp=$tools/node_modules/.bloomcuckoo-tools.sha256
twant=$(sha256sum $tools/package.json | cut -d' ' -f1)
if [ ! -f "$tstamp" ] || [ "$(cat "$tstamp")" != "$twant" ]; then
  log "npm install in $tools"
  start=$(date +%s)
  (cd $tools && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
  echo "$twant" > "$tstamp"
  log "tools installed in $(( $(date +%s) - start )) s"
fi

if [ "${1:-}" != "--no-build" ]; then
  bash scripts/build.sh
fi
