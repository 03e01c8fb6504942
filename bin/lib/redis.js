// `bloomcuckoo redis pull|push`: copy a RedisBloom BF or CF filter between a Redis server and a
// filter file, through bloomcuckoo/redis (pullFilter, pushFilter: the same SCANDUMP loop and the
// same safe load as services get). The Redis client (node-redis, the `redis` package) is an
// optional peer dependency, loaded only here.
import { FilterError, RedisBloomFilter, RedisCuckooFilter, init } from '../../js/main/index.js';
import { pullFilter, pushFilter } from '../../js/redis/index.js';
import { dropClient } from '../../js/redis/client.js';
import { stat } from 'node:fs/promises';
import { CliError, bytes, count, parse, readFilter, writeOutput } from './common.js';
import { HELP } from './help.js';

async function loadClient() {
  try {
    return await import('redis');
  } catch {
    throw new CliError("redis: this command needs the 'redis' package (node-redis 4 or later): npm install redis where bloomcuckoo is installed (npm install -g redis for a global bloomcuckoo)");
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

// ms the connection (TCP and the client's handshake) may take, as the commands' own `timeout`
const CONNECT_MS = 10_000;

/** QUIT, waiting at most 1 s for its reply (a stalled server sends none), then the socket dropped. */
async function close(client) {
  let timer;
  await Promise.race([Promise.resolve().then(() => client.quit()).catch(() => {}),
    new Promise((resolve) => { timer = setTimeout(resolve, 1000); })]);
  clearTimeout(timer);
  dropClient(client);
}

async function connect(urlText) {
  const { createClient } = await loadClient();
  const client = createClient({ url: parseUrl(urlText), socket: { reconnectStrategy: false, connectTimeout: CONNECT_MS } });
  client.on('error', () => {});  // connection errors surface through the awaited calls
  // connectTimeout bounds the TCP connect only: a server that accepts and never answers would hold
  // the client's handshake (HELLO, CLIENT SETINFO) for ever
  let timer;
  try {
    await Promise.race([client.connect(), new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_MS / 1000} s`)), CONNECT_MS);
    })]);
  } catch (err) {
    dropClient(client);
    throw new CliError(`redis: cannot connect to ${urlText}: ${err?.message ?? err}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** The entry's FilterError as one CliError line of `what` (its flags named as the CLI's). */
function cliError(what, err) {
  if (!(err instanceof FilterError)) throw err;
  const message = err.message.replace(/^bloomcuckoo\/redis: /, '').replace('pass { replace: true }', 'pass --replace');
  return new CliError(`${what}: ${message}`);
}

const PULL_OPTIONS = { output: { type: 'string', short: 'o' }, quiet: { type: 'boolean', short: 'q' }, json: { type: 'boolean' } };

/** Prints one JSON document on stdout. */
const json = (doc) => process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);

export async function pull(argv) {
  const { values, positionals } = parse('redis pull', argv, PULL_OPTIONS);
  if (values.help) return process.stdout.write(HELP.redis), 0;
  if (positionals.length !== 2) throw new CliError("redis pull: give a Redis URL and a key (see 'bloomcuckoo redis --help')");
  if (values.output === undefined) throw new CliError('redis pull: -o <file> is required (use -o - for stdout)');
  if (values.json && values.output === '-') throw new CliError("redis pull: --json needs -o <file> (with -o - stdout holds the filter's bytes)");
  const [url, key] = positionals;
  await init();
  const client = await connect(url);
  let filter;
  const started = performance.now();
  try {
    filter = await pullFilter(client, key);
  } catch (err) {
    throw cliError('redis pull', err);
  } finally {
    await close(client);
  }
  try {
    const data = filter.serialize();
    await writeOutput(values.output, data);
    const info = filter.info();
    const seconds = (performance.now() - started) / 1000;
    if (!values.quiet && values.output !== '-') {
      process.stderr.write(`pulled '${key}' (${filter.constructor.name}, ${count(info.items ?? filter.size)} items, ` +
        `${bytes(filter.byteLength)}) into ${values.output} in ${seconds.toFixed(2)} s\n`);
    }
    if (values.json) {
      json({ command: 'redis pull', key, output: values.output, class: filter.constructor.name, kind: info.kind,
        items: info.items ?? filter.size, byteLength: filter.byteLength, fileBytes: (await stat(values.output)).size, seconds });
    }
  } finally {
    filter.free();
  }
  return 0;
}

const PUSH_OPTIONS = { replace: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' }, json: { type: 'boolean' } };

export async function push(argv) {
  const { values, positionals } = parse('redis push', argv, PUSH_OPTIONS);
  if (values.help) return process.stdout.write(HELP.redis), 0;
  if (positionals.length !== 3) throw new CliError("redis push: give a filter file, a Redis URL and a key (see 'bloomcuckoo redis --help')");
  const [file, url, key] = positionals;
  const { filter } = await readFilter(file);
  if (!(filter instanceof RedisBloomFilter) && !(filter instanceof RedisCuckooFilter)) {
    filter.free();
    throw new CliError(`redis push: '${file}' holds a ${filter.constructor.name}; only redis-bloom and redis-cuckoo filters ` +
      "load into RedisBloom (build one with 'bloomcuckoo build --kind redis-bloom' or pull one with 'bloomcuckoo redis pull')");
  }
  const started = performance.now();
  try {
    const client = await connect(url);
    try {
      // a temporary key renamed over the target: readers never see a half-loaded filter
      const sent = await pushFilter(client, key, filter, { replace: values.replace === true });
      const seconds = (performance.now() - started) / 1000;
      if (!values.quiet) {
        process.stderr.write(`pushed ${file} (${filter.constructor.name}, ${bytes(sent)}) to '${key}' in ${seconds.toFixed(2)} s\n`);
      }
      if (values.json) {
        json({ command: 'redis push', file, key, class: filter.constructor.name, kind: filter.info().kind,
          items: filter.info().items ?? filter.size, bytesSent: sent, seconds });
      }
    } catch (err) {
      throw cliError('redis push', err);
    } finally {
      await close(client);
    }
  } finally {
    filter.free();
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
