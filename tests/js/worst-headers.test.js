// The worst header of every kind (issue 34), read by every wasm reader: the main entry's
// deserialize (and deserializeFrom, the streamed reader), RedisBloomFilter/RedisCuckooFilter
// .fromRedisDump and bloomcuckoo/check's open. Each header claims the most work for its bytes
// (counts, lengths and sub-filters at their limits); every reader must judge n bytes in O(n) time
// before any work proportional to the claim, so each verdict comes within a generous ceiling
// (CEILING_MS; the quadratic CF header took 5-41 s before). tests/cpp/worst_header_test.cc reads
// the same headers natively.
import {
  init, deserialize, deserializeFrom, fromRedisDump,
} from '../../js/main/index.js';
import { open } from '../../js/check/index.js';
import { dumps, frames } from '../fuzz/worst-headers.mjs';

const CEILING_MS = 1000;

// The verdict ('ok' or the error's code) and the milliseconds it took.
async function judged(read) {
  const start = performance.now();
  let verdict = 'ok';
  try {
    const f = await read();
    f.free();
  } catch (err) {
    verdict = err.code ?? String(err);
  }
  return { verdict, ms: performance.now() - start };
}

// frames() takes a real link record from the library: initialised before the table is made
await init();

describe.each(frames())('%s', (name, bytes, accepted) => {
  const want = accepted ? 'ok' : 'CORRUPT_DATA';
  const readers = [
    ['deserialize', () => deserialize(bytes)],
    ['deserializeFrom', () => deserializeFrom(bytes.length, (t, at) => t.set(bytes.subarray(at, at + t.length)))],
    ['check open', () => open(bytes)],
  ];
  test.each(readers)('%s judges it within the ceiling', async (reader, read) => {
    const { verdict, ms } = await judged(read);
    expect({ reader, verdict, fast: ms < CEILING_MS }).toEqual({ reader, verdict: want, fast: true });
  });
});

describe.each(dumps())('%s', (name, chunks, Cls, accepted) => {
  const want = accepted ? 'ok' : 'CORRUPT_DATA';
  test.each([['Class.fromRedisDump', (c) => Cls.fromRedisDump(c)], ['fromRedisDump', (c) => fromRedisDump(c)]])(
    '%s judges it within the ceiling', async (reader, read) => {
      const c = chunks();
      const { verdict, ms } = await judged(() => read(c));
      expect({ reader, verdict, fast: ms < CEILING_MS }).toEqual({ reader, verdict: want, fast: true });
    });
});
