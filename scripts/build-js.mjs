// Builds the JS the npm package ships from the readable sources (js/, bin/), which stay what the
// repo's tests, demo, benchmarks and scripts import:
//   dist/index.min.js (+ .map)        the library: js/main/index.js and everything it imports in one ES
//                                   module, minified. The Emscripten glue stays a relative import
//                                   (./wasm/bloomcuckoo.mjs, already minified by its own build),
//                                   and the file sits next to dist/wasm/, so `new URL('./wasm/
//                                   bloomcuckoo.wasm', import.meta.url)` still finds the wasm.
//   dist/index.noeval.min.js (+ .map) the same library importing ./wasm/bloomcuckoo.noeval.mjs, the
//                                   glue without `new Function`: package.json's "workerd" export
//                                   condition picks this complete second entry (no "imports"
//                                   indirection, which Parcel and plain browsers do not resolve).
//   dist/check.min.js (+ .map)        bloomcuckoo/check (js/check/index.js, standalone: the read-only
//                                   checker and its per-kind wasm URLs)
//   dist/bloomcuckoo.min.js (+ .map) the CLI, built the same way, importing ./index.min.js.
//   dist/redis.min.js (+ .map)        bloomcuckoo/redis (js/redis/index.js and its modules),
//                                   importing ./index.min.js: one wasm instance with the library.
// Rollup bundles (it keeps class declarations and the loader's dynamic import as written; its wasm
// build, @rollup/wasm-node, has no per-platform binaries for package-lock.json to miss); terser
// minifies, keeping class names (error messages show them) and the `webpackIgnore` /
// `@vite-ignore` comments of that import (without them webpack and Vite warn about it). The
// source maps carry the sources. The pack suite checks the build answers as the sources do.
// Run by scripts/build.sh and by `npm pack` (prepack), so a tarball holds what this wrote.
//   node scripts/build-js.mjs
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from '@rollup/wasm-node';
import { minify } from 'terser';
import { KIND_NAMES } from '../js/shared/kind-table.js';


const root = fileURLToPath(new URL('..', import.meta.url));

for (const f of ['bloomcuckoo.mjs', 'bloomcuckoo.noeval.mjs', 'bloomcuckoo.wasm']) {
  if (!existsSync(`${root}dist/wasm/${f}`)) {
    console.error(`[build-js] dist/wasm/${f} is missing: build the wasm first (npm run build)`);
    process.exit(1);
  }
}

const GLUE = './wasm/bloomcuckoo.mjs';

// the sources find the wasm in dist/wasm/ from js/<entry>/; the outputs sit beside it
const shippedUrls = (code) => code.replace(/new URL\((['"])(?:\.\.\/)+dist\/wasm\//g, "new URL($1./wasm/");

// bloomcuckoo/check's moduleUrl (js/check/index.js names a kind's module by a template): a literal
// URL per kind of the table, as bundlers need to emit each module
const MODULE_URL = 'const moduleUrl = (kind) => new URL(`../../dist/wasm/check-${kind}.wasm`, import.meta.url);';
const moduleUrls = {
  name: 'check-module-urls',
  transform(code, id) {
    if (id !== `${root}js/check/index.js`) return null;
    if (!code.includes(MODULE_URL)) throw new Error(`js/check/index.js has no line ${MODULE_URL}: scripts/build-js.mjs writes the literal URLs in its place`);
    const cases = KIND_NAMES.map((kind) => `    case '${kind}': return new URL('../../dist/wasm/check-${kind}.wasm', import.meta.url);\n`);
    return { code: code.replace(MODULE_URL, `function moduleUrl(kind) {\n  switch (kind) {\n${cases.join('')}  }\n}`), map: null };
  },
};

async function build({ input, out, library, shipped, glue = GLUE }) {
  const bundle = await rollup({
    input: `${root}${input}`,
    // node:*, the CLI's optional 'redis': imports, not bundled
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    plugins: library ? [moduleUrls, {
      // the glue: an import of the file beside the output (the no-eval build swaps it)
      name: 'glue',
      resolveId: (id, from) => (from && resolve(dirname(from), id) === `${root}dist/wasm/bloomcuckoo.mjs` ? { id: glue, external: true } : null),
    }] : [{
      // the CLI and the redis entry import the library's source (js/main/index.js): their builds import
      // the shipped one
      name: 'shipped-library',
      resolveId: (id, from) => (from && resolve(dirname(from), id) === `${root}js/main/index.js` ? { id: shipped, external: 'relative' } : null),
    }],
    onwarn(w) { throw new Error(`rollup: ${w.message}`); },
  });
  const name = out.slice(out.lastIndexOf('/') + 1);
  // source paths relative to the map (which sits beside the output), e.g. errors.js, ../js/main/keys.js
  const { output: [chunk] } = await bundle.generate({
    format: 'es', sourcemap: true, sourcemapExcludeSources: false,
    sourcemapPathTransform: (source) => relative(dirname(`${root}${out}`), resolve(root, source)),
  });
  await bundle.close();
  const min = await minify({ [name]: shippedUrls(chunk.code) }, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    keep_classnames: true,
    // Line breaks instead of semicolons, and none longer than 500 columns: Node prints the whole
    // source line of an uncaught error, which was the whole 30 KB file (31,558 bytes on stderr for
    // one forgotten errorRate; tests/js/shipped-errors.test.js keeps it under 2 KB). Gzipped, the
    // breaks cost about 50 bytes of the main entry (docs/BENCHMARKS.md, "Size").
    format: { comments: /webpackIgnore|@vite-ignore/, semicolons: false, max_line_len: 500 },
    sourceMap: { content: chunk.map, filename: name, url: `${name}.map` },
  });
  writeFileSync(`${root}${out}`, `${min.code}\n`);
  writeFileSync(`${root}${out}.map`, min.map);
  return min.code;
}

// the checks below read the code without its line breaks (terser may break a line between any tokens)
const flat = (code) => code.replace(/\n/g, '');
const lib = flat(await build({ input: 'js/main/index.js', out: 'dist/index.min.js', library: true }));
// what bundlers and runtimes rely on: the wasm URL in the form bundlers emit as an asset, the glue
// import, and node:fs/promises imported through a variable with the comments that tell bundlers
// to leave it alone
const noeval = flat(await build({ input: 'js/main/index.js', out: 'dist/index.noeval.min.js', library: true, glue: './wasm/bloomcuckoo.noeval.mjs' }));
for (const [file, code, glue] of [['dist/index.min.js', lib, GLUE], ['dist/index.noeval.min.js', noeval, './wasm/bloomcuckoo.noeval.mjs']]) {
  for (const needle of ['new URL("./wasm/bloomcuckoo.wasm",import.meta.url)', `from"${glue}"`,
    /import\(\/\* webpackIgnore: true \*\/\s*\/\* @vite-ignore \*\/\s*[A-Za-z_$]/]) {
    if (typeof needle === 'string' ? !code.includes(needle) : !needle.test(code)) throw new Error(`${file} lost ${needle}`);
  }
}
if (lib.includes('noeval') || (noeval.match(/bloomcuckoo\.noeval\.mjs/g) ?? []).length !== 1) {
  throw new Error('dist/index.noeval.min.js must import the no-eval glue, and only it; dist/index.min.js never');
}
const check = flat(await build({ input: 'js/check/index.js', out: 'dist/check.min.js', library: true }));
for (const kind of KIND_NAMES) {
  if (!check.includes(`new URL("./wasm/check-${kind}.wasm",import.meta.url)`)) {
    throw new Error(`dist/check.min.js has no URL of check-${kind}.wasm (the moduleUrls plugin of scripts/build-js.mjs writes one per kind)`);
  }
}
const cliCode = await build({ input: 'bin/bloomcuckoo.js', out: 'dist/bloomcuckoo.min.js', library: false, shipped: './index.min.js' });
const cli = flat(cliCode);
if (!cliCode.startsWith('#!/usr/bin/env node\n') || !cli.includes('from"./index.min.js"') || /index\.js"/.test(cli)) {
  throw new Error('dist/bloomcuckoo.min.js: no node #! line, or it does not import ./index.min.js');
}
chmodSync(`${root}dist/bloomcuckoo.min.js`, 0o755);
const redis = flat(await build({ input: 'js/redis/index.js', out: 'dist/redis.min.js', library: false, shipped: './index.min.js' }));
if (!redis.includes('from"./index.min.js"') || /index\.js"/.test(redis)) throw new Error('dist/redis.min.js does not import ./index.min.js');
console.error(`[build-js] dist/index.min.js ${lib.length} B, dist/check.min.js ${check.length} B, dist/bloomcuckoo.min.js ${cli.length} B, dist/redis.min.js ${redis.length} B`);
