// Helpers the RedisBloom tests share: fixture bytes, dump comparison, and a live server's
// SCANDUMP / LOADCHUNK in the shape fromRedisDump / toRedisDump use.
import { FilterError } from '../../js/index.js';
import { skipReason, startRedisBloom } from './server.mjs';

/** Hex as written in the fixtures ('-' is empty) → Uint8Array. */
export const fromHex = (h) => (h === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(h, 'hex')));

/** Two lists of [iterator, bytes] with the same iterators and the same bytes. */
export const sameChunks = (a, b) => a.length === b.length
  && a.every(([it, d], i) => it === b[i][0] && Buffer.compare(Buffer.from(d), Buffer.from(b[i][1])) === 0);

/** The FilterError code fn throws ('no error' when it does not; name and message for others). */
export const codeOf = (fn) => {
  try { fn(); } catch (e) { return e instanceof FilterError ? e.code : `${e.name}: ${e.message}`; }
  return 'no error';
};

/**
 * Loads `chunks` with each bit of the header chunk flipped in turn: each load either throws
 * FilterError CORRUPT_DATA or gives a filter that use(f) can still query. Returns how many of the
 * flips were refused.
 */
export function flipHeaderBits(chunks, load, use) {
  const header = chunks[0][1];
  let rejected = 0;
  for (let bit = 0; bit < header.length * 8; bit++) {
    const h = Uint8Array.from(header);
    h[bit >> 3] ^= 1 << (bit & 7);
    try {
      const f = load([[1, h], ...chunks.slice(1)]);
      use(f);
      f.free();
    } catch (err) {
      expect(err).toBeInstanceOf(FilterError);
      expect(err.code).toBe('CORRUPT_DATA');
      rejected++;
    }
  }
  return rejected;
}

/** `${prefix}.SCANDUMP` to the end: [iterator, bytes] pairs, the final [0, empty] included. */
export async function scanDump(client, prefix, key) {
  const out = [];
  for (let it = 0; ;) {
    const [next, data] = await client.sendCommand([`${prefix}.SCANDUMP`, key, String(it)]);
    it = Number(next);
    out.push([it, data ?? new Uint8Array(0)]);
    if (it === 0) return out;
  }
}

/** `${prefix}.LOADCHUNK` of every [iterator, bytes] pair, in order. */
export async function loadChunks(client, prefix, key, chunks) {
  for (const [it, d] of chunks) {
    await client.sendCommand([`${prefix}.LOADCHUNK`, key, String(it), Buffer.from(d.buffer, d.byteOffset, d.byteLength)]);
  }
}

/**
 * A describe() block against a live RedisBloom, started before and stopped after it. Returns
 * live(name, fn(client), timeout): a test that runs when a server could be started; otherwise one
 * SKIP line is printed for the block and its tests pass without running.
 */
export function liveSuite(title, body, { oracle = '2.6' } = {}) {
  let rb = null;
  const live = (name, fn, timeout) => test(name, async () => {
    if (rb) await fn(rb.client);
  }, timeout);
  describe(title, () => {
    beforeAll(async () => {
      rb = await startRedisBloom({ oracle });
      if (!rb) console.log(`SKIP ${title}: ${skipReason() ?? 'no RedisBloom module found'} (fixtures still checked)`);
    }, 30000);
    afterAll(async () => { if (rb) await rb.stop(); });
    body(live);
  });
}
