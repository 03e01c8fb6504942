// `bloomcuckoo redis pull|push`: copy a RedisBloom BF or CF filter between a Redis server and a
// filter file, with BF/CF.SCANDUMP and BF/CF.LOADCHUNK. The Redis client (node-redis, the
// `redis` package) is an optional peer dependency, loaded only here.
import { FilterError, RedisBloomFilter, RedisCuckooFilter, fromRedisDump, init } from '../../js/index.js';
import { CliError, bytes, count, parse, readFilter, writeOutput } from './common.js';
import { HELP } from './help.js';

/** Redis TYPE names of RedisBloom's data types → command prefix. */
const TYPES = { 'MBbloom--': 'BF', 'MBbloomCF': 'CF' };

async function loadClient() {
  try {
    return await import('redis');
  } catch {
    throw new CliError("redis: this command needs the 'redis' package (node-redis 4 or later): npm install redis");
  }
}

function parseUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`redis: '${text}' is not a Redis URL (e.g. redis://127.0.0.1:6379 or rediss://user:pass@host:port/0)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new CliError(`redis: '${text}' is not a redis:// or rediss:// URL`);
  }
  return url.href;
}

async function connect(urlText) {
  const { createClient, RESP_TYPES } = await loadClient();
  let client = createClient({ url: parseUrl(urlText), socket: { reconnectStrategy: false, connectTimeout: 10_000 } });
  if (RESP_TYPES && typeof client.withTypeMapping === 'function') {
    client = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  }
  client.on('error', () => {});  // connection errors surface through the awaited calls
  try {
    await client.connect();
  } catch (err) {
    throw new CliError(`redis: cannot connect to ${urlText}: ${err?.message ?? err}`);
  }
  return client;
}

/** Runs a command; a server error becomes one CliError line. */
async function command(client, args) {
  try {
    return await client.sendCommand(args);
  } catch (err) {
    throw new CliError(`redis: ${args[0]} ${args[1] ?? ''} failed: ${err?.message ?? err}`);
  }
}

async function typeOf(client, key) {
  const t = String(await command(client, ['TYPE', key]));
  if (t === 'none') throw new CliError(`redis: no key '${key}'`);
  const prefix = TYPES[t];
  if (!prefix) throw new CliError(`redis: '${key}' holds a ${t}, not a RedisBloom BF or CF filter`);
  return prefix;
}

/** SCANDUMP's replies, in order, up to and including the final [0, empty]. */
export async function scanDump(client, prefix, key) {
  const chunks = [];
  let iterator = 0;
  for (;;) {
    const reply = await command(client, [`${prefix}.SCANDUMP`, key, String(iterator)]);
    if (!Array.isArray(reply) || reply.length !== 2) throw new CliError(`redis: unexpected ${prefix}.SCANDUMP reply`);
    iterator = Number(reply[0]);
    chunks.push([iterator, reply[1] ?? Buffer.alloc(0)]);
    if (iterator === 0) return chunks;
  }
}

/** A temporary key in the same cluster slot as `key` (same hash tag), for an atomic rename. */
function tempKeyFor(key) {
  const tag = /\{([^}]+)\}/.exec(key);
  const suffix = `:bloomcuckoo-push-${process.pid}-${Date.now().toString(36)}`;
  return tag ? `${key}${suffix}` : `{${key}}${suffix}`;
}

const PULL_OPTIONS = { output: { type: 'string', short: 'o' }, quiet: { type: 'boolean', short: 'q' } };

export async function pull(argv) {
  const { values, positionals } = parse('redis pull', argv, PULL_OPTIONS);
  if (values.help) return process.stdout.write(HELP.redis), 0;
  if (positionals.length !== 2) throw new CliError("redis pull: give a Redis URL and a key (see 'bloomcuckoo redis --help')");
  if (values.output === undefined) throw new CliError('redis pull: -o <file> is required (use -o - for stdout)');
  const [url, key] = positionals;
  await init();
  const client = await connect(url);
  let filter;
  const started = performance.now();
  try {
    const prefix = await typeOf(client, key);
    const chunks = await scanDump(client, prefix, key);
    try {
      filter = fromRedisDump(chunks);
    } catch (err) {
      if (err instanceof FilterError) throw new CliError(`redis pull: the dump of '${key}' cannot be read (${err.code}: ${err.message})`);
      throw err;
    }
  } finally {
    await client.quit().catch(() => {});
  }
  try {
    const data = filter.serialize();
    await writeOutput(values.output, data);
    if (!values.quiet && values.output !== '-') {
      const info = filter.info();
      process.stderr.write(`pulled '${key}' (${filter.constructor.name}, ${count(info.items ?? filter.size)} items, ` +
        `${bytes(filter.byteLength)}) into ${values.output} in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
    }
  } finally {
    filter.free();
  }
  return 0;
}

const PUSH_OPTIONS = { replace: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } };

export async function push(argv) {
  const { values, positionals } = parse('redis push', argv, PUSH_OPTIONS);
  if (values.help) return process.stdout.write(HELP.redis), 0;
  if (positionals.length !== 3) throw new CliError("redis push: give a filter file, a Redis URL and a key (see 'bloomcuckoo redis --help')");
  const [file, url, key] = positionals;
  const { filter } = await readFilter(file);
  let prefix;
  if (filter instanceof RedisBloomFilter) prefix = 'BF';
  else if (filter instanceof RedisCuckooFilter) prefix = 'CF';
  else {
    filter.free();
    throw new CliError(`redis push: '${file}' holds a ${filter.constructor.name}; only redis-bloom and redis-cuckoo filters ` +
      "load into RedisBloom (build one with 'bloomcuckoo build --kind redis-bloom' or pull one with 'bloomcuckoo redis pull')");
  }
  const started = performance.now();
  const client = await connect(url);
  const tmp = tempKeyFor(key);
  try {
    if (!values.replace && Number(await command(client, ['EXISTS', key])) === 1) {
      throw new CliError(`redis push: '${key}' exists; pass --replace to overwrite it`);
    }
    // Load into a temporary key, then rename over the target in one step: readers never see a
    // half-loaded filter, and a failed load leaves the target as it was.
    let sent = 0;
    try {
      for (const [iterator, data] of filter.toRedisDump()) {
        await command(client, [`${prefix}.LOADCHUNK`, tmp, String(iterator), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
        sent += data.byteLength;
      }
      if (values.replace) {
        await command(client, ['RENAME', tmp, key]);
      } else if (Number(await command(client, ['RENAMENX', tmp, key])) !== 1) {
        throw new CliError(`redis push: '${key}' was created while loading; pass --replace to overwrite it`);
      }
    } catch (err) {
      await client.sendCommand(['DEL', tmp]).catch(() => {});
      throw err;
    }
    if (!values.quiet) {
      process.stderr.write(`pushed ${file} (${filter.constructor.name}, ${bytes(sent)}) to '${key}' in ` +
        `${((performance.now() - started) / 1000).toFixed(2)} s\n`);
    }
  } finally {
    filter.free();
    await client.quit().catch(() => {});
  }
  return 0;
}

/** `bloomcuckoo redis <pull|push> ...` */
export async function redis(argv) {
  const [sub, ...rest] = argv;
  if (sub === 'pull') return pull(rest);
  if (sub === 'push') return push(rest);
  if (sub === undefined || sub === '-h' || sub === '--help') return process.stdout.write(HELP.redis), sub === undefined ? 2 : 0;
  throw new CliError(`redis: unknown subcommand '${sub}' (pull or push; see 'bloomcuckoo redis --help')`);
}
