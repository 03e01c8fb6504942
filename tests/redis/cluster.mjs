// A Redis Cluster of our own on loopback for the cluster tests and for a person
// (scripts/redis-cluster.mjs): 3 primaries + 3 replicas, each a redis-server with RedisBloom
// loaded, `--cluster-enabled yes`, no persistence, on free ports (client and bus ports both
// chosen, `--cluster-port`), each in a temp dir, formed with `redis-cli --cluster create
// --cluster-replicas 1` and stopped by pid. Every wait is bounded.
//
//   const cl = await startCluster({ oracle: '2.6' });   // null when it cannot run (clusterSkipReason says why)
//   cl.seeds                    // [{ host, port }] of every node, for ioredis Cluster / node-redis createCluster
//   await cl.migrateSlot(slot, toPort)   // moves a slot (and its keys) to another primary
//   await cl.failover(replicaPort)       // CLUSTER FAILOVER on a replica; resolves when it is a primary everywhere
//   await cl.dropClients(port)           // the node closes every client connection but the helpers'
//   await cl.stop();
//
// oracle '2.6': Debian's redis-server 7.0 + RedisBloom 2.6.12 (findModule() of server.mjs);
// oracle 'v8': ../shared/redisbloom/v8's Redis 7.4.1 + RedisBloom 8.9.80 (findV8()).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keySlot } from '../../js/redis/keyslot.js';
import { findModule, findV8, redisServerPath } from './server.mjs';

const HOST = '127.0.0.1';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `p`, or a rejection naming `what` after `ms`. */
export function withTimeout(p, ms, what) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

/** Path of redis-cli on PATH, or null. */
/**
 * A connected ioredis Cluster of package `pkg` ('ioredis', 'ioredis6') on `seeds` ([{ host, port }]),
 * `options` added to its own (e.g. natMap): { client, close }.
 */
export const ioredisCluster = (pkg, options = {}) => async (seeds) => {
  const mod = await import(pkg);
  const Cluster = mod.Cluster ?? mod.default.Cluster;
  const client = new Cluster(seeds, { enableReadyCheck: true, ...options });
  client.on('error', () => {});
  await withTimeout(new Promise((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('ioredis Cluster ended before ready')));
  }), 30_000, `${pkg} Cluster ready`);
  return { client, close: () => client.disconnect() };
};

/** The same for a node-redis `createCluster` of package `pkg` ('redis', 'redis5', 'redis4'), `options` added (e.g. nodeAddressMap). */
export const nodeRedisCluster = (pkg, options = {}) => async (seeds) => {
  const { createCluster } = await import(pkg);
  const client = createCluster({ rootNodes: seeds.map((socket) => ({ socket: { ...socket, connectTimeout: 10_000 } })), ...options });
  client.on('error', () => {});
  await withTimeout(client.connect(), 30_000, `${pkg} createCluster connect`);
  return { client, close: () => (typeof client.destroy === 'function' ? client.destroy() : client.disconnect()) };
};

export function redisCliPath() {
  const r = spawnSync('sh', ['-c', 'command -v redis-cli'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : null;
}

/** { server, module } for an oracle ('2.6' or 'v8'), or a string saying why there is none. */
function binariesOf(oracle) {
  if (oracle === 'v8') {
    const v8 = findV8();
    return v8 ? { server: v8.server, module: v8.mod } : 'no ../shared/redisbloom/v8 (redis-server + redisbloom.so)';
  }
  const server = redisServerPath();
  if (!server) return 'no redis-server on PATH (scripts/setup.sh installs it)';
  const module = findModule();
  return module ? { server, module } : 'no RedisBloom module (../shared/redisbloom/redisbloom.so or $REDISBLOOM_MODULE)';
}

/** Why startCluster({ oracle }) would return null, or null when it can start one. */
export function clusterSkipReason({ oracle = '2.6' } = {}) {
  const b = binariesOf(oracle);
  if (typeof b === 'string') return b;
  if (!redisCliPath()) return 'no redis-cli on PATH (Debian: apt-get install redis-tools)';
  return null;
}

/** `n` distinct free loopback ports, all held open at once so none is handed out twice. */
async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const srv = createServer();
      await new Promise((resolve, reject) => { srv.once('error', reject); srv.listen(0, HOST, resolve); });
      servers.push(srv);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/** A node-redis client to one node (string replies), connected, no reconnects. */
async function adminClient(port) {
  const { createClient } = await import('redis');
  const c = createClient({ socket: { host: HOST, port, reconnectStrategy: false, connectTimeout: 5000 } });
  c.on('error', () => {});
  await withTimeout(c.connect(), 10_000, `connect to ${HOST}:${port}`);
  return c;
}

/** Runs a process to its end (at most `ms`, then SIGKILL): { code, out }. */
function runProcess(cmd, args, ms) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => { out += `\n(killed after ${ms} ms)`; child.kill('SIGKILL'); }, ms);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out }); });
  });
}

/** One redis-server in cluster mode; resolves when it answers PING (bounded). */
async function launchNode(server, module, port, busPort, nodeTimeout) {
  const dir = mkdtempSync(join(tmpdir(), 'bloomcuckoo-cluster-'));
  const args = ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no',
    '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes',
    '--cluster-enabled', 'yes', '--cluster-port', String(busPort),
    '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeout),
    ...(module ? ['--loadmodule', module] : [])];
  const child = spawn(server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log = (log + d).slice(-20_000); });
  child.stderr.on('data', (d) => { log = (log + d).slice(-20_000); });
  let exited = false;
  const gone = new Promise((r) => child.on('exit', () => { exited = true; r(); }));
  const node = {
    port, busPort, pid: child.pid, dir, log: () => log, exited: () => exited,
    // SIGTERM, then SIGKILL after 2 s; resolves when the process is gone (at most ~4 s)
    stop: async () => {
      if (!exited) {
        try { process.kill(child.pid, 'SIGTERM'); } catch { /* gone */ }
        await withTimeout(gone, 2000, 'exit').catch(() => {});
        if (!exited) { try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }
        await withTimeout(gone, 2000, 'exit').catch(() => {});
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (let i = 0; i < 100 && !exited; i++) {   // ~10 s at most
    try {
      const c = await adminClient(port);
      await withTimeout(c.ping(), 5000, 'PING');
      node.admin = c;
      return node;
    } catch { await sleep(100); }
  }
  await node.stop();
  throw new Error(`redis-server did not start on port ${port}: ${log.slice(-2000)}`);
}

const infoField = (info, name) => (String(info).match(new RegExp(`^${name}:(.*)$`, 'm')) ?? [])[1]?.trim();

/**
 * CLUSTER NODES as one node sees it: [{ id, port, flags, primary (id of its primary or '-'),
 * slots: [[from, to]...], connected }], the entries of migrating/importing slots left out.
 */
function parseNodes(text) {
  return String(text).trim().split('\n').filter(Boolean).map((line) => {
    const [id, addr, flags, primary, , , , link, ...slots] = line.split(' ');
    return {
      id,
      port: Number(addr.split('@')[0].split(':').pop()),
      flags: flags.split(','),
      primary,
      connected: link === 'connected',
      slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
        const [a, b] = s.split('-').map(Number);
        return [a, b ?? a];
      }),
    };
  });
}

/**
 * One redis-server with `--cluster-enabled yes` and no slots (enough for CLUSTER KEYSLOT), no
 * module: { port, admin (a node-redis client), stop() }, or null with no redis-server on PATH.
 */
export async function startClusterNode() {
  const server = redisServerPath();
  if (!server) return null;
  for (let attempt = 0; ; attempt++) {
    const [port, bus] = await freePorts(2);
    try {
      const node = await launchNode(server, null, port, bus, 3000);
      const stop = node.stop;
      node.stop = async () => {
        await withTimeout(node.admin.quit(), 2000, 'QUIT').catch(() => node.admin.destroy?.());
        await stop();
      };
      return node;
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

/**
 * Starts a 3-primary, 3-replica cluster. Resolves to the handle described at the top of this file,
 * or null when clusterSkipReason() says it cannot (no server, no module, no redis-cli). `timeout`
 * bounds the whole start (ms); `nodeTimeout` is cluster-node-timeout (ms).
 */
export async function startCluster({ oracle = '2.6', timeout = 60_000, nodeTimeout = 3000 } = {}) {
  if (clusterSkipReason({ oracle })) return null;
  const { server, module } = binariesOf(oracle);
  const deadline = Date.now() + timeout;
  const nodes = [];
  const cluster = {
    oracle,
    nodes,
    get ports() { return nodes.map((n) => n.port); },
    get seeds() { return nodes.map((n) => ({ host: HOST, port: n.port })); },
    stop: async () => {
      await Promise.all(nodes.map(async (n) => {
        await withTimeout(n.admin?.quit() ?? Promise.resolve(), 2000, 'QUIT').catch(() => n.admin?.destroy?.());
        await n.stop();
      }));
    },
  };
  methods(cluster);
  try {
    for (let attempt = 0; nodes.length < 6; attempt++) {
      if (attempt >= 3 || Date.now() > deadline) throw new Error('could not start 6 redis-server nodes');
      const ports = await freePorts(2 * (6 - nodes.length));
      const started = await Promise.allSettled(Array.from({ length: 6 - nodes.length },
        (_, i) => launchNode(server, module, ports[2 * i], ports[2 * i + 1], nodeTimeout)));
      for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    }
    const cli = redisCliPath();
    const created = await runProcess(cli, ['--cluster', 'create', ...nodes.map((n) => `${HOST}:${n.port}`),
      '--cluster-replicas', '1', '--cluster-yes'], Math.max(5000, deadline - Date.now()));
    if (created.code !== 0) throw new Error(`redis-cli --cluster create failed (${created.code}): ${created.out.slice(-2000)}`);
    await cluster.waitReady(Math.max(5000, deadline - Date.now()));
    return cluster;
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/** Adds the views, the wait and the fault helpers to a cluster handle. */
function methods(cluster) {
  const nodeAt = (port) => {
    const n = cluster.nodes.find((x) => x.port === port);
    if (!n) throw new Error(`no node on port ${port}`);
    return n;
  };
  const cmd = (port, args, ms = 10_000) => withTimeout(nodeAt(port).admin.sendCommand(args), ms, `${args.join(' ')} on ${port}`);

  /** CLUSTER NODES as the node on `port` sees it (see parseNodes). */
  cluster.view = async (port) => parseNodes(await cmd(port, ['CLUSTER', 'NODES']));

  /** CLUSTER INFO of the node on `port` as an object. */
  cluster.info = async (port) => Object.fromEntries(String(await cmd(port, ['CLUSTER', 'INFO']))
    .split(/\r?\n/).filter((l) => l.includes(':')).map((l) => l.split(':').map((s) => s.trim())));

  /** The primaries as the node on `port` (default: the first) sees them: [{ id, port, slots }]. */
  cluster.primaries = async (port = cluster.nodes[0].port) => (await cluster.view(port)).filter((n) => n.flags.includes('master'));

  /** The replicas: [{ id, port, primary }]. */
  cluster.replicas = async (port = cluster.nodes[0].port) => (await cluster.view(port)).filter((n) => n.flags.includes('slave'));

  /** The port of the primary that serves `slot`, as the node on `port` sees it. */
  cluster.portOfSlot = async (slot, port = cluster.nodes[0].port) => {
    const p = (await cluster.primaries(port)).find((n) => n.slots.some(([a, b]) => slot >= a && slot <= b));
    return p?.port ?? null;
  };

  /** `args` sent to the node on `port` itself (no redirects), bulk replies as Buffers. */
  cluster.sendTo = (port, args, ms = 10_000) => withTimeout(nodeAt(port).admin.sendCommand(args, { typeMapping: { 36: Buffer } }),
    ms, `${args[0]} on ${port}`);

  /** `args` sent to the primary serving `key`'s slot (as the first node sees it), bulk replies as Buffers. */
  cluster.sendToOwner = async (key, args, ms = 10_000) => {
    const port = await cluster.portOfSlot(keySlot(key));
    if (port === null) throw new Error(`no primary serves slot ${keySlot(key)}`);
    return cluster.sendTo(port, args, ms);
  };

  /**
   * The node on `port` closes every normal client connection but the helpers' own (CLIENT KILL
   * TYPE normal SKIPME yes), as a restarted proxy or a client-timeout would; resolves how many.
   */
  cluster.dropClients = async (port) => Number(await cmd(port, ['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']));

  /**
   * Waits (at most `ms`) until every running node says cluster_state:ok with all 16384 slots
   * assigned, knows every node, agrees with the others on who serves which slot, and every
   * replica's link to its primary is up.
   */
  cluster.waitReady = async (ms = 30_000) => {
    const deadline = Date.now() + ms;
    let last = '';
    while (Date.now() < deadline) {
      try {
        const live = cluster.nodes.filter((n) => !n.exited());
        const infos = await Promise.all(live.map((n) => cluster.info(n.port)));
        const bad = infos.findIndex((i) => i.cluster_state !== 'ok' || i.cluster_slots_assigned !== '16384'
          || Number(i.cluster_known_nodes) !== cluster.nodes.length);
        if (bad >= 0) { last = `node ${live[bad].port}: ${JSON.stringify(infos[bad])}`; throw new Error(last); }
        const maps = await Promise.all(live.map(async (n) => JSON.stringify((await cluster.primaries(n.port))
          .map((p) => [p.port, p.slots]).sort((a, b) => a[0] - b[0]))));
        if (new Set(maps).size !== 1) { last = `nodes disagree on slots: ${maps.join(' / ')}`; throw new Error(last); }
        const reps = await Promise.all(live.map(async (n) => infoField(await cmd(n.port, ['INFO', 'replication']), 'master_link_status')));
        if (reps.some((s) => s !== undefined && s !== 'up')) { last = `a replica link is ${reps.join(',')}`; throw new Error(last); }
        return;
      } catch (err) {
        last = err.message;
        await sleep(200);
      }
    }
    throw new Error(`cluster not ready in ${ms} ms: ${last}`);
  };

  /**
   * Moves `slot` from the primary serving it to the primary on `toPort`, keys and all, as
   * `redis-cli --cluster reshard` does: SETSLOT IMPORTING on the target, MIGRATING on the
   * source, MIGRATE of every key (batches of 100), SETSLOT NODE on the target, the source and then
   * every other primary. Resolves to the number of keys moved, when every node agrees (bounded).
   */
  cluster.migrateSlot = async (slot, toPort, { ms = 30_000 } = {}) => {
    const deadline = Date.now() + ms;
    const primaries = await cluster.primaries(toPort);
    const src = primaries.find((n) => n.slots.some(([a, b]) => slot >= a && slot <= b));
    const dst = primaries.find((n) => n.port === toPort);
    if (!src || !dst) throw new Error(`slot ${slot}: no primary serves it, or ${toPort} is not a primary`);
    if (src.port === dst.port) return 0;
    await cmd(dst.port, ['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', src.id]);
    await cmd(src.port, ['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', dst.id]);
    let moved = 0;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`slot ${slot}: keys still on ${src.port} after ${ms} ms`);
      const keys = await withTimeout(nodeAt(src.port).admin.sendCommand(['CLUSTER', 'GETKEYSINSLOT', String(slot), '100'],
        { typeMapping: { 36: Buffer } }), 10_000, 'GETKEYSINSLOT');
      if (keys.length === 0) break;
      await cmd(src.port, ['MIGRATE', HOST, String(dst.port), '', '0', '10000', 'KEYS', ...keys], 20_000);
      moved += keys.length;
    }
    for (const p of [dst, src, ...primaries.filter((n) => n !== dst && n !== src)]) {
      await cmd(p.port, ['CLUSTER', 'SETSLOT', String(slot), 'NODE', dst.id]);
    }
    while (Date.now() < deadline) {
      const owners = await Promise.all(cluster.nodes.filter((n) => !n.exited()).map((n) => cluster.portOfSlot(slot, n.port).catch(() => null)));
      if (owners.every((p) => p === dst.port)) return moved;
      await sleep(100);
    }
    throw new Error(`slot ${slot}: not every node sees ${dst.port} serving it after ${ms} ms`);
  };

  /**
   * CLUSTER FAILOVER on the replica on `replicaPort` (`mode`: '' for the coordinated one, 'FORCE'
   * or 'TAKEOVER'); resolves when every node sees it as a primary and the cluster is ready again
   * (bounded by `ms`).
   */
  cluster.failover = async (replicaPort, { mode = '', ms = 30_000 } = {}) => {
    const deadline = Date.now() + ms;
    const me = (await cluster.view(replicaPort)).find((n) => n.flags.includes('myself'));
    if (!me.flags.includes('slave')) throw new Error(`${replicaPort} is not a replica`);
    await cmd(replicaPort, ['CLUSTER', 'FAILOVER', ...(mode ? [mode] : [])]);
    while (Date.now() < deadline) {
      const views = await Promise.all(cluster.nodes.filter((n) => !n.exited())
        .map((n) => cluster.view(n.port).catch(() => [])));
      if (views.every((v) => v.find((n) => n.id === me.id)?.flags.includes('master'))) {
        await cluster.waitReady(Math.max(1000, deadline - Date.now()));
        return;
      }
      await sleep(100);
    }
    throw new Error(`CLUSTER FAILOVER on ${replicaPort}: not a primary everywhere after ${ms} ms`);
  };
  return cluster;
}
