// Golden files (tests/fixtures/golden): the wasm build rebuilds every recipe to exactly the
// committed bytes, and reads every file back to the same bytes. (tests/cpp/golden_test.cc does
// the same natively, so both builds agree byte for byte.)
import { readdirSync, readFileSync } from 'node:fs';
import { init, deserialize } from '../../js/main/index.js';
import { GOLDEN_DIR, build, recipes } from './golden.js';

beforeAll(() => init());

test.each(recipes().map((r) => [r.file, r]))('%s: rebuilt bytes equal the golden file; it reads back', (_file, r) => {
  const golden = new Uint8Array(readFileSync(new URL(r.file, GOLDEN_DIR)));
  const f = build(r);
  expect(Buffer.from(f.serialize()).equals(Buffer.from(golden))).toBe(true);
  const g = deserialize(golden);
  expect(g.info().kind).toBe(r.kind);
  expect(Buffer.from(g.serialize()).equals(Buffer.from(golden))).toBe(true);
  const kept = Array.from({ length: r.n - r.remove }, (_, i) => `golden:${i + r.remove}`);
  expect(g.hasAll(kept).every((v) => v === 1)).toBe(true);
  f.free();
  g.free();
});

// The recipes have one home, the kinds' test files: the folder holds their generated files only
// (a file no recipe names, or a list of recipes kept beside them, would be a second way).
test('every file of the golden folder is named by a recipe of a kind\'s test file', () => {
  const named = new Set(recipes().map((r) => r.file));
  expect(readdirSync(GOLDEN_DIR).filter((f) => !named.has(f))
    .map((f) => `tests/fixtures/golden/${f}: no recipe names it: a recipe goes in its kind's test file, tests/kinds/<name>.mjs (export const golden), and the folder holds only the files scripts/gen-golden.mjs writes`)).toEqual([]);
  expect(named.size).toBe(recipes().length);   // one recipe per file name
});
