// Bytes at memory speed (issue 14, target 2; issue 36): serialize() and deserialize() of a 512 MiB
// filter in Node, with the frame's CRC-32 computed by Node (zlib.crc32, what the library uses where
// the runtime has it) and by the wasm tables (what browsers use), against the floor of a
// serialize() that returns new bytes: a fresh ArrayBuffer of the same size filled by one copy of
// the filter's bytes from wasm memory; and against the bound, the simplest such serialize() with
// the frame's CRC: that copy in pieces, each piece's zlib.crc32 taken right after it (JS, no frame).
// Every repetition measures each of them once, in an order rotated per repetition; medians of 5.
//   node tests/bench/bytes-bench.mjs [--reps=5] [--write-docs]
// With --write-docs the section of docs/BENCHMARKS.md between <!-- bytes:begin --> and
// <!-- bytes:end --> is replaced.
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { BlockedBloomFilter, deserialize, init } from '../../js/main/index.js';
import { median, parseArgs, publishSection, rotate } from './lib.mjs';
import { requireWasm } from '../../js/main/loader.js';

const args = parseArgs(process.argv.slice(2), { reps: 5, 'write-docs': false });
await init();
const m = requireWasm();
const f = new BlockedBloomFilter({ blocks: 16 * 1024 * 1024 });   // 512 MiB of blocks
f.addAll(Array.from({ length: 1_000_000 }, (_, i) => `key:${i}`));
const size = f.byteLength;
const heap = () => m.HEAPU8.length;
let serGrowth = null;
let deGrowth = null;
f.serialize();                           // installs the runtime CRC (Module.bcCrc32)
const runtimeCrc = m.bcCrc32;
if (typeof runtimeCrc !== 'function') throw new Error('this Node has no zlib.crc32 (Node >= 20.16 needed)');
/** Runs fn with the frame's CRC by the runtime (true) or by the wasm tables (false). */
function withCrc(runtime, fn) {
  m.bcCrc32 = runtime ? runtimeCrc : null;
  try {
    return fn();
  } finally {
    m.bcCrc32 = runtimeCrc;
  }
}
const ms = {};
const time = (name, fn) => {
  const t = performance.now();
  const v = fn();
  (ms[name] ??= []).push(performance.now() - t);
  return v;
};
let last = f.serialize();
const lastView = new Uint8Array(last);
// where the filter's bytes are in wasm memory: serializeTo hands the body on in pieces read
// straight from the filter (cpp/src/byte_io.h), so the first full piece starts at its words
let bodyAt = -1;
f.serializeTo((chunk) => { if (bodyAt < 0 && chunk.length === 256 * 1024) bodyAt = chunk.byteOffset; });
const bodyLength = size - (bodyAt < 0 ? 0 : 64);   // the frame's header, fields and CRC: under 64 bytes
if (bodyAt < 0 || bodyAt + bodyLength > m.HEAPU8.length) throw new Error('the filter\'s bytes were not found in wasm memory');
let sink = 0;
const PIECE = 256 * 1024;
const steps = {
  // the floor: the filter's own bytes, read where serialize() reads them, into a fresh ArrayBuffer
  fresh: () => { time('fresh', () => new Uint8Array(last.byteLength).set(m.HEAPU8.subarray(bodyAt, bodyAt + bodyLength))); },
  // the same copy from a JS ArrayBuffer (the last serialize()'s output) instead
  freshJs: () => { time('freshJs', () => new Uint8Array(last.byteLength).set(lastView)); },
  serRuntime: () => {
    const before = heap();
    last = time('serRuntime', () => withCrc(true, () => f.serialize()));
    serGrowth ??= heap() - before;
  },
  serWasm: () => { time('serWasm', () => withCrc(false, () => f.serialize())); },
  crcRuntime: () => { time('crcRuntime', () => withCrc(true, () => f.serializeTo((chunk) => { sink ^= chunk[0]; }))); },
  crcWasm: () => { time('crcWasm', () => withCrc(false, () => f.serializeTo((chunk) => { sink ^= chunk[0]; }))); },
  deRuntime: () => {
    const before = heap();
    const g = time('deRuntime', () => withCrc(true, () => deserialize(lastView)));
    deGrowth ??= heap() - before;
    g.free();
  },
  deWasm: () => { time('deWasm', () => withCrc(false, () => deserialize(lastView))).free(); },
  // the bound: the simplest serialize() that returns new bytes with this format's CRC in Node: no frame,
  // the floor's copy done 256 KiB at a time, each piece's zlib.crc32 taken right after its copy
  // (in cache, as serialize() does)
  ideal: () => {
    time('ideal', () => {
      const from = m.HEAPU8.subarray(bodyAt, bodyAt + bodyLength);
      const out = new Uint8Array(last.byteLength);
      let crc = 0;
      for (let at = 0; at < from.length; at += PIECE) {
        const end = Math.min(at + PIECE, from.length);
        out.set(from.subarray(at, end), at);
        crc = zlib.crc32(out.subarray(at, end), crc);
      }
      sink ^= crc;
    });
  },
  // zlib.crc32 alone over as many bytes, read from cache: one 256 KiB piece, again and again
  crcCache: () => {
    const piece = lastView.subarray(0, PIECE);
    time('crcCache', () => {
      let crc = 0;
      for (let at = 0; at < lastView.length; at += PIECE) crc = zlib.crc32(piece, crc);
      sink ^= crc;
    });
  },
};
for (let r = 0; r < args.reps; r++) {
  for (const [, step] of rotate(Object.entries(steps), r)) step();
}
if (sink === -1) console.log(sink);   // keeps the sink live
// a plain copy into a buffer already in memory (allocated and touched outside the timing)
const dst = new Uint8Array(last.byteLength).fill(1);
for (let r = 0; r < 3; r++) time('copy', () => dst.set(lastView));
f.free();
const med = (name) => median(ms[name]);
const gbs = (ms) => (size / 1e9 / (ms / 1000)).toFixed(2);
const mib = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const verdict = (name) => (size / 1e9 / (med(name) / 1000) >= 1 ? 'met' : 'not met');
const floorRatio = (name) => `${(med('fresh') / med(name)).toFixed(2)}×`;
const row = (what, name, target = '') => `| ${what} | ${med(name).toFixed(0)} | ${gbs(med(name))} | ${floorRatio(name)} | ${target} |`;
const md = [
  `A 512 MiB \`BlockedBloomFilter\` (${size.toLocaleString('en-US')} bytes), Node ${process.version}, medians of ${args.reps}, each`,
  'repetition measuring every row once in a rotated order. "Node CRC": the frame\'s CRC-32 by Node\'s `zlib.crc32`',
  '(what the library uses where the runtime has it); "wasm CRC": by the wasm tables (slice-by-16, what browsers use).',
  '"× floor": the floor\'s time over the row\'s (1× is the floor, higher is faster).',
  '',
  '| operation | ms | GB/s | × floor | target |',
  '|---|---:|---:|---:|---|',
  row('the floor: a fresh ArrayBuffer of the same size, filled by one copy of the filter\'s bytes from wasm memory (where `serialize()` reads them)', 'fresh'),
  row('a fresh ArrayBuffer filled by one copy from a JS ArrayBuffer (the last `serialize()`\'s output) instead', 'freshJs', `\`serialize()\` / this: ${(med('freshJs') / med('serRuntime')).toFixed(2)}×`),
  row('`serialize()`, Node CRC: a new ArrayBuffer, one copy, 256 KiB at a time', 'serRuntime', `≥ 0.9× floor: ${med('fresh') / med('serRuntime') >= 0.9 ? 'met' : '**not met**'}; ≥ 1 GB/s: ${verdict('serRuntime')}`),
  row('`serialize()`, wasm CRC', 'serWasm', `≥ 1 GB/s: ${verdict('serWasm')}`),
  row('`deserialize()`, Node CRC: one copy into the filter\'s memory, CRC, parse', 'deRuntime', `≥ 1 GB/s: ${verdict('deRuntime')}`),
  row('`deserialize()`, wasm CRC', 'deWasm', `≥ 1 GB/s: ${verdict('deWasm')}`),
  row('`serializeTo()` with a sink that copies nothing (the CRC alone), Node CRC', 'crcRuntime'),
  row('`serializeTo()` with a sink that copies nothing, wasm CRC', 'crcWasm'),
  row('a plain copy of the same bytes into a buffer already in memory', 'copy'),
  row('the bound: the floor\'s copy 256 KiB at a time, each piece\'s `zlib.crc32` right after its copy (JS, no frame)', 'ideal', `≥ 0.9× floor: ${med('fresh') / med('ideal') >= 0.9 ? 'met' : '**not met**'}`),
  row('`zlib.crc32` alone of as many bytes in cache (one 256 KiB piece, 2,048 times)', 'crcCache'),
  '',
  `0.9× the floor leaves ${(med('fresh') / 0.9 - med('fresh')).toFixed(0)} ms for the CRC of ${mib(size)}, ${gbs(med('fresh') / 0.9 - med('fresh'))} GB/s;`,
  `\`zlib.crc32\` computes it at ${gbs(med('crcCache'))} GB/s from cache. \`serialize()\` took ${(med('serRuntime') / med('ideal')).toFixed(2)}× the bound's time. "The bound" row is the simplest \`serialize()\` returning new`,
  'bytes with the frame\'s CRC over every byte (the format, which issue 36 keeps), in Node on one thread;',
  'a worker cannot share the work, since it cannot read the wasm memory or the ArrayBuffer being filled.',
  '',
  `Peak memory: the first \`serialize()\` grew wasm memory by ${mib(serGrowth)} (the bytes go`,
  'straight from the filter into the ArrayBuffer, so the peak is the filter plus its output); the first',
  `\`deserialize()\` grew it by ${mib(deGrowth)}, the new filter itself (the input is never copied into`,
  'wasm memory; a 2.5 GiB filter serializes: tests/js/big-memory.test.js).',
  'The CRC is computed on each 256 KiB piece right after the piece is handed on (for `serialize()`: copied into',
  'the ArrayBuffer), while the copy has left it in cache; before issue 36 it was computed first, reading the piece',
  'from memory, and `serialize()` read 0.83× the floor (0.67× against 0.79× in one A/B run of the two builds,',
  'CPU time). In Node it is `zlib.crc32` (Node ≥ 20.15;',
  'reached without an import by `process.getBuiltinModule`, Node ≥ 20.16), called from the wasm core for',
  'every piece of 4 KiB or more (cpp/src/crc32.h, bindings/js_crc.cc): the same frame code and the same',
  'bytes (tests/js/runtime-crc.test.js, every kind). Without it (browsers, older Node) the wasm tables',
  'compute it. A fresh ArrayBuffer\'s page faults are most of the floor; on this shared virtual machine',
  '(Firecracker: a page the guest has not touched lately is faulted in by the host) they have been seen',
  'to cost 3× more from one run to the next, which is why every row is measured in the same repetitions',
  'as the floor. `serializeTo()` into a buffer you already have pays only the CRC.',
].join('\n');
publishSection('bytes', md, 'Bytes: serialize and deserialize at scale');
