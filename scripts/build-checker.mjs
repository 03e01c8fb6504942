// Builds bloomcuckoo/check's wasm: one small module per filter kind, dist/wasm/check-<kind>.wasm,
// from cpp/checker/checker.cc and the core's own sources (cpp/src), with plain C exports and no
// Emscripten JS glue (js/check/index.js instantiates them). A page that checks keys against one filter
// downloads dist/check.min.js and the one module of its filter's kind. Messages are compiled out
// (BLOOMCUCKOO_STATUS_CODES_ONLY): the JS names the code. Each module is rebuilt only when a
// source is newer than it. Prints the gzip -9 sizes.
//   node scripts/build-checker.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { KIND_TABLE } from '../js/shared/kind-table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = ['cpp/checker/checker.cc', ...readdirSync(`${root}cpp/src`).filter((f) => f.endsWith('.cc')).map((f) => `cpp/src/${f}`)];
const headers = [...readdirSync(`${root}cpp/include/bloomcuckoo`).map((f) => `cpp/include/bloomcuckoo/${f}`),
  ...readdirSync(`${root}cpp/src`).filter((f) => f.endsWith('.h')).map((f) => `cpp/src/${f}`)];
const newest = Math.max(...[...sources, ...headers, 'scripts/build-checker.mjs'].map((f) => statSync(`${root}${f}`).mtimeMs));

const FLAGS = ['-std=c++17', '-Oz', '-flto', '-fno-exceptions', '-fno-rtti', '-msimd128', '-mnontrapping-fptoint',
  '-ffp-contract=off', '-DBLOOMCUCKOO_STATUS_CODES_ONLY', '-Icpp/include', '-Icpp/src'];
// a reactor (no main; _initialize runs the constructors), memory growing to 4 GiB, emmalloc with
// the core's guard against blocks past 4 GiB (cpp/src/wasm_allocator.cc), failures as null
const LINK = ['--no-entry', '-sSTANDALONE_WASM=1', '-sALLOW_MEMORY_GROWTH=1', '-sMAXIMUM_MEMORY=4GB', '-sMALLOC=emmalloc',
  '-sABORTING_MALLOC=0', '-sINITIAL_MEMORY=1MB', '-sTOTAL_STACK=64KB'];

function emcc(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('emcc', args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`emcc exited with ${code}`))));
  });
}

mkdirSync(`${root}dist/wasm`, { recursive: true });
// one module per row of the kind table (js/shared/kind-table.js, the twin of the C++ one)
const todo = KIND_TABLE.map(([number, name]) => ({ name, number, out: `dist/wasm/check-${name}.wasm` }))
  .filter((k) => !existsSync(`${root}${k.out}`) || statSync(`${root}${k.out}`).mtimeMs < newest);
// two at a time (these machines have two cores)
const queue = [...todo];
await Promise.all([0, 1].map(async () => {
  for (let k = queue.shift(); k; k = queue.shift()) {
    await emcc([...FLAGS, `-DBC_KIND=${k.number}`, ...sources, ...LINK, '-o', k.out]);
  }
}));
const sizes = KIND_TABLE.map(([, name]) => `${name} ${(gzipSync(readFileSync(`${root}dist/wasm/check-${name}.wasm`), { level: 9 }).length / 1024).toFixed(1)}`);
console.error(`[build-checker] ${todo.length ? `built ${todo.length}` : 'up to date'}; KB gzip: ${sizes.join(', ')}`);
