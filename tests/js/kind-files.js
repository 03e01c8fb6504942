// The kinds' test files, tests/kinds/<name>.mjs (docs/CONTRIBUTING.md, "Adding a filter kind"):
// each exports what the tests know of one kind beyond its class, any of `conformance` (entries of
// tests/js/filters.js), `golden` (its golden recipes, below) and `readBody` (its body reader for
// tests/format/reader.mjs, written from docs/FORMAT.md).
//
// The golden recipes, the one list of the files in tests/fixtures/golden (format version 1): one
// recipe a line,
//   <file> <kind> <option=value>... n=<keys added> [remove=<keys removed>]
// Keys are "golden:<i>" for i < n (added in order, with addAll); then "golden:<i>" for i < remove
// are removed. Each file is generated once by scripts/gen-golden.mjs (wasm build) and committed;
// both builds must rebuild every recipe to exactly these bytes and read every file back
// (tests/js/golden.test.js, tests/cpp/golden_test.cc).
import { readdirSync, readFileSync } from 'node:fs';

export const KINDS_DIR = new URL('../kinds/', import.meta.url);

const names = () => readdirSync(KINDS_DIR).filter((f) => f.endsWith('.mjs')).sort();

/**
 * The golden recipe lines of every kind file, by file name, read as text (so that the scripts and
 * the C++ test, tests/cpp/fixture_files.h, read them without loading the library): the lines
 * between "export const golden = `" and the closing backquote.
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
