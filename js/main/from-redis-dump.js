// fromRedisDump: a filter from RedisBloom's SCANDUMP replies, whichever type (BF or CF) it is.
import { FilterError } from './errors.js';
import { RedisBloomFilter } from './redis-bloom.js';
import { RedisCuckooFilter } from './redis-cuckoo.js';
import { normalizeRedisChunks } from './redis-dump.js';

/** A BF dump's header: 20 bytes, then 53 per link (at least one). A CF dump's: 38 bytes. */
const BF_HEADER = 20;
const BF_LINK = 53;
const CF_HEADER = 38;

/**
 * Reads BF.SCANDUMP or CF.SCANDUMP replies: [iterator, bytes] pairs exactly as the server sent
 * them, in order, with or without the final [0, empty]. Returns a RedisBloomFilter (or, for CF
 * dumps, a RedisCuckooFilter) that answers as the server does; the header chunk's length says
 * which. Corrupt, truncated, reordered or foreign chunks throw FilterError CORRUPT_DATA.
 * `options.server` ('2.6' or '8'): the server it came from (see RedisBloomFilter.fromRedisDump).
 */
export function fromRedisDump(chunks, options) {
  const list = normalizeRedisChunks(chunks);   // validates the shape once, with clear messages
  const n = list[0].bytes.length;
  if (n === CF_HEADER) return RedisCuckooFilter.fromRedisDump(list, options);
  if (n > BF_HEADER && (n - BF_HEADER) % BF_LINK === 0) return RedisBloomFilter.fromRedisDump(list, options);
  throw new FilterError('CORRUPT_DATA', `fromRedisDump: a ${n}-byte header chunk is neither BF's (20 + 53 per filter) nor CF's (38)`);
}
