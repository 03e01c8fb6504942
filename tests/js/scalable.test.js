import { init, ScalableBloomFilter, FilterError } from '../../js/main/index.js';

beforeAll(() => init());
const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

test('layers grow by expansion with error tightened by 0.5; old keys stay found', () => {
  const f = new ScalableBloomFilter({ capacity: 100, errorRate: 0.01, expansion: 2 });
  const keys = keysOf('k', 1500);
  expect(f.addAll(keys)).toBeGreaterThan(1450);
  const { layers } = f.info();
  expect(layers.length).toBe(4); // 100 + 200 + 400 + 800 >= 1500
  layers.forEach((l, i) => {
    expect(l.capacity).toBe(100 * 2 ** i);
    if (i > 0) expect(l.errorRate).toBeCloseTo(layers[i - 1].errorRate * 0.5, 12);
  });
  expect(f.hasAll(keys).every((v) => v === 1)).toBe(true);
  expect(f.add('k0')).toBe(false); // already present: not added again (BF.ADD → 0)
  f.free();
});

test('nonScaling: add throws FULL at capacity and changes nothing', () => {
  const f = new ScalableBloomFilter({ capacity: 10, errorRate: 0.01, nonScaling: true });
  const keys = keysOf('n', 10);
  expect(f.addAll(keys)).toBe(10);
  const before = new Uint8Array(f.serialize());
  let err;
  try { f.add('one too many'); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(FilterError);
  expect(err.code).toBe('FULL');
  expect(new Uint8Array(f.serialize())).toEqual(before);
  let batchErr;
  try { f.addAll(['x1', 'x2']); } catch (e) { batchErr = e; }
  expect(batchErr.code).toBe('FULL');
  expect(batchErr.message).toMatch(/0 keys handled/);
  expect(f.info().layers.length).toBe(1);
  f.free();
});

test('bad options name the option', () => {
  for (const [o, re] of [[{ capacity: 10, errorRate: 0.1, expansion: 0 }, /expansion .* got 0/],
    [{ capacity: 10, errorRate: 0.1, nonScaling: 'yes' }, /nonScaling must be true or false/],
    [{ capacity: 10, errorRate: 1.5 }, /errorRate/]]) {
    let e;
    try { new ScalableBloomFilter(o); } catch (err) { e = err; }
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toMatch(re);
  }
});
