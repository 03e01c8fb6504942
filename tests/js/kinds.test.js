// The JS kind table (js/kinds.js) against the C++ one (BLOOMCUCKOO_FILTER_KINDS) and against
// everything in JS that lists kinds: a kind missing from any of them fails here.
import { readFileSync } from 'node:fs';
import * as lib from '../../js/index.js';
import { KINDS } from '../../js/kinds.js';
import { KINDS as CLI_KINDS } from '../../bin/lib/kinds.js';
import { FILTERS } from './filters.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('the JS table is the C++ table: same numbers, names and classes', () => {
  const header = read('cpp/include/bloomcuckoo/serialization.h');
  const rows = [...header.matchAll(/X\((\d+), k\w+, "([a-z-]+)", (\w+), kHash\w+\)/g)]
    .map(([, n, name, cls]) => [Number(n), name, cls]);
  expect(rows.length).toBeGreaterThan(0);
  expect(KINDS.map(([n, name, Cls]) => [n, name, Cls.name])).toEqual(rows);
});

test.each(KINDS.map(([n, name, Cls]) => [name, n, Cls]))('%s: exported, in the CLI, the conformance list, the docs', (name, n, Cls) => {
  expect(lib[Cls.name]).toBe(Cls);
  expect(Object.keys(CLI_KINDS)).toContain(name);
  expect(CLI_KINDS[name].className).toBe(Cls.name);
  expect(FILTERS.map((f) => f.Cls)).toContain(Cls);
  expect(read('docs/API.md')).toContain(Cls.name);
  expect(read('docs/FORMAT.md')).toContain(`## Body of kind ${n}:`);
  expect(read('js/index.d.ts')).toContain(`export class ${Cls.name}`);
});

test('nothing lists a kind the table does not have', () => {
  expect(Object.keys(CLI_KINDS).sort()).toEqual(KINDS.map(([, name]) => name).sort());
});
