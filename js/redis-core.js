// @internal What RedisBloomFilter and RedisCuckooFilter share: reading a dump into a core,
// writing one out of it, and adding a batch the way BF.MADD / CF.INSERT report a failure.
import { FilterError, statusName } from './errors.js';
import { Filter, withBytesInWasm } from './filter.js';
import { requireWasm } from './loader.js';
import { forEachChunk } from './keys.js';
import { dataChunks } from './dump-chunks.js';
import { normalizeRedisChunks } from './redis-dump.js';


/** A FilterError from the core's last status, prefixed with where it happened. */
export function coreError(context, status) {
  return new FilterError(statusName(status), `${context}: ${requireWasm().lastStatusMessage()}`);
}

/**
 * Reads [iterator, bytes] chunks (normalized) into `core` through its dump-loading methods
 * (loadDumpHeader, dumpChunkTarget, finishDumpLoad).
 */
export function loadRedisDump(core, chunks, context) {
  const [header, ...data] = chunks;
  if (header.iterator !== 1) throw new FilterError('CORRUPT_DATA', `${context}: the first chunk must be the header (iterator 1), got iterator ${header.iterator}`);
  const total = data.reduce((n, c) => n + c.bytes.length, 0);
  const status = withBytesInWasm(header.bytes, (ptr, len) => core.loadDumpHeader(ptr, len, total));
  if (status !== 0) throw coreError(context, status);
  const m = requireWasm();
  for (const { iterator, bytes } of data) {
    const target = core.dumpChunkTarget(iterator, bytes.length) >>> 0;
    if (target === 0) throw new FilterError('CORRUPT_DATA', `${context}: ${m.lastStatusMessage()}`);
    m.HEAPU8.set(bytes, target);
  }
  const done = core.finishDumpLoad();
  if (done !== 0) throw coreError(context, done);
}

/**
 * A filter of class `Cls` (wasm class `coreName`) from SCANDUMP chunks as the server sent them
 * (or as normalizeRedisChunks() returned them).
 */
export function filterFromDump(Cls, coreName, chunks) {
  const list = normalizeRedisChunks(chunks);
  const core = new (requireWasm()[coreName])();
  try {
    loadRedisDump(core, list, `${Cls.name}.fromRedisDump`);
  } catch (err) {
    core.delete();
    throw err;
  }
  return Filter._adopt(Cls, core);
}

/**
 * The [iterator, Uint8Array] pairs SCANDUMP would reply (without the final [0, empty]): the
 * header, then each part's bytes (a BF link's bitmap, a CF sub-filter's slots) in chunks of at
 * most 16 MiB that never span two parts. `parts` is their count, `bytesOf(i)` / `dataOf(i)` their
 * length and address. A header length of 0 means no dump (a CF with no items): [].
 */
export function dumpChunks(core, parts, bytesOf, dataOf) {
  const m = requireWasm();
  const headerLen = core.dumpHeaderSize();
  if (headerLen === 0) return [];
  const header = new Uint8Array(headerLen);
  withBytesInWasm(header, (ptr) => {
    core.writeDumpHeader(ptr);
    header.set(m.HEAPU8.subarray(ptr, ptr + headerLen));
  });
  return [[1, header], ...dataChunks(parts, bytesOf, (i, at, len) => {
    const base = (dataOf(i) >>> 0) + at;
    return m.HEAPU8.slice(base, base + len);
  })];
}

/**
 * Adds keys chunk by chunk with `addBatch(data, offsets, count, out, start)` (`start`: the index
 * of the chunk's first key), which writes 1/0 per key handled and returns (status << 16) | handled.
 * Returns how many were added; on an error throws it after the keys before it, saying how far it got.
 */
export function addAllReporting(keys, context, addBatch) {
  let added = 0;
  forEachChunk(keys, (data, offsets, count, out, start) => {
    const r = addBatch(data, offsets, count, out, start);
    const handled = r & 0xffff;
    const heap = requireWasm().HEAPU8;
    for (let i = 0; i < handled; i++) added += heap[out + i];
    const status = r >>> 16;
    if (status !== 0) {
      const err = coreError(context, status);
      err.message += ` (${start + handled} keys handled, ${added} added before it)`;
      throw err;
    }
  });
  return added;
}
