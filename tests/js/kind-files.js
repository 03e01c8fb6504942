// The kinds' test files, tests/kinds/<name>.mjs (docs/CONTRIBUTING.md, "Adding a filter kind"):
// each exports what the tests know of one kind beyond its class, any of `conformance` (entries of
// tests/js/filters.js), `golden` (its recipes, one a line as in tests/fixtures/golden/MANIFEST.txt)
// and `readBody` (its body reader for tests/format/reader.mjs, written from docs/FORMAT.md).
import { readdirSync, readFileSync } from 'node:fs';

export const KINDS_DIR = new URL('../kinds/', import.meta.url);

const names = () => readdirSync(KINDS_DIR).filter((f) => f.endsWith('.mjs')).sort();

/**
 * The golden recipe lines of every kind file, read as text (so that the scripts and the C++ test,
 * tests/cpp/fixture_files.h, read them without loading the library): the lines between
 * "export const golden = `" and the closing backquote.
 */
export function kindGoldenLines() {
  return names().flatMap((file) => {
    const m = /^export const golden = `([^`]*)`/m.exec(readFileSync(new URL(file, KINDS_DIR), 'utf8'));
    return m ? m[1].split('\n').filter((l) => l.trim()) : [];
  });
}

/** Loads every kind file: [{ name, module }], by file name. */
export async function loadKindFiles() {
  return Promise.all(names().map(async (file) => ({ name: file.slice(0, -4), module: await import(new URL(file, KINDS_DIR).href) })));
}
