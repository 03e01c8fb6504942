// How SCANDUMP numbers a RedisBloom dump's data: after the header chunk (iterator 1), runs of at
// most 16 MiB (RedisBloom 2.6's chunk limit), each under iterator 1 + the byte offset its run
// ends at. No imports: the main entry (toRedisDump) and bloomcuckoo/redis (a replica's empty CF)
// both use it.

/** SCANDUMP's chunk limit (RedisBloom 2.6). */
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * The [iterator, bytes] chunks after the header for `parts` runs of data: part i has
 * lengthOf(i) bytes, and bytesAt(i, at, len) gives len of them from offset at.
 */
export function dataChunks(parts, lengthOf, bytesAt) {
  const chunks = [];
  let offset = 0;
  for (let i = 0; i < parts; i++) {
    const bytes = lengthOf(i);
    for (let at = 0; at < bytes; at += MAX_CHUNK_BYTES) {
      const len = Math.min(MAX_CHUNK_BYTES, bytes - at);
      offset += len;
      chunks.push([1 + offset, bytesAt(i, at, len)]);
    }
  }
  return chunks;
}
