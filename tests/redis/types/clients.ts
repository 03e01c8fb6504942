// RedisClient (js/redis/index.d.ts) against the real clients: each release of the peer range
// compiles where bloomcuckoo/redis takes a client; objects that are none of them do not.
// Compiled by tests/js/redis-clients.test.js (tsc --noEmit --strict, node16 resolution).
import { createClient as createClient4 } from 'redis4';
import { createClient as createClient5, RESP_TYPES } from 'redis5';
import { createClient as createClient6 } from 'redis';
import { Redis as IORedis5 } from 'ioredis';
import { Redis as IORedis6 } from 'ioredis6';
import { openReplica, pullFilter, pushFilter, serverOf, type RedisClient } from '../../../js/redis/index.js';

export async function each(): Promise<void> {
  const clients: RedisClient[] = [
    createClient4(),
    createClient5(),
    createClient5().withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }),
    createClient6({ RESP: 3 }),
    new IORedis5(),
    new IORedis6(),
  ];
  for (const c of clients) {
    await pullFilter(c, 'k');
    await serverOf(c);
    await (await openReplica(c, 'k')).close();
    await (await openReplica(c, 'k'))[Symbol.asyncDispose]();
  }
  const f = await pullFilter(createClient6(), 'k');
  await pushFilter(new IORedis6(), 'k', f);

  // @ts-expect-error any object is not a client
  await pullFilter({}, 'k');
  // @ts-expect-error a client-like object without duplicate()
  await serverOf({ sendCommand: async (args: string[]) => args });
  // @ts-expect-error not a client
  await openReplica('redis://127.0.0.1', 'k');
}
