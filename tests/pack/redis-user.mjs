// bloomcuckoo/redis as a user meets it, from the installed package: every js block of README.md
// and docs/*.md marked norun="needs a Redis server with RedisBloom" runs, as written, against a
// live RedisBloom (tests/redis/server.mjs) with each Redis client of the matrix (node-redis 4, 5
// and 6, ioredis 5 and 6: the repo's devDependencies, one folder each with that client as
// `redis` or `ioredis`), and must exit 0 by itself and print what its comments show
// (doc-blocks.mjs's rule). A block that creates its own client connects to $REDIS_URL; the names
// it is `given` get the values of GIVEN below (`redis`: a connected client of the folder's kind).
// A block's `clients="node-redis 5, node-redis 6"` names the clients it is written for (by
// default: all of them, or, when it imports 'redis' / 'ioredis', those of that package). Before
// each run the server is emptied and holds what the text presumes: a BF 'blocked-urls' with
// 'https://bad.example/' in it. Then: a user's TypeScript file with each client's own types
// (tsc --strict; wrong uses must be errors), the CLI's `redis pull|push` with each node-redis
// release (a stalled server included: it must give up, not hang), and the mistakes users make,
// with each client: the FilterError (or TypeError) and its message, a Redis without the module included.
//
// tests/pack/run-pack.mjs runs it against the installed tarball; `node tests/pack/redis-user.mjs`
// runs it against this repository's built package (its name resolves to itself).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareShown, docBlocks } from './doc-blocks.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const REDIS_BLOCK = 'needs a Redis server with RedisBloom';

/** The clients of the matrix: the repo's devDependencies, by the folder they are installed in. */
export function clients() {
  return [['redis4', 'redis'], ['redis5', 'redis'], ['redis', 'redis'], ['ioredis', 'ioredis'], ['ioredis6', 'ioredis']]
    .map(([from, pkg]) => {
      const { version } = JSON.parse(readFileSync(join(root, 'node_modules', from, 'package.json'), 'utf8'));
      return { from, pkg, version, name: `${pkg === 'redis' ? 'node-redis' : 'ioredis'} ${version}` };
    });
}

// What a block's given names hold when it runs (its `given` types them for the type check).
const GIVEN = {
  redis: 'await __user.connect()',
  urls: "['https://bad.example/', 'https://ok.example/']",
  offline: '__user.offline()',
  log: 'console',
  tokenId: "'token-1'",
  otherTokenId: "'token-2'",
};

/** The module each client's folder gives its blocks: connect() a client of its kind, offline(), close(). */
function userModule(c) {
  const connect = c.pkg === 'ioredis'
    ? "const { Redis } = await import('ioredis');\n  const client = new Redis(url);"
    : "const { createClient } = await import('redis');\n  const client = createClient({ url });\n"
      + "  client.on('error', () => {});\n  await client.connect();";
  return `import { init, RedisBloomFilter } from 'bloomcuckoo';
const open = [];
export async function connect(url = process.env.REDIS_URL) {
  ${connect}
  open.push(client);
  return client;
}
export function offline() {
  const f = new RedisBloomFilter({ errorRate: 0.001, capacity: 10000 });
  f.addAll(['https://fresh.example/']);
  return f;
}
export async function close() {
  for (const c of open) await (typeof c.close === 'function' ? c.close() : c.quit());
}
await init();
`;
}

/** Which clients `block` is run with. */
function clientsOf(block, all) {
  if (block.attrs.clients) {
    const names = block.attrs.clients.split(',').map((s) => s.trim()).filter(Boolean);
    const picked = all.filter((c) => names.some((n) => c.name === n || c.name.startsWith(`${n}.`)));
    if (picked.length !== names.length) throw new Error(`clients="${block.attrs.clients}": not every name is a client of the matrix (${all.map((c) => c.name).join(', ')})`);
    return picked;
  }
  const imports = (pkg) => new RegExp(`from\\s+['"]${pkg}['"]`).test(block.code);
  if (imports('redis')) return all.filter((c) => c.pkg === 'redis');
  if (imports('ioredis')) return all.filter((c) => c.pkg === 'ioredis');
  return all;
}

/** The block as a file to run: its given names defined first, the clients it was given closed last. */
export function runnable(block) {
  const given = (block.attrs.given ?? '').split(';').map((s) => s.trim()).filter(Boolean).map((g) => g.split(':')[0].trim());
  const missing = given.filter((g) => !(g in GIVEN));
  if (missing.length) throw new Error(`no value for given ${missing.join(', ')}: add it to GIVEN in tests/pack/redis-user.mjs`);
  return ["import * as __user from './user.mjs';", ...given.map((g) => `const ${g} = ${GIVEN[g]};`), block.code,
    'await __user.close();', ''].join('\n');
}

// The mistakes, each run in the client's folder: what the user gets (code, class, message).
const MISTAKES = `import { RedisBloomFilter, init } from 'bloomcuckoo';
import { openReplica, pullFilter, pushFilter } from 'bloomcuckoo/redis';
import * as __user from './user.mjs';
await init();
const redis = await __user.connect();
const out = {};
const probe = async (name, fn) => {
  try {
    const r = await fn();
    await r?.close?.();
    out[name] = { resolved: r !== null && typeof r === 'object' ? r.constructor?.name : String(r) };
  } catch (e) { out[name] = { class: e?.constructor?.name, code: e?.code, message: String(e?.message) }; }
};
await probe('fromRedisDump of the strings a withTypeMapping view replies on node-redis 5.x', async () => {
  const { fromRedisDump } = await import('bloomcuckoo');
  return fromRedisDump([[1, 'not bytes'], [0, '']]);
});
const raw = (args) => (typeof redis.callBuffer === 'function' ? redis.call(...args) : redis.sendCommand(args));
await raw(['SET', 'a-string', 'v']);
const bf = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
bf.add('k');
await probe('a plain object as client', () => pullFilter({}, 'blocked-urls'));
await probe("the client's module as client", async () => openReplica(await import(process.env.CLIENT_PACKAGE), 'blocked-urls'));
await probe('pull of a string key', () => pullFilter(redis, 'a-string'));
await probe('openReplica of a string key', () => openReplica(redis, 'a-string'));
await probe('pull of a missing key', () => pullFilter(redis, 'missing'));
await probe('openReplica of a missing key', () => openReplica(redis, 'missing'));
await probe('pull with a number as key', () => pullFilter(redis, 42));
await probe('push with a number as key', () => pushFilter(redis, 42, bf));
await probe('openReplica with a number as key', () => openReplica(redis, 42));
await probe('openReplica, option syncTimeOut', () => openReplica(redis, 'blocked-urls', { syncTimeOut: 5000 }));
await probe('pull, option replace', () => pullFilter(redis, 'blocked-urls', { replace: true }));
await probe('push, option overwrite', () => pushFilter(redis, 'pushed', bf, { overwrite: true }));
const plain = await __user.connect(process.env.PLAIN_URL);
await probe('pull from a Redis without the module', () => pullFilter(plain, 'blocked-urls'));
await probe('push to a Redis without the module', () => pushFilter(plain, 'pushed', bf));
await probe('openReplica on a Redis without the module', () => openReplica(plain, 'k', { create: { type: 'BF', errorRate: 0.01, capacity: 100 } }));
if (process.env.CLIENT_PACKAGE === 'redis' && process.env.CLIENT_MAJOR !== '4') {
  const { createClientPool } = await import('redis');
  const pool = await createClientPool({ url: process.env.REDIS_URL }).connect();
  await probe('pull through a createClientPool() pool', async () => (await pullFilter(pool, 'blocked-urls')).has('https://bad.example/'));
  await probe('openReplica through a createClientPool() pool', () => openReplica(pool, 'blocked-urls'));
  await pool.close();
  await probe('pull through a legacy() view of a client', async () => pullFilter((await __user.connect()).legacy(), 'blocked-urls'));
}
if (process.env.CLIENT_PACKAGE === 'ioredis') {
  const { Redis } = await import('ioredis');
  const prefixed = new Redis(process.env.REDIS_URL, { keyPrefix: 'app:' });
  await raw(['BF.ADD', 'app:prefixed', 'x']);
  await probe('pull through an ioredis client with keyPrefix', () => pullFilter(prefixed, 'prefixed'));
  await probe('openReplica through an ioredis client with keyPrefix', () => openReplica(prefixed, 'made', { create: { type: 'BF', errorRate: 0.01, capacity: 100 } }));
  out['keys made through the keyPrefix client'] = { resolved: String(await raw(['EXISTS', 'made', 'app:made'])) };
  await prefixed.quit();
}
if (process.env.CLIENT_PACKAGE === 'redis' && process.env.CLIENT_MAJOR === '4') {
  const { createClient } = await import('redis');
  const legacy = createClient({ url: process.env.REDIS_URL, legacyMode: true });
  legacy.on('error', () => {});
  await legacy.connect();
  await probe('pull through a node-redis 4 client in legacyMode', async () => (await pullFilter(legacy, 'blocked-urls')).has('https://bad.example/'));
  await probe('openReplica through a node-redis 4 client in legacyMode', async () => {
    const r = await openReplica(legacy, 'legacy-replica', { create: { type: 'CF', capacity: 1000 } });
    const added = await r.add('x');
    await r.sync();
    const has = r.has('x');
    await r.close();
    return \`\${added} \${has}\`;
  });
  await legacy.disconnect();
}
await __user.close();
console.log(JSON.stringify(out));
`;

/** What each mistake must give (`c`: the client); a message RegExp, a code and a class. */
function expected(c) {
  const ia = (message) => ({ class: 'FilterError', code: 'INVALID_ARGUMENT', message });
  const noModule = { class: 'FilterError', code: 'REDIS', message: /this Redis has no BF\/CF commands: load the RedisBloom module/ };
  const keyType = { class: 'TypeError', message: /key is a non-empty string/ };
  const client = ia(/pass a connected node-redis client .* or an ioredis 5 or 6 client or Cluster/);
  return {
    'fromRedisDump of the strings a withTypeMapping view replies on node-redis 5.x': {
      class: 'FilterError', code: 'CORRUPT_DATA',
      message: /got string; ask for binary replies per command \(node-redis 5, 6: sendCommand\(args, \{ typeMapping: \{ \[RESP_TYPES\.BLOB_STRING\]: Buffer \} \}\); 4: \{ returnBuffers: true \}; ioredis: callBuffer\)/,
    },
    'a plain object as client': client,
    "the client's module as client": client,
    'pull of a string key': ia(/'a-string' holds a string, not a RedisBloom BF or CF filter/),
    'openReplica of a string key': ia(/'a-string' holds a string, not a RedisBloom BF or CF filter/),
    'pull of a missing key': ia(/no key 'missing'/),
    'openReplica of a missing key': ia(/no key 'missing'/),
    'pull with a number as key': keyType,
    'push with a number as key': keyType,
    'openReplica with a number as key': keyType,
    'openReplica, option syncTimeOut': ia(/openReplica: unknown option 'syncTimeOut' \(known: .*syncTimeout/),
    'pull, option replace': ia(/pullFilter: unknown option 'replace'/),
    'push, option overwrite': ia(/pushFilter: unknown option 'overwrite'/),
    'pull from a Redis without the module': noModule,
    'push to a Redis without the module': noModule,
    'openReplica on a Redis without the module': noModule,
    ...(c.pkg === 'redis' && !c.version.startsWith('4.') ? {
      'pull through a createClientPool() pool': { resolved: 'true' },
      'openReplica through a createClientPool() pool': ia(/openReplica needs a client it can duplicate\(\).*createClientPool/),
      'pull through a legacy() view of a client': ia(/legacy\(\) view.*pass the client itself/),
    } : {}),
    ...(c.pkg === 'ioredis' ? {
      'pull through an ioredis client with keyPrefix': ia(/keyPrefix 'app:'.*pass a client without keyPrefix/),
      'openReplica through an ioredis client with keyPrefix': ia(/keyPrefix 'app:'.*pass a client without keyPrefix/),
      'keys made through the keyPrefix client': { resolved: '0' },
    } : {}),
    ...(c.pkg === 'redis' && c.version.startsWith('4.') ? {
      'pull through a node-redis 4 client in legacyMode': { resolved: 'true' },
      'openReplica through a node-redis 4 client in legacyMode': { resolved: 'true true' },
    } : {}),
  };
}

/**
 * A TypeScript file using bloomcuckoo/redis with client `c`'s own types, as a user writes it: what
 * must compile under --strict, and each wrong use marked @ts-expect-error (tsc fails when one of
 * them is not an error).
 */
function typedUse(c) {
  const connect = c.pkg === 'ioredis'
    ? "import { Redis, Cluster } from 'ioredis';\nconst redis = new Redis();\nconst cluster = new Cluster([{ host: '127.0.0.1', port: 7000 }]);"
    : c.version.startsWith('4.')
      ? "import { createClient, createCluster } from 'redis';\nconst redis = createClient();\nawait redis.connect();\n"
        + "const legacy = createClient({ legacyMode: true });\nawait pullFilter(legacy, 'k');\n"
        + "const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] });\nawait cluster.connect();"
      : "import { createClient, createCluster } from 'redis';\nconst redis = await createClient().connect();\n"
        + "const cluster = await createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] }).connect();";
  return `${connect}
import { pullFilter, pushFilter, openReplica, serverOf, commandsOf, type RedisReplica, type ReplicaOptions } from 'bloomcuckoo/redis';
import { RedisBloomFilter, RedisCuckooFilter, FilterError, type RedisServer } from 'bloomcuckoo';

const local: RedisBloomFilter | RedisCuckooFilter = await pullFilter(redis, 'k', { server: '8', timeout: 5000 });
const present: boolean = local.has('x');
const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
const sent: number = await pushFilter(redis, 'k', f, { replace: true, timeout: 5000, wait: { replicas: 1, timeout: 100 } });
const options: ReplicaOptions = { create: { type: 'CF', capacity: 1000, bucketSize: 4 }, checkInterval: 500, syncTimeout: 5000 };
const r: RedisReplica = await openReplica(redis, 'k', { create: { type: 'BF', errorRate: 0.01, capacity: 100 }, wait: { replicas: 1, timeout: 500 } });
const added: boolean = await r.add('a');
const n: number = await r.addAll(['a', new Uint8Array([1])]);
r.on('error', (e) => { const m: string = e.message; void m; }).on('resync', (why) => { const s: string = why; void s; });
r.on('applied', (seq) => { const s: number = seq; void s; });
await r.sync();
await r.close();
{
  await using r2 = await openReplica(cluster, 'k', options);
  void r2.has('x');
}
const server: RedisServer = await serverOf(cluster);
const send = commandsOf(redis);
try { await pullFilter(cluster, 'k'); } catch (e) { if (e instanceof FilterError && e.code === 'REDIS') void e.message; }
void [present, sent, added, n, server, send, RedisCuckooFilter];

// @ts-expect-error a misspelt option
await openReplica(redis, 'k', { syncTimeOut: 5 });
// @ts-expect-error timeout as a string
await openReplica(redis, 'k', { timeout: '5000' });
// @ts-expect-error wait as a number
await openReplica(redis, 'k', { wait: 1 });
// @ts-expect-error wait without its timeout
await openReplica(redis, 'k', { wait: { replicas: 1 } });
// @ts-expect-error create with a snake_case field
await openReplica(redis, 'k', { create: { type: 'BF', error_rate: 0.01, capacity: 100 } });
// @ts-expect-error create of type 'bloom'
await openReplica(redis, 'k', { create: { type: 'bloom', errorRate: 0.01, capacity: 100 } });
// @ts-expect-error a CF has no errorRate
await openReplica(redis, 'k', { create: { type: 'CF', capacity: 100, errorRate: 0.01 } });
// @ts-expect-error server '7'
await pullFilter(redis, 'k', { server: '7' });
// @ts-expect-error pullFilter has no replace
await pullFilter(redis, 'k', { replace: true });
// @ts-expect-error pushFilter of an object that is not a RedisBloom filter
await pushFilter(redis, 'k', {});
// @ts-expect-error a misspelt pushFilter option
await pushFilter(redis, 'k', f, { overwrite: true });
// @ts-expect-error a plain object as the client
await pullFilter({}, 'k');
// @ts-expect-error a URL as the client
await pullFilter('redis://127.0.0.1:6379', 'k');
// @ts-expect-error a number as the key
await pullFilter(redis, 42);
// @ts-expect-error a number as a key to add
await r.add(1);
// @ts-expect-error one string is not a batch of keys
await r.addAll('abc');
// @ts-expect-error no such event
r.on('close', () => {});
// @ts-expect-error the copy is read only
r.filter = f;
`;
}

/** A TCP server on a free loopback port that accepts connections and never answers: a stalled Redis. */
function silentServer() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      port: server.address().port,
      close: () => new Promise((done) => { for (const so of sockets) so.destroy(); server.close(() => done()); }),
    }));
  });
}

/** The RedisBloom version a server (startRedisBloom's) loaded, from MODULE LIST (20612: '2.6.12'). */
function versionOf(server) {
  const v = server.info.version;
  return typeof v === 'number' ? `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}` : v;
}

/** Runs `cmd`; a run past its `timeout` is reported (signal) rather than thrown. */
function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
  if (r.error && r.error.code !== 'ETIMEDOUT') throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/**
 * Runs the Redis blocks and the mistakes with every client; `check(name, fn)` is the suite's
 * runner, `dir` a fresh folder where 'bloomcuckoo' resolves. A machine with no RedisBloom
 * (tests/redis/server.mjs: oracleSkip) skips, saying why.
 */
export async function checkRedisUser({
  check, dir, cli = join(root, 'dist/bloomcuckoo.min.js'),
  tsc = join(root, 'node_modules/typescript/bin/tsc'), typeRoots = [join(root, 'node_modules/@types')],
}) {
  const { oracleSkip, startPlainRedis, startRedisBloom } = await import('../redis/server.mjs');
  const skip = await oracleSkip('2.6');
  if (skip) {
    console.log(`  SKIP the README's Redis blocks and the mistakes users make: ${skip}`);
    return;
  }
  const all = clients();
  const blocks = docBlocks().filter((b) => b.attrs.norun === REDIS_BLOCK);
  rmSync(dir, { recursive: true, force: true });
  for (const c of all) {
    mkdirSync(join(dir, c.from, 'node_modules'), { recursive: true });
    symlinkSync(join(root, 'node_modules', c.from), join(dir, c.from, 'node_modules', c.pkg), 'dir');
    writeFileSync(join(dir, c.from, 'user.mjs'), userModule(c));
  }
  for (const c of all) {
    await check(`TypeScript with ${c.name}'s types: a user's bloomcuckoo/redis file compiles under --strict, and its 18 wrong uses are errors`, () => {
      const sub = join(dir, c.from);
      writeFileSync(join(sub, 'typed.mts'), typedUse(c));
      writeFileSync(join(sub, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
          lib: ['es2022', 'esnext.disposable'], types: ['node'], typeRoots, skipLibCheck: true },
        files: ['typed.mts'],
      }, null, 2));
      const r = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: sub, timeout: 120000 });
      if (r.status !== 0 || r.out.trim()) throw new Error(`tsc:\n${r.out}`);
    });
  }
  const rb = await startRedisBloom();
  const plain = await startPlainRedis();
  const url = `redis://127.0.0.1:${rb.port}`;
  // the second oracle (Redis 7.4 + RedisBloom 8.9.80) for the blocks too, when it is here
  const v8 = await oracleSkip('v8') ? null : await startRedisBloom({ oracle: 'v8' });
  const run = (c, file, server = rb) => sh(process.execPath, [file], {
    cwd: join(dir, c.from), timeout: 60000,
    env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${server.port}`, PLAIN_URL: `redis://127.0.0.1:${plain.port}`, CLIENT_PACKAGE: c.pkg, CLIENT_MAJOR: c.version.split('.')[0] },
  });
  try {
    await check(`Redis blocks: ${blocks.length} in the docs (norun="${REDIS_BLOCK}"), each with a value for every given name`, () => {
      if (blocks.length === 0) throw new Error('no Redis block found');
      for (const b of blocks) runnable(b);
    });
    for (const b of blocks) {
      for (const c of clientsOf(b, all)) {
        for (const server of [rb, v8].filter(Boolean)) {
          const oracle = versionOf(server);
          await check(`docs: ${b.file}:${b.line} runs with ${c.name} against RedisBloom ${oracle}, exits by itself, prints what it shows`, async () => {
            await server.client.sendCommand(['FLUSHALL']);
            await server.client.sendCommand(['BF.ADD', 'blocked-urls', 'https://bad.example/']);
            const file = `${b.file.replace(/[/.]/g, '-')}-${b.line}.mjs`;
            writeFileSync(join(dir, c.from, file), runnable(b));
            const r = run(c, file, server);
            if (r.status !== 0) throw new Error(`${b.file}:${b.line} with ${c.name}: exit ${r.status}${r.signal ? ` (${r.signal}: did not exit by itself within 60 s)` : ''}:\n${r.out.slice(-3000)}`);
            const bad = compareShown(b.code, r.stdout);
            if (bad.length) throw new Error(`${b.file}:${b.line} with ${c.name}: ${bad.join('; ')}\n${r.stdout}`);
          });
        }
      }
    }
    // the CLI (`cli`, the package's bin) with each node-redis release: its import('redis') is
    // resolved from the client's folder (a loader hook), as if that release were installed beside it
    const silent = await silentServer();
    try {
      for (const c of all.filter((x) => x.pkg === 'redis')) {
        const hook = join(dir, c.from, 'redis-from-here.mjs');
        writeFileSync(hook, `import { register } from 'node:module';
register(\`data:text/javascript,\${encodeURIComponent(\`export async function resolve(s, context, next) {
  return next(s, s === 'redis' ? { ...context, parentURL: \${JSON.stringify(import.meta.url)} } : context);
}\`)}\`);
`);
        const bloomcuckoo = (args, timeout = 60000) => sh(process.execPath, ['--import', hook, cli, ...args], { cwd: join(dir, c.from), timeout });
        await check(`CLI with ${c.name}: redis pull, check, push, push again (refused), push --replace`, async () => {
          await rb.client.sendCommand(['FLUSHALL']);
          await rb.client.sendCommand(['BF.ADD', 'blocked-urls', 'https://bad.example/']);
          const pull = bloomcuckoo(['redis', 'pull', url, 'blocked-urls', '-o', 'pulled.bf', '--json']);
          if (pull.status !== 0 || JSON.parse(pull.stdout).class !== 'RedisBloomFilter') throw new Error(`pull: ${pull.status} ${pull.out}`);
          const look = bloomcuckoo(['check', 'pulled.bf', 'https://bad.example/']);
          if (look.status !== 0 || look.stdout !== 'https://bad.example/\tmaybe\n') throw new Error(`check: ${look.status} ${look.out}`);
          const push = bloomcuckoo(['redis', 'push', 'pulled.bf', url, 'copy', '-q']);
          if (push.status !== 0 || Number(await rb.client.sendCommand(['BF.EXISTS', 'copy', 'https://bad.example/'])) !== 1) throw new Error(`push: ${push.status} ${push.out}`);
          const again = bloomcuckoo(['redis', 'push', 'pulled.bf', url, 'copy']);
          if (again.status !== 2 || !/'copy' exists; pass --replace to overwrite it/.test(again.out)) throw new Error(`push again: ${again.status} ${again.out}`);
          const replace = bloomcuckoo(['redis', 'push', 'pulled.bf', url, 'copy', '--replace', '-q']);
          if (replace.status !== 0) throw new Error(`push --replace: ${replace.status} ${replace.out}`);
        });
        await check(`CLI with ${c.name}: a Redis without the module, and a server that accepts and never answers: exit 2, one line, within 25 s`, async () => {
          const plainPush = bloomcuckoo(['redis', 'push', 'pulled.bf', `redis://127.0.0.1:${plain.port}`, 'k']);
          if (plainPush.status !== 2 || !/this Redis has no BF\/CF commands: load the RedisBloom module/.test(plainPush.out)) {
            throw new Error(`push to a Redis without the module: ${plainPush.status} ${plainPush.out}`);
          }
          for (const args of [['redis', 'pull', `redis://127.0.0.1:${silent.port}`, 'k', '-o', 'x.bf'],
            ['redis', 'push', 'pulled.bf', `redis://127.0.0.1:${silent.port}`, 'k']]) {
            const started = Date.now();
            const r = bloomcuckoo(args, 25000);
            const took = ((Date.now() - started) / 1000).toFixed(1);
            if (r.status !== 2 || r.out.trim().split('\n').length !== 1) {
              throw new Error(`${args.slice(0, 2).join(' ')} to a server that never answers: exit ${r.status}${r.signal ? ` (${r.signal}: still running after ${took} s)` : ''}: ${r.out}`);
            }
          }
        });
      }
    } finally {
      await silent.close();
    }
    for (const c of all) {
      await check(`mistakes with ${c.name}: a FilterError (or TypeError) saying what to do, on RedisBloom and on a Redis without it`, async () => {
        await rb.client.sendCommand(['FLUSHALL']);
        await rb.client.sendCommand(['BF.ADD', 'blocked-urls', 'https://bad.example/']);
        writeFileSync(join(dir, c.from, 'mistakes.mjs'), MISTAKES);
        const r = run(c, 'mistakes.mjs');
        if (r.status !== 0) throw new Error(`exit ${r.status}${r.signal ? ` (${r.signal})` : ''}:\n${r.out.slice(-3000)}`);
        const got = JSON.parse(r.stdout.trim().split('\n').pop());
        const wrong = [];
        for (const [name, want] of Object.entries(expected(c))) {
          const g = got[name];
          const ok = g && (want.resolved !== undefined ? g.resolved === want.resolved
            : g.class === want.class && (want.code === undefined || g.code === want.code) && want.message.test(g.message));
          if (!ok) wrong.push(`${name}: got ${JSON.stringify(g)}, want ${want.resolved ?? `${want.class} ${want.code ?? ''} ${want.message}`}`);
        }
        if (wrong.length) throw new Error(`${wrong.length} of ${Object.keys(expected(c)).length}:\n    ${wrong.join('\n    ')}`);
      });
    }
  } finally {
    await rb.stop();
    await v8?.stop();
    await plain?.stop();
  }
}

// Standalone: against this repository (the package's name resolves to the repository itself).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { makeRunner } = await import('../e2e/browser.mjs');
  const t = makeRunner();
  await checkRedisUser({ check: t.check, dir: join(root, 'build/redis-user') });
  process.exitCode = t.summary() ? 1 : 0;
}
