// Issue 37: one code→name table per language. C++: the StatusCode enum
// (cpp/include/bloomcuckoo/status.h); JS: js/shared/status-codes.js, which the main entry (js/main/loader.js)
// and the checker (js/check/index.js) both import. Here the JS table is read against the enum, and no
// other JS source may keep a table of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { STATUS_NAMES, statusName } from '../../js/shared/status-codes.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

// kInvalidArgument → INVALID_ARGUMENT
const upperSnake = (camel) => camel.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

test('js/shared/status-codes.js is the C++ StatusCode enum: every value named as the enumerator, gaps UNKNOWN', () => {
  const header = read('cpp/include/bloomcuckoo/status.h');
  const body = header.match(/enum class StatusCode : \w+ \{([\s\S]*?)\};/)[1];
  const codes = [...body.matchAll(/^\s*k(\w+) = (\d+),/gm)].map(([, name, n]) => [Number(n), upperSnake(name)]);
  expect(codes.length).toBeGreaterThan(3);
  const expected = Array.from({ length: Math.max(...codes.map(([n]) => n)) + 1 }, (_, n) => codes.find(([m]) => m === n)?.[1] ?? 'UNKNOWN');
  expect(STATUS_NAMES).toEqual(expected);
  for (const [n, name] of codes) expect(statusName(n)).toBe(name);
  expect(statusName(200)).toBe('UNKNOWN');
});

test('no other JS source spells a code→name table', () => {
  const names = STATUS_NAMES.filter((n) => n !== 'UNKNOWN' && n !== 'OK');
  // an array literal holding three or more of the core's code names
  const table = new RegExp(`\\[[^\\]]*?(?:'(?:${names.join('|')})'[^\\]]*?){3}\\]`);
  const sources = readdirSync(new URL('../../js/', import.meta.url), { recursive: true }).filter((f) => f.endsWith('.js') && !f.endsWith('.min.js'));
  expect(sources).toContain('check/index.js');
  const withTable = sources.filter((f) => table.test(read(`js/${f}`)));
  expect(withTable).toEqual(['shared/status-codes.js']);
  for (const entry of ['js/main/loader.js', 'js/check/index.js']) expect([entry, read(entry)]).toEqual([entry, expect.stringContaining("from '../shared/status-codes.js'")]);
});
