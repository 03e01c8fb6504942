// Where the shipped bytes go (issue 14, target 6): the gzipped wasm + glue + JS the package ships,
// and the wasm's code split by what it is (Embind and our bindings, the filter core, libc/libc++
// and malloc, data), from a re-link of the same objects with function names kept.
//   node tests/bench/size-bench.mjs [--write-docs]      (after scripts/build.sh)
// With --write-docs the section of docs/BENCHMARKS.md between <!-- size:begin --> and
// <!-- size:end --> is replaced.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { publishSection } from './lib.mjs';

const root = new URL('../..', import.meta.url).pathname;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// the shipped files, measured as the pack suite measures them: our JS is what package.json's
// "exports" loads, the minified build of scripts/build-js.mjs (run by scripts/build.sh)
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const wasm = readFileSync(`${root}dist/wasm/bloomcuckoo.wasm`);
const glue = readFileSync(`${root}dist/wasm/bloomcuckoo.mjs`);
const shippedJs = pkg.exports['.'].default.replace(/^\.\//, '');
const ours = readFileSync(`${root}${shippedJs}`);
// the readable sources it is built from, concatenated
const sources = Buffer.concat(readdirSync(`${root}js`, { recursive: true }).filter((f) => f.endsWith('.js') && !f.endsWith('.min.js')).sort()
  .map((f) => readFileSync(`${root}js/${f}`)));

// re-link the wasm build's objects with --profiling-funcs (names kept) at -O1: binaryen then does
// not inline one function into another, so each function's code stays where it was written (the
// shipped -Oz link inlines core functions called once into their binding wrappers)
const linkDir = `${root}build/wasm`;
const link = readFileSync(`${linkDir}/CMakeFiles/bloomcuckoo_wasm.dir/link.txt`, 'utf8').split('\n')[0];
const tmp = mkdtempSync(join(tmpdir(), 'bc-size-'));
const cmd = link.replace(/--closure=1/, '').replace(/-o \S+bloomcuckoo\.mjs/, `-o ${tmp}/named.mjs`) + ' --profiling-funcs -O1 -sASSERTIONS=0';
const r = spawnSync('sh', ['-c', cmd], { cwd: linkDir, encoding: 'utf8' });
if (r.status !== 0) throw new Error(`re-link failed: ${r.stderr}`);
const named = readFileSync(`${tmp}/named.wasm`);
rmSync(tmp, { recursive: true, force: true });

// a small reader of the code, data and name sections
function sections(b) {
  let p = 8;
  const leb = () => { let v = 0; let s = 0; let x; do { x = b[p++]; v += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return v; };
  const out = { imports: 0, bodies: [], names: new Map(), data: Buffer.alloc(0) };
  while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const start = p;
    if (id === 2) {
      for (let n = leb(), i = 0; i < n; i++) {
        p += leb(); p += leb();
        const kind = b[p++];
        if (kind === 0) { leb(); out.imports++; } else if (kind === 1) { p++; if (b[p++] & 1) { leb(); } leb(); } else if (kind === 2) { if (b[p++] & 1) { leb(); } leb(); } else { p += 2; }
      }
    } else if (id === 10) {
      for (let n = leb(), i = 0; i < n; i++) { const s0 = p; const len = leb(); out.bodies.push({ idx: out.imports + i, bytes: b.subarray(s0, p + len) }); p += len; }
    } else if (id === 11) {
      out.data = b.subarray(start, start + size);
    } else if (id === 0) {
      const len = leb();
      const name = b.subarray(p, p + len).toString();
      p += len;
      if (name === 'name') {
        while (p < start + size) {
          const sub = b[p++];
          const end = leb() + p;
          if (sub === 1) for (let n = leb(), i = 0; i < n; i++) { const idx = leb(); const l = leb(); out.names.set(idx, b.subarray(p, p + l).toString()); p += l; }
          p = end;
        }
      }
    }
    p = start + size;
  }
  return out;
}
const s = sections(named);
const GROUPS = [
  ['Embind: class/function registration, invokers, wire types, our bindings/ wrappers', /__wasm_call_ctors|bindings::|emscripten::|embind|_emval|EmscriptenBindingInitializer|__getTypeName|type_info|__cxxabiv1/],
  ['filter core (cpp/src: the filters, hashing, format)', /bloomcuckoo::/],
  ['libc, libc++ and emmalloc', /./],
];
const groups = GROUPS.map(([name]) => ({ name, raw: 0, parts: [], top: [] }));
for (const { idx, bytes } of s.bodies) {
  const name = s.names.get(idx) ?? `f${idx}`;
  const g = groups[GROUPS.findIndex(([, re]) => re.test(name))];
  g.raw += bytes.length;
  g.parts.push(bytes);
  g.top.push([bytes.length, name]);
}
const codeRaw = s.bodies.reduce((a, x) => a + x.bytes.length, 0);
const shippedCode = sections(wasm).bodies.reduce((a, x) => a + x.bytes.length, 0);
const rows = groups.map((g) => `| ${g.name} | ${g.raw.toLocaleString('en-US')} | ${kb(gz(Buffer.concat(g.parts)))} |`);
const total = gz(wasm) + gz(glue) + gz(ours);
const md = [
  `Shipped (gzip -9): wasm ${kb(gz(wasm))} + Emscripten glue ${kb(gz(glue))} + our JS ${kb(gz(ours))} = **${kb(total)}**`
    + ` (target ≤ 60 KB: ${total <= 60 * 1024 ? 'met' : 'not met'}).`,
  '',
  `The wasm by what it is, from a re-link of the same objects at -O1 with names kept (${codeRaw.toLocaleString('en-US')} bytes of`
    + ` code, against ${shippedCode.toLocaleString('en-US')} shipped at -Oz: there binaryen inlines core functions called once into`
    + ' their binding wrappers, which would blur the split). Each group is gzipped alone, so the parts add'
    + ' up to more than the whole:',
  '',
  '| part | raw bytes | gzip -9 alone |',
  '|---|---:|---:|',
  ...rows,
  `| data segment (error messages, Embind's class and method names, other strings and constants; the CRC tables are built at start-up) | ${s.data.length.toLocaleString('en-US')} | ${kb(gz(s.data))} |`,
  '',
  `Our JS ships minified (${shippedJs}: js/ bundled by Rollup and minified by terser, scripts/build-js.mjs,`,
  `run by the build and by \`npm pack\`): ${kb(gz(ours))}, against ${kb(gz(sources))} for the readable sources in js/ concatenated.`,
  '',
  'How the 80.5 KB of issue 14 came down, one measured step at a time (the speed checks are in each',
  'commit: wasm-core batches, has() per call, 32 MiB union/intersect/serialize, Redis-class lookups):',
  '',
  '| step | gzip -9 saved |',
  '|---|---:|',
  '| our JS shipped as one minified ES module instead of the 19 source files | 11.5 KB |',
  '| core at -O2 without loop unrolling, the loop vectorizer only in the Bloom, blocked and counting files (was -O3; batch queries as fast or faster) | 4.7 KB |',
  '| no RTTI (Embind identifies types without type_info), with a `%p`-only `siprintf` so that does not link printf | 2.2 KB |',
  '| Embind\'s builtin types the bindings never use (wide strings, `val`, memory views) registered by no-ops: their glue is left out | 0.6 KB |',
  '| less inlining (threshold 50) in the Redis-compatible, binary fuse and scalable files, which did not change their speed | 1.0 KB |',
  '| terser over the Closure-minified glue | 0.4 KB |',
  '| the glue: only the Module options the loader passes, TextDecoder only, `ENVIRONMENT=web` | 0.6 KB |',
  '| a second binaryen -Oz after the link, `-mnontrapping-fptoint`, three bindings nothing called | 0.7 KB |',
  '| each body read straight into the fresh filter Deserialize made (no second temporary and move per class; issue 22) | 0.4 KB |',
  '| the Embind adapters at -O2 instead of -Oz: since issue 22 they are thin templates, and -O2 inlines the status check and the key region read into each instead of calling them on every one-key call | 0.6 KB |',
  '',
  'Tried and not kept: the common verbs bound once on a polymorphic base class (dropping 45 of the',
  '~200 method registrations saves 0.35 KB, and a base-class method costs an upcast call into wasm on',
  'every `has()`); registering methods through one out-of-line function per signature (+0.5 KB);',
  '`-sDYNAMIC_EXECUTION=0` for every runtime (-0.35 KB, but a bare Embind call takes 95 ns instead of',
  '28); -Os for the whole core (-7 KB, 1.5-2.5x slower), for the CRC file (the CRC 2.8 -> 0.3 GB/s)',
  'or inline threshold 50 in the Bloom and cuckoo files (30-50% slower queries); the loop vectorizer',
  'off in the Bloom, blocked and counting files (-0.6 KB, union/intersect 40% slower). The CRC tables',
  'were already built at start-up, so there was no data to take out of the binary.',
  '',
  'What is left: the filter core (its group above; the Redis-compatible classes are about a quarter',
  'of it), Embind (its group, the names in the data segment, and most of the glue, which is its',
  'runtime), and the error messages. The next big step would be plain `extern "C"` exports with a',
  'hand-written JS call table instead of Embind (its group less the wrappers that would stay, and',
  'most of the glue), which keeps the JS API but rewrites bindings/ and every core call in js/; past',
  'that, the core shrinks only by dropping features or by trading speed (-Os).',
].join('\n');
publishSection('size', md, 'Size: what the shipped bytes are');
