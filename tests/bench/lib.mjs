// Shared by the Node benchmarks: timing, medians, key sets, formatting.
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Milliseconds of CPU time used by this process (user + system). The benchmark machines are
 * shared: wall time would include time spent waiting for a core, CPU time does not.
 */
export function now() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
export const wallNow = () => performance.now();

/** Milliseconds `fn` takes (one call). */
export function time(fn) {
  const t0 = performance.now();
  const r = fn();
  const t1 = performance.now();
  return { ms: t1 - t0, result: r };
}

export function median(xs) {
  const v = xs.filter((x) => x !== undefined && x !== null && !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** "key:" + i for i in [first, first + n). */
export function stringKeys(n, first = 0) {
  const keys = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = 'key:' + (first + i);
  return keys;
}

/** splitmix64 stream, as tests/bench/filters_bench.cc: returns n values in a BigUint64Array. */
export function splitmix64(n, stream) {
  const out = new BigUint64Array(n);
  const M = (1n << 64n) - 1n;
  let state = BigInt(stream) * 0x1234567n;
  for (let i = 0; i < n; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & M;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

/** n pseudo-random 16-byte keys as views into one buffer (xorshift32 from `seed`). */
export function binaryKeys(n, seed) {
  const buf = new Uint8Array(16 * n);
  const w = new Uint32Array(buf.buffer);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < w.length; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    w[i] = x;
  }
  const keys = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = buf.subarray(16 * i, 16 * i + 16);
  return { keys, buf };
}

/** Packs keys (strings: UTF-8; views: bytes) into one Uint8Array + Uint32Array offsets. */
export function pack(keys) {
  const enc = new TextEncoder();
  const parts = keys.map((k) => (typeof k === 'string' ? enc.encode(k) : k));
  let total = 0;
  for (const p of parts) total += p.length;
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(parts.length + 1);
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    bytes.set(parts[i], pos);
    pos += parts[i].length;
    offsets[i + 1] = pos;
  }
  return { bytes, offsets };
}

/** Rotates `arr` by `r` (to alternate the order of contenders between repetitions). */
export function rotate(arr, r) {
  const k = ((r % arr.length) + arr.length) % arr.length;
  return arr.slice(k).concat(arr.slice(0, k));
}

export function fmt(x, digits = 1) {
  if (x === undefined || x === null || Number.isNaN(x)) return '–';
  if (typeof x !== 'number') return String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  if (Math.abs(x) >= 100) return x.toFixed(0);
  return x.toFixed(digits);
}

export function table(header, rows) {
  const lines = ['| ' + header.join(' | ') + ' |', '|' + header.map((_, i) => (i === 0 ? '---' : '---:')).join('|') + '|'];
  for (const r of rows) lines.push('| ' + r.join(' | ') + ' |');
  return lines.join('\n');
}

export function parseArgs(argv, defaults) {
  const o = { ...defaults };
  for (const a of argv) {
    const m = a.match(/^--([^=]+)(?:=(.*))?$/);
    if (!m) continue;
    const v = m[2] === undefined ? true : m[2];
    o[m[1]] = typeof defaults[m[1]] === 'number' ? Number(v) : v;
  }
  return o;
}

/**
 * Replaces the section of docs/BENCHMARKS.md between `<!-- name:begin -->` and `<!-- name:end -->`
 * with `md`; when the markers are missing, appends them under `## heading` and a "Rerun:" line.
 */
export function writeDocSection(name, md, heading, rerun) {
  const doc = new URL('../../docs/BENCHMARKS.md', import.meta.url);
  const text = readFileSync(doc, 'utf8');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${begin}\n${md}\n${end}`;
  writeFileSync(doc, text.includes(begin)
    ? text.replace(new RegExp(`${begin}[\\s\\S]*?${end}`), () => block)
    : `${text.trimEnd()}\n\n## ${heading}\n\nRerun: ${rerun}\n\n${block}\n`);
}

/**
 * Prints a benchmark's markdown `md` and, when the command line has --write-docs, writes it into
 * docs/BENCHMARKS.md as the section `name` (writeDocSection), to be rerun with
 * `node tests/bench/<name>-bench.mjs --write-docs` (part of `npm run bench`, then `more`).
 * Returns whether it wrote.
 */
export function publishSection(name, md, heading, more = '') {
  process.stdout.write(`${md}\n`);
  if (!process.argv.includes('--write-docs')) return false;
  writeDocSection(name, md, heading,
    `\`node tests/bench/${name}-bench.mjs --write-docs\` (part of \`npm run bench\`${more}).`);
  return true;
}
