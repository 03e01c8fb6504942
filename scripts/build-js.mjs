// Builds the JS the npm package ships from the readable sources (js/, bin/), which stay what the
// repo's tests, demo, benchmarks and scripts import:
//   js/index.min.js (+ .map)        the library: js/index.js and everything it imports in one ES
//                                   module, minified. '#glue' stays an import (package.json
//                                   "imports" picks the glue per runtime), and the file sits next
//                                   to js/wasm/, so `new URL('./wasm/bloomcuckoo.wasm',
//                                   import.meta.url)` still finds the wasm.
//   bin/bloomcuckoo.min.js (+ .map) the CLI, built the same way, importing ../js/index.min.js.
//   js/redis.min.js (+ .map)        bloomcuckoo/redis (js/redis-entry.js and its modules),
//                                   importing ./index.min.js: one wasm instance with the library.
// Rollup bundles (it keeps class declarations and the loader's dynamic import as written; its wasm
// build, @rollup/wasm-node, has no per-platform binaries for package-lock.json to miss); terser
// minifies, keeping class names (error messages show them) and the `webpackIgnore` /
// `@vite-ignore` comments of that import (without them webpack and Vite warn about it). The
// source maps carry the sources. The pack suite checks the build answers as the sources do.
// Run by scripts/build.sh and by `npm pack` (prepack), so a tarball holds what this wrote.
//   node scripts/build-js.mjs
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from '@rollup/wasm-node';
import { minify } from 'terser';

const root = fileURLToPath(new URL('..', import.meta.url));

for (const f of ['bloomcuckoo.mjs', 'bloomcuckoo.noeval.mjs', 'bloomcuckoo.wasm']) {
  if (!existsSync(`${root}js/wasm/${f}`)) {
    console.error(`[build-js] js/wasm/${f} is missing: build the wasm first (npm run build)`);
    process.exit(1);
  }
}

async function build({ input, out, library, shipped }) {
  const bundle = await rollup({
    input: `${root}${input}`,
    // '#glue', node:*, the CLI's optional 'redis': imports, not bundled
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    plugins: library ? [] : [{
      // the CLI and the redis entry import the library's source (js/index.js): their builds import
      // the shipped one
      name: 'shipped-library',
      resolveId: (id, from) => (from && resolve(dirname(from), id) === `${root}js/index.js` ? { id: shipped, external: 'relative' } : null),
    }],
    onwarn(w) { throw new Error(`rollup: ${w.message}`); },
  });
  const name = out.slice(out.lastIndexOf('/') + 1);
  const { output: [chunk] } = await bundle.generate({ format: 'es', sourcemap: true, sourcemapExcludeSources: false });
  await bundle.close();
  const min = await minify({ [name]: chunk.code }, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    keep_classnames: true,
    format: { comments: /webpackIgnore|@vite-ignore/ },
    sourceMap: { content: chunk.map, filename: name, url: `${name}.map` },
  });
  writeFileSync(`${root}${out}`, `${min.code}\n`);
  writeFileSync(`${root}${out}.map`, min.map);
  return min.code;
}

const lib = await build({ input: 'js/index.js', out: 'js/index.min.js', library: true });
// what bundlers and runtimes rely on: the wasm URL in the form bundlers emit as an asset, the glue
// import, and node:fs/promises imported through a variable with the comments that tell bundlers
// to leave it alone
for (const needle of ['new URL("./wasm/bloomcuckoo.wasm",import.meta.url)', 'from"#glue"',
  /import\(\/\* webpackIgnore: true \*\/\s*\/\* @vite-ignore \*\/\s*[A-Za-z_$]/]) {
  if (typeof needle === 'string' ? !lib.includes(needle) : !needle.test(lib)) throw new Error(`js/index.min.js lost ${needle}`);
}
const cli = await build({ input: 'bin/bloomcuckoo.js', out: 'bin/bloomcuckoo.min.js', library: false, shipped: '../js/index.min.js' });
if (!cli.startsWith('#!/usr/bin/env node\n') || !cli.includes('from"../js/index.min.js"') || /\.\.\/js\/index\.js/.test(cli)) {
  throw new Error('bin/bloomcuckoo.min.js: no node #! line, or it does not import ../js/index.min.js');
}
chmodSync(`${root}bin/bloomcuckoo.min.js`, 0o755);
const redis = await build({ input: 'js/redis-entry.js', out: 'js/redis.min.js', library: false, shipped: './index.min.js' });
if (!redis.includes('from"./index.min.js"') || /index\.js"/.test(redis)) throw new Error('js/redis.min.js does not import ./index.min.js');
console.error(`[build-js] js/index.min.js ${lib.length} B, bin/bloomcuckoo.min.js ${cli.length} B, js/redis.min.js ${redis.length} B`);
