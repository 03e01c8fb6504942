// A fake Redis for the tests of what bloomcuckoo/redis does with replies no real server sends:
// a node `net` server on a free loopback port that reads RESP commands and answers each with what
// the test's script returns for it, encoded as RESP2 (or RESP3 after HELLO 3).
//
//   const fake = await startFakeRedis((args, conn) => ...);   // args: the command as strings
//   ... connect any client to fake.port ...
//   await fake.stop();
//
// The script returns a reply value: a string or Buffer (a bulk string), a number (an integer),
// null (nil), an array (of replies), { simple: 'OK' }, { error: 'ERR ...' }, { map: [[k, v], ...] }
// (RESP3 map; a flat array in RESP2), NO_REPLY (this command and every later one on its
// connection are never answered: a server that stalls), or a Promise of one (answered later). It returns undefined to get the default: what a real server answers to the handshake
// commands clients send (HELLO, CLIENT, INFO, PING, SELECT, COMMAND ...), else +OK.
import { createServer } from 'node:net';

export const NO_REPLY = Symbol('no reply');

function encode(v, resp) {
  if (v === null || v === undefined) return Buffer.from(resp === 3 ? '_\r\n' : '$-1\r\n');
  if (typeof v === 'number' || typeof v === 'bigint') return Buffer.from(`:${v}\r\n`);
  if (typeof v === 'string' || Buffer.isBuffer(v)) {
    const b = Buffer.from(v);
    return Buffer.concat([Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n')]);
  }
  if (Array.isArray(v)) return Buffer.concat([Buffer.from(`*${v.length}\r\n`), ...v.map((x) => encode(x, resp))]);
  if ('simple' in v) return Buffer.from(`+${v.simple}\r\n`);
  if ('error' in v) return Buffer.from(`-${v.error}\r\n`);
  if ('map' in v) {
    if (resp !== 3) return encode(v.map.flat(), resp);
    return Buffer.concat([Buffer.from(`%${v.map.length}\r\n`), ...v.map.flat().map((x) => encode(x, resp))]);
  }
  throw new Error(`fake-resp: cannot encode ${typeof v}`);
}

/** Parses as many whole commands (arrays of bulk strings, or inline) as `buf` holds. */
function parse(buf) {
  const commands = [];
  let at = 0;
  const line = () => {
    const end = buf.indexOf('\r\n', at);
    if (end < 0) return null;
    const s = buf.toString('latin1', at, end);
    at = end + 2;
    return s;
  };
  for (;;) {
    const start = at;
    if (at >= buf.length) break;
    if (buf[at] !== 0x2a) {   // an inline command
      const l = line();
      if (l === null) { at = start; break; }
      if (l.trim()) commands.push(l.trim().split(/\s+/));
      continue;
    }
    const head = line();
    if (head === null) { at = start; break; }
    const n = Number(head.slice(1));
    const args = [];
    let whole = true;
    for (let i = 0; i < n; i++) {
      const h = line();
      if (h === null) { whole = false; break; }
      const len = Number(h.slice(1));
      if (at + len + 2 > buf.length) { whole = false; break; }
      args.push(buf.toString('latin1', at, at + len));
      at += len + 2;
    }
    if (!whole) { at = start; break; }
    commands.push(args);
  }
  return { commands, rest: buf.subarray(at) };
}

function handshake(args, conn) {
  const cmd = args[0].toUpperCase();
  if (cmd === 'HELLO') {
    if (args[1] === '3') conn.resp = 3;
    return { map: [['server', 'redis'], ['version', '7.4.1'], ['proto', conn.resp], ['id', conn.id], ['mode', 'standalone'], ['role', 'master'], ['modules', []]] };
  }
  if (cmd === 'PING') return { simple: 'PONG' };
  if (cmd === 'INFO') return '# Server\r\nredis_version:7.4.1\r\nloading:0\r\n';
  if (cmd === 'CLIENT' && /^id$/i.test(args[1] ?? '')) return conn.id;
  if (cmd === 'QUIT') { conn.quit = true; return { simple: 'OK' }; }
  return { simple: 'OK' };
}

/**
 * Starts the fake. `script(args, conn)` answers each command (see above); conn is { id, resp,
 * commands } per connection. Resolves { port, commands (every command, in order, of every
 * connection), connections (open sockets), stop() }.
 */
export async function startFakeRedis(script) {
  const all = [];
  const sockets = new Set();
  let ids = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    const conn = { id: ++ids, resp: 2, quit: false, chain: Promise.resolve() };
    let pending = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (d) => {
      const { commands, rest } = parse(Buffer.concat([pending, d]));
      pending = Buffer.from(rest);
      for (const args of commands) {
        all.push(args);
        // replies in order per connection; a script may answer later with a Promise
        conn.chain = conn.chain.then(async () => {
          if (conn.stalled) return;
          let reply = await script(args, conn);
          if (reply === NO_REPLY) { conn.stalled = true; return; }   // stalls for good
          if (reply === undefined) reply = handshake(args, conn);
          if (!socket.destroyed) socket.write(encode(reply, conn.resp));
          if (conn.quit) socket.end();
        });
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    commands: all,
    connections: sockets,
    stop: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/**
 * What a server whose key has no checkpoint (js/redis/checkpoint.js) replies to a replica's
 * checkpoint commands: the open script (4 keys) says none and the lock is free, SET NX takes the
 * lock, a publish (7 keys) or release (1 key) script, HSET, PEXPIRE, UNLINK succeed, GET (the
 * request for one) is nil. undefined for every other command.
 */
export function noCheckpoint(args) {
  const cmd = args[0].toUpperCase();
  const keys = cmd === 'EVALSHA' || cmd === 'EVAL' ? Number(args[2]) : -1;
  if (keys === 4) return ['MBbloom--', '0-0', '0-0', '', '', '', -2, ''];
  if (keys === 7) return 'ok';
  if (keys === 1) return 1;
  if (cmd === 'SET' && args.some((a) => a.toUpperCase() === 'NX')) return { simple: 'OK' };
  if (['HSET', 'PEXPIRE', 'UNLINK'].includes(cmd)) return 1;
  if (cmd === 'GET') return null;
  return undefined;
}

/** `script` with noCheckpoint's replies first: a fake for what a replica did before checkpoints. */
export const withoutCheckpoint = (script) => (args, conn) => {
  const r = noCheckpoint(args);
  return r === undefined ? script(args, conn) : r;
};
