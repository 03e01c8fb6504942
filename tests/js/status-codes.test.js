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

// Issue 37: a key batch outside the key region js/main/keys.js registered (only a bug there can
// make one) was refused as an empty batch with no code: addAll answered 0 and hasAll all false.
// Every batch now returns minus the code, which reaches the caller as a FilterError.
test('a key batch outside the registered key region is a FilterError, for every batch verb', async () => {
  const lib = await import('../../js/main/index.js');
  const { requireWasm } = await import('../../js/main/loader.js');
  await lib.init();
  const filters = [
    ...['BloomFilter', 'BlockedBloomFilter', 'CountingBloomFilter', 'ScalableBloomFilter', 'CuckooFilter', 'RedisBloomFilter']
      .map((name) => new lib[name]({ capacity: 100, errorRate: 0.01 })),
    new lib.RedisCuckooFilter({ capacity: 100 }),
  ];
  const builder = lib.BinaryFuseFilter.builder();
  filters[0].has('warm');                               // makes (and registers) the key scratch
  // the core now sees a region no batch lies in (a stale one, as a bug in keys.js would leave)
  requireWasm().setKeyRegion(0, 0, 0, 0);
  const keys = ['a', 'b', 'c'];
  const calls = [
    ...filters.map((f) => [`${f.constructor.name}.hasAll`, () => f.hasAll(keys)]),
    ...filters.map((f) => [`${f.constructor.name}.addAll`, () => f.addAll(keys)]),
    ['CountingBloomFilter.removeAll', () => filters[2].removeAll(keys)],
    ['BinaryFuseFilter builder addAll', () => builder.addAll(keys)],
  ];
  const outcomes = calls.map(([what, call]) => {
    try {
      return [what, 'returned', call()];
    } catch (err) {
      return [what, err.constructor.name, err.code, /key batch outside the registered key region/.test(err.message)];
    }
  });
  expect(outcomes).toEqual(calls.map(([what]) => [what, 'FilterError', 'INVALID_ARGUMENT', true]));
  expect(builder.size).toBe(0);
});
