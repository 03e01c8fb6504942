// What the fixture capture scripts (scripts/capture-redis-bf.mjs, -cf.mjs) share: a live
// RedisBloom (or exit 1 saying why not), a seeded xorshift, the three kinds of keys, the
// SCANDUMP chunk lines and the probe keys.
import { scanDump } from './helpers.mjs';
import { skipReason, startRedisBloom } from './server.mjs';

export const enc = new TextEncoder();
export const hex = (b) => Buffer.from(b).toString('hex');

/** A started RedisBloom ({ client, info, stop }); exits 1 with the reason when there is none. */
export async function startForCapture() {
  const rb = await startRedisBloom();
  if (!rb) {
    console.error(`cannot capture: no RedisBloom (${skipReason() ?? 'module not found'})`);
    process.exit(1);
  }
  return rb;
}

/** A 32-bit xorshift generator from `seed` (the fixtures depend on its exact sequence). */
export function xorshift(seed) {
  let x = seed;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

/** keyOf(kind, i): 'binary' (1–24 random bytes from rnd), 'utf8' or plain `key:<i>` keys. */
export function keyMaker(rnd) {
  return (kind, i) => {
    if (kind === 'binary') return Uint8Array.from({ length: 1 + (rnd() % 24) }, () => rnd() & 0xff);
    if (kind === 'utf8') return enc.encode(`ключ:${i}:${'é€😀'.slice(0, i % 4)}`);
    return enc.encode(`key:${i}`);
  };
}

/** `chunk <iterator> <hex or ->` lines of `${prefix}.SCANDUMP` to the end. */
export async function chunkLines(client, prefix, key) {
  return (await scanDump(client, prefix, key)).map(([it, data]) => `chunk ${it} ${data.length ? hex(data) : '-'}`);
}

/** The probe keys: "probe:<i>" for i < 1000 (absent), then the first 1000 added keys. */
export function probeKeys(added) {
  const probes = [];
  for (let i = 0; i < 1000; i++) probes.push(enc.encode(`probe:${i}`));
  for (let i = 0; i < 1000 && i < added.length; i++) probes.push(added[i]);
  return probes;
}
