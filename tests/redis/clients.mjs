// Every Redis client of the peer range, by exact version: the aliased devDependencies (package.json)
// with their real major and version read from their own package.json, so test names say what ran.
// connect(port, auth) gives a connected client that reconnects (errors ignored: commands reject) and a
// close(); `auth` ({ username, password }, optional) logs in as that ACL user. `alias` is the name to import (and BLOOMCUCKOO_TEST_REDIS for the CLI, see redis-alias.mjs).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const versionOf = (name) => require(`${name}/package.json`).version;

const nodeRedis = (alias) => ({
  alias,
  name: `node-redis ${versionOf(alias)}`,
  async connect(port, auth = {}) {
    const { createClient } = await import(alias);
    const c = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: () => 50 }, ...auth });
    c.on('error', () => {});
    await c.connect();
    return { c, close: () => c.quit().catch(() => {}) };
  },
});

const ioredis = (alias) => ({
  alias,
  name: `ioredis ${versionOf(alias)}`,
  async connect(port, auth = {}) {
    const mod = await import(alias);
    const IORedis = mod.default?.default ?? mod.default ?? mod.Redis;
    // disconnectTimeout: how long ioredis's disconnect() keeps a timer for a socket it ended (2 s by
    // default, also when the socket was already gone): short, so a test file's process exits at once
    const c = new IORedis({ host: '127.0.0.1', port, retryStrategy: () => 50, lazyConnect: true, disconnectTimeout: 50, ...auth });
    c.on('error', () => {});
    await c.connect();
    return { c, close: () => c.quit().catch(() => {}) };
  },
});

/** The matrix: node-redis 4, 5 and 6, ioredis 5 and 6, each the exact release package.json pins. */
export const CLIENTS = [nodeRedis('redis4'), nodeRedis('redis5'), nodeRedis('redis'), ioredis('ioredis'), ioredis('ioredis6')];

/** The CLI's node-redis releases (it loads the 'redis' package only). */
export const CLI_CLIENTS = CLIENTS.filter((c) => c.name.startsWith('node-redis'));
