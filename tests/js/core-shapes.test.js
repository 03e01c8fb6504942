// optimalShape of the cuckoo filters and the fuse filter: the core's sizing, read without
// allocating (bin/lib/memory.js takes the CLI's memory plan from them), equal to what the
// constructors and builds then make.
import { BinaryFuseFilter, CuckooFilter, init, RedisCuckooFilter } from '../../js/main/index.js';

beforeAll(() => init());

test('CuckooFilter.optimalShape is the first sub-filter the constructor makes', () => {
  let checked = 0;
  for (const capacity of [1, 2, 7, 100, 1000, 4095, 4096, 10000, 123457, 1000000]) {
    for (const bucketSize of [1, 2, 4, 8]) {
      for (const errorRate of [undefined, 0.1, 0.001, 0.0002]) {
        for (const fingerprintBits of [undefined, 12, 16]) {
          const o = { capacity, bucketSize, ...(errorRate && { errorRate }), ...(fingerprintBits && { fingerprintBits }) };
          let made;
          try {
            made = new CuckooFilter(o);
          } catch (err) {
            expect(() => CuckooFilter.optimalShape(o)).toThrow(expect.objectContaining({ code: err.code }));
            continue;
          }
          const info = made.info();
          expect(CuckooFilter.optimalShape(o)).toEqual({ buckets: info.buckets, fingerprintBits: info.fingerprintBits, byteLength: made.byteLength });
          made.free();
          checked++;
        }
      }
    }
  }
  expect(checked).toBeGreaterThan(300);
  expect(() => CuckooFilter.optimalShape({ capacity: 2 ** 52 })).toThrow(expect.objectContaining({ code: 'OUT_OF_MEMORY' }));
  expect(() => CuckooFilter.optimalShape({ capacity: 10, maxIterations: 5 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
});

test('RedisCuckooFilter.optimalShape is the sub-filter CF.RESERVE makes', () => {
  for (const capacity of [2, 3, 100, 1000, 1024, 1025, 99999]) {
    for (const bucketSize of [1, 2, 3, 4, 255]) {
      if (capacity < 2 * bucketSize) continue;
      const f = new RedisCuckooFilter({ capacity, bucketSize });
      expect(RedisCuckooFilter.optimalShape({ capacity, bucketSize })).toEqual({ buckets: f.info().buckets, byteLength: f.byteLength });
      f.free();
    }
  }
});

test('BinaryFuseFilter.optimalShape is the layout a build starts from', () => {
  for (const n of [0, 1, 2, 3, 10, 100, 1000, 5000, 20000, 100000]) {
    for (const fingerprintBits of [8, 16]) {
      const keys = Array.from({ length: n }, (_, i) => `k${i}`);
      const f = BinaryFuseFilter.build(keys, { fingerprintBits });
      const info = f.info();
      expect([n, BinaryFuseFilter.optimalShape(n, { fingerprintBits })]).toEqual([n, {
        segmentLength: info.segmentLength, segmentCount: info.segmentCount, arrayLength: info.arrayLength, byteLength: f.byteLength,
      }]);
      f.free();
    }
  }
  expect(() => BinaryFuseFilter.optimalShape(2 ** 40)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT',
    message: `BinaryFuseFilter.optimalShape: too many keys for a binary fuse filter (n: ${2 ** 40})` }));
  expect(() => BinaryFuseFilter.optimalShape(-1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
});
