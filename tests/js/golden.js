// Reads the golden recipes (the kinds' test files, tests/kinds/<name>.mjs; their format:
// tests/js/kind-files.js) and builds each recipe with the JS API.
import { KINDS } from '../../js/main/kinds.js';
import { kindGoldenLines } from './kind-files.js';

export const GOLDEN_DIR = new URL('../fixtures/golden/', import.meta.url);

/** The recipes of the kinds' test files (tests/kinds/<name>.mjs), by file name. */
export function recipes() {
  return kindGoldenLines()
    .map((line) => {
      const [file, kind, ...fields] = line.trim().split(/\s+/);
      const options = {};
      let n = 0;
      let remove = 0;
      for (const f of fields) {
        const [k, v] = f.split('=');
        if (k === 'n') n = Number(v); else if (k === 'remove') remove = Number(v); else options[k] = Number(v);
      }
      return { file, kind, options, n, remove };
    });
}

/** The filter of a recipe: its kind's class (js/main/kinds.js), `n` keys added, the first `remove` removed. */
export function build({ file, kind, options, n, remove }) {
  const Cls = KINDS.find(([, name]) => name === kind)?.[2];
  if (!Cls) throw new Error(`${file} (a golden recipe): kind '${kind}' is not in js/shared/kind-table.js (a row there, or fix the recipe)`);
  const keys = Array.from({ length: n }, (_, i) => `golden:${i}`);
  // a static filter (no add: binary fuse) is built from its keys in one call
  if (typeof Cls.prototype.addAll !== 'function') return Cls.build(keys, options);
  const f = new Cls(options);
  f.addAll(keys);
  for (let i = 0; i < remove; i++) f.remove(keys[i]);
  return f;
}
