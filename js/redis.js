// fromRedisDump: a filter from RedisBloom's SCANDUMP replies, whichever type (BF or CF) it is.
import { FilterError } from './errors.js';
import { RedisBloomFilter } from './redis-bloom.js';
import { RedisCuckooFilter } from './redis-cuckoo.js';
import { normalizeRedisChunks } from './redis-dump.js';

/** The classes that read RedisBloom dumps, tried in order; each refuses another type's header. */
const READERS = [RedisBloomFilter, RedisCuckooFilter];

/**
 * Reads BF.SCANDUMP or CF.SCANDUMP replies: [iterator, bytes] pairs exactly as the server sent
 * them, in order, with or without the final [0, empty]. Returns a RedisBloomFilter (or, for CF
 * dumps, a RedisCuckooFilter) that answers as the server does. Corrupt, truncated, reordered or
 * foreign chunks throw FilterError CORRUPT_DATA. `options.server` ('2.6' or '8'): the server it
 * came from (see RedisBloomFilter.fromRedisDump).
 */
export function fromRedisDump(chunks, options) {
  const list = normalizeRedisChunks(chunks);   // validates the shape once, with clear messages
  const reasons = [];
  for (const Reader of READERS) {
    try {
      return Reader.fromRedisDump(list.map(({ iterator, bytes }) => [iterator, bytes]), options);
    } catch (err) {
      if (!(err instanceof FilterError) || err.code !== 'CORRUPT_DATA') throw err;
      reasons.push(err.message);
    }
  }
  throw new FilterError('CORRUPT_DATA', `fromRedisDump: not a RedisBloom dump this build reads (${reasons.join('; ')})`);
}
