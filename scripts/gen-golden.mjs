// Writes tests/fixtures/golden/*.bin from the golden recipes (the kinds' test files, tests/kinds/<name>.mjs)
// with the wasm build. Run once per format version; committed files must never change afterwards
// (tests compare against them).
//   node scripts/gen-golden.mjs [--force]
import { existsSync, writeFileSync } from 'node:fs';
import { init } from '../js/main/index.js';
import { GOLDEN_DIR, build, recipes } from '../tests/js/golden.js';

await init();
for (const r of recipes()) {
  const url = new URL(r.file, GOLDEN_DIR);
  if (existsSync(url) && !process.argv.includes('--force')) { console.log(`keep ${r.file}`); continue; }
  const f = build(r);
  writeFileSync(url, new Uint8Array(f.serialize()));
  console.log(`wrote ${r.file} (${f.byteLength} bytes of filter)`);
  f.free();
}
