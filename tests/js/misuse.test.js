// Issue 23, item 2: the common mistakes with a filter fail loudly instead of silently doing
// something else (each seen failing before the change).
import { inspect } from 'node:util';
import { BloomFilter, CuckooFilter, FilterError, init } from '../../js/main/index.js';

beforeAll(() => init());

test('JSON.stringify of a filter throws a FilterError pointing at serialize()', () => {
  const f = new BloomFilter({ capacity: 100, errorRate: 0.01 });
  expect(() => JSON.stringify(f)).toThrow(FilterError);
  expect(() => JSON.stringify({ f })).toThrow(/serialize\(\)/);
  f.free();
});

test('structuredClone of a filter throws, and the message says to send serialize() bytes', () => {
  const f = new CuckooFilter({ capacity: 100 });
  expect(() => structuredClone(f)).toThrow(/send filter\.serialize\(\) bytes/);
  const bytes = f.serialize();
  expect(structuredClone(bytes).byteLength).toBe(bytes.byteLength);   // what to send instead
  f.free();
});

test('console.log / util.inspect shows the class and its info(), and <freed> after free()', () => {
  const f = new BloomFilter({ capacity: 100, errorRate: 0.01 });
  f.add('a');
  const shown = inspect(f);
  expect(shown).toMatch(/^BloomFilter \{/);
  expect(shown).toMatch(/kind: 'bloom'/);
  expect(shown).toMatch(/size: 1/);
  expect(shown).not.toMatch(/_c/);
  f.free();
  expect(inspect(f)).toBe('BloomFilter <freed>');
});

test('addAll / hasAll of one string is a TypeError, and nothing is added', () => {
  const f = new BloomFilter({ capacity: 100, errorRate: 0.01 });
  expect(() => f.addAll('https://bad.example/')).toThrow(TypeError);
  expect(() => f.addAll('https://bad.example/')).toThrow(/one string/);
  expect(() => f.hasAll('https://bad.example/')).toThrow(TypeError);
  expect(f.size).toBe(0);
  expect(f.has('h')).toBe(false);
  f.free();
});
