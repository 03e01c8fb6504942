// RedisBloom dumps as BF.SCANDUMP / CF.SCANDUMP reply them: a list of [iterator, bytes] pairs.
// normalizeRedisChunks() is the one place that reads that shape; the classes that parse the
// bytes (RedisBloomFilter, RedisCuckooFilter) take its result.
import { FilterError } from './errors.js';

/** The most data one dump may carry into wasm memory here: 4 GiB (a wasm32 address space). */
const MAX_DUMP_BYTES = 2 ** 32;

/** The lists normalizeRedisChunks made (so a caller that normalized first is not checked twice). */
const normalized = new WeakSet();

function iteratorOf(v, i) {
  let n;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= 0n ? Number(v) : -1;
  else if (typeof v === 'string' || (v instanceof Uint8Array)) {
    const s = typeof v === 'string' ? v : new TextDecoder().decode(v);
    n = /^[0-9]{1,16}$/.test(s) ? Number(s) : -1;
  } else n = -1;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new FilterError('CORRUPT_DATA', `fromRedisDump: chunk ${i} has no valid iterator (a non-negative integer), got ${typeof v}`);
  }
  return n;
}

function bytesOf(v, i) {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (v === null || v === undefined) return new Uint8Array(0);
  throw new FilterError('CORRUPT_DATA', `fromRedisDump: chunk ${i} must carry bytes (Uint8Array, Buffer or ArrayBuffer), got ${typeof v}; ` +
    'ask for binary replies per command (node-redis 5, 6: sendCommand(args, { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } }); ' +
    '4: { returnBuffers: true }; ioredis: callBuffer)');
}

/**
 * Reads SCANDUMP's reply shape: an array (or iterable) of [iterator, bytes] pairs in the order the
 * server sent them, with or without the final [0, empty]. Iterators may be numbers, bigints,
 * decimal strings or their bytes; data may be any byte view. Returns [{ iterator, bytes }], the
 * final [0, empty] dropped, marked so that normalizing it again returns it as it is. Throws
 * FilterError CORRUPT_DATA for anything else.
 */
export function normalizeRedisChunks(chunks) {
  if (normalized.has(chunks)) return chunks;
  if (chunks === null || typeof chunks !== 'object' || typeof chunks[Symbol.iterator] !== 'function') {
    throw new FilterError('CORRUPT_DATA', 'fromRedisDump: expected an array of [iterator, bytes] pairs as SCANDUMP replied them');
  }
  const out = [];
  let total = 0;
  let i = 0;
  let ended = false;
  for (const pair of chunks) {
    if (ended) throw new FilterError('CORRUPT_DATA', `fromRedisDump: chunk ${i} comes after the end marker [0, empty]`);
    if (pair === null || typeof pair !== 'object' || pair.length !== 2) {
      throw new FilterError('CORRUPT_DATA', `fromRedisDump: chunk ${i} is not an [iterator, bytes] pair`);
    }
    const iterator = iteratorOf(pair[0], i);
    const bytes = bytesOf(pair[1], i);
    if (iterator === 0) {
      if (bytes.length !== 0) throw new FilterError('CORRUPT_DATA', `fromRedisDump: chunk ${i} has iterator 0 but carries ${bytes.length} bytes`);
      ended = true;  // the end marker: nothing may follow it
      i++;
      continue;
    }
    total += bytes.length;
    if (total > MAX_DUMP_BYTES) throw new FilterError('CORRUPT_DATA', `fromRedisDump: more than ${MAX_DUMP_BYTES} bytes of chunks`);
    out.push({ iterator, bytes });
    i++;
  }
  if (out.length === 0) throw new FilterError('CORRUPT_DATA', 'fromRedisDump: no chunks (a dump starts with the header chunk, iterator 1)');
  normalized.add(out);
  return out;
}
