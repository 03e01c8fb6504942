// A live RedisBloom for the interop tests: a redis-server of our own on a free loopback port,
// with the module loaded, no persistence, in a temp dir, stopped by its pid.
//
//   const rb = await startRedisBloom();   // null when no RedisBloom can be found (see skipReason)
//   const client = await rb.connect();    // a node-redis client; binary replies as Buffers
//   await rb.stop();
//
// Where the module is looked for, in order: $REDISBLOOM_MODULE, ../shared/redisbloom/redisbloom.so
// beside the repository, then a redis-server on PATH that has BF.* built in (Redis 8). The second
// oracle is ../shared/redisbloom/v8, or $REDISBLOOM_V8_DIR. A clone with nothing beside it
// (REDISBLOOM_MODULE=/nonexistent REDISBLOOM_V8_DIR=/nonexistent plays one) skips: see oracleSkip.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = new URL('../..', import.meta.url).pathname;

/** Path of redis-server on PATH, or null. */
export function redisServerPath() {
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : null;
}

/** The RedisBloom module file to load, or null (a Redis 8 with BF built in needs none). */
export function findModule() {
  const env = process.env.REDISBLOOM_MODULE;
  if (env) return existsSync(env) ? env : null;
  const shared = join(repoRoot, '..', 'shared', 'redisbloom', 'redisbloom.so');
  return existsSync(shared) ? shared : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function launch(server, extraArgs, { aof = false, port: fixedPort, dir: fixedDir } = {}) {
  const dir = fixedDir ?? mkdtempSync(join(tmpdir(), 'bloomcuckoo-redis-'));
  const port = fixedPort ?? await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
    ...(aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes', ...extraArgs];
  const child = spawn(server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const { createClient, RESP_TYPES } = await import('redis');
  const connect = async () => {
    const client = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: false } })
      .withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  const halt = async (signal) => {
    if (!exited) {
      try { process.kill(child.pid, signal); } catch { /* gone */ }
      for (let i = 0; i < 100 && !exited; i++) await sleep(20);
      if (!exited) { try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }
      for (let i = 0; i < 100 && !exited; i++) await sleep(20);
    }
  };
  const stop = async () => {
    await halt('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  // the same server again on the same port and dir (with `aof`, what it had logged), after
  // stopping this one with `signal`: a restart as a crash (SIGKILL) or a shutdown (SIGTERM)
  const restart = async (signal = 'SIGKILL') => {
    await halt(signal);
    return launch(server, extraArgs, { aof, port, dir });
  };
  // wait until it answers PING (at most ~5 s)
  for (let i = 0; i < 100; i++) {
    if (exited) break;
    try {
      const c = await connect();
      await c.ping();
      return { port, pid: child.pid, dir, connect, stop, restart, client: c, log: () => log };
    } catch { await sleep(50); }
  }
  await stop();
  throw new Error(`redis-server did not start on port ${port}: ${log.slice(-2000)}`);
}

/** A redis-server with no module (Debian's), or null when there is none: for the no-module errors. */
export async function startPlainRedis() {
  const server = redisServerPath();
  return server ? launch(server, []) : null;
}

/** Why startRedisBloom() would return null, or null when a RedisBloom can be started. */
export function skipReason() {
  if (!redisServerPath()) return 'no redis-server on PATH (scripts/setup.sh installs it)';
  if (!findModule() && process.env.REDISBLOOM_MODULE) return `REDISBLOOM_MODULE=${process.env.REDISBLOOM_MODULE} does not exist`;
  return null;
}

/** The second oracle: Redis 7.4.1 with RedisBloom 8.9.80 (../shared/redisbloom/v8), or null. */
export function findV8() {
  const dir = process.env.REDISBLOOM_V8_DIR || join(repoRoot, '..', 'shared', 'redisbloom', 'v8');
  const server = join(dir, 'redis-server');
  const mod = join(dir, 'redisbloom.so');
  return existsSync(server) && existsSync(mod) ? { server, mod } : null;
}

/**
 * Why the suites of `oracle` ('2.6': Debian's redis-server with RedisBloom 2.6, or a Redis 8 with
 * BF built in; 'v8': the Redis 7.4 + RedisBloom 8.9 pair) cannot run here, or null when they can.
 * With no module file, only a redis-server with BF built in will do, which only starting one tells.
 */
export async function oracleSkip(oracle) {
  if (oracle === 'v8') return findV8() ? null : 'no Redis 7.4 + RedisBloom 8.9 pair (../shared/redisbloom/v8 or $REDISBLOOM_V8_DIR)';
  const reason = skipReason();
  if (reason || findModule()) return reason;
  const rb = await startRedisBloom();
  if (!rb) return `no RedisBloom module (../shared/redisbloom/redisbloom.so or $REDISBLOOM_MODULE), and ${redisServerPath()} has no BF commands built in`;
  await rb.stop();
  return null;
}

/**
 * The skip reason of each oracle (null: it runs), found once for a test file; prints one SKIP
 * line naming `file` when any of them is skipped.
 */
export async function oracleSkips(file, oracles = ['2.6', 'v8']) {
  const skips = {};
  for (const o of oracles) skips[o] = await oracleSkip(o);
  const skipped = oracles.filter((o) => skips[o]);
  if (skipped.length) console.log(`SKIP ${file} on ${skipped.map((o) => `RedisBloom ${o}: ${skips[o]}`).join('; ')}`);
  return skips;
}


/**
 * Makes server `replica` a replica of server `primary` (each as startRedisBloom returns it) and
 * waits, bounded (10 s), until its link is up, its first sync done and WAIT 1 confirms it.
 */
export async function replicate(primary, replica) {
  await replica.client.sendCommand(['REPLICAOF', '127.0.0.1', String(primary.port)]);
  for (let i = 0; i < 250; i++) {
    const info = String(await replica.client.sendCommand(['INFO', 'replication']));
    if (/master_link_status:up/.test(info) && !/master_sync_in_progress:1/.test(info)
      && Number(await primary.client.sendCommand(['WAIT', '1', '2000'])) === 1) return;
    await sleep(40);
  }
  throw new Error('the replica did not sync within 10 s');
}
/**
 * Starts redis-server with RedisBloom. Resolves to { port, pid, connect(), stop(), client, info }
 * or to null when none can be found (skipReason() says why). `info.version` is the module's
 * version number (20612 for 2.6.12) or 'builtin'. `restart(signal)` stops it and starts it again
 * on the same port and dir (a new handle); `{ aof: true }` logs every write (appendfsync always),
 * so a restart keeps what was acknowledged. `{ oracle: 'v8' }` starts the Redis 8-era pair
 * of ../shared/redisbloom/v8 instead (null when it is not there).
 */
export async function startRedisBloom({ oracle = '2.6', aof = false } = {}) {
  const v8 = oracle === 'v8' ? findV8() : null;
  if (oracle === 'v8' && !v8) return null;
  const server = v8 ? v8.server : redisServerPath();
  if (!server) return null;
  const mod = v8 ? v8.mod : findModule();
  const rb = await launch(server, mod ? ['--loadmodule', mod] : [], { aof });
  try {
    const cmd = await rb.client.sendCommand(['COMMAND', 'INFO', 'BF.ADD']);
    if (!Array.isArray(cmd) || cmd[0] == null) {
      await rb.client.quit().catch(() => {});
      await rb.stop();
      return null;
    }
    rb.info = { module: mod, version: mod ? 'module' : 'builtin' };
    const mods = await rb.client.sendCommand(['MODULE', 'LIST']);
    for (const m of mods || []) {
      // RESP3-style maps ({ name, ver }) or RESP2 flat arrays ([name, bf, ver, 20612])
      const entry = Array.isArray(m)
        ? Object.fromEntries(m.flatMap((v, i) => (i % 2 ? [] : [[String(v), m[i + 1]]])))
        : m;
      if (String(entry.name) === 'bf') rb.info.version = Number(entry.ver);
    }
    const origStop = rb.stop;
    rb.stop = async () => { await rb.client.quit().catch(() => {}); await origStop(); };
    return rb;
  } catch (err) {
    await rb.client.quit().catch(() => {});
    await rb.stop();
    throw err;
  }
}

/**
 * A benchmark's RedisBloom (startRedisBloom(options)); when none can start, a SKIP line on stderr
 * tagged `bench`, saying why, and the process exits 0 (a bench with no server is not a failure).
 */
export async function benchRedisBloom(bench, options) {
  const rb = await startRedisBloom(options);
  if (!rb) {
    process.stderr.write(`[${bench}] SKIP: no RedisBloom (${skipReason() ?? 'module not found'})\n`);
    process.exit(0);
  }
  return rb;
}
