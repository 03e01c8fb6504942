// Captures RedisBloom CF fixtures from a live server (tests/redis/server.mjs starts one): for
// each case, the CF.RESERVE options, every operation (CF.ADD / ADDNX / DEL / COUNT) with the
// server's reply, CF.INFO, the CF.SCANDUMP chunks, and CF.EXISTS and CF.COUNT for probe keys
// ("probe:<i>" absent keys, then up to 1,000 keys that were added, listed in the fixture). Written to
// tests/fixtures/redis/cf-<case>.txt, one record a line (hex for bytes), read by
// tests/js/redis-cuckoo.test.js and tests/cpp/redis_cuckoo_filter_test.cc.
//   node scripts/capture-redis-cf.mjs
import { writeFileSync } from 'node:fs';
import { chunkLines, enc, hex, keyMaker, probeKeys, startForCapture, xorshift } from '../tests/redis/capture.mjs';

const rb = await startForCapture();
const cmd = (args) => rb.client.sendCommand(args);
const rnd = xorshift(0x2545f491);

// mix: share of operations (in 1/16) that are ADDNX, DEL (of an added key), DEL of a key never
// added, COUNT, and repeats of an earlier key (duplicates); the rest are ADDs of new keys.
const CASES = [
  { name: 'b1-x1-grown', capacity: 64, bucketSize: 1, n: 400 },
  { name: 'b2-x2-grown', capacity: 100, bucketSize: 2, expansion: 2, n: 900, keys: 'utf8' },
  { name: 'b3-x1-seed', capacity: 1000, bucketSize: 3, n: 2600 },
  { name: 'b4-x4-iter50', capacity: 40, bucketSize: 4, maxIterations: 50, expansion: 4, n: 1500, keys: 'binary' },
  { name: 'b8-x0-full', capacity: 64, bucketSize: 8, expansion: 0, n: 200 },
  { name: 'b2-x3-rounded', capacity: 30, bucketSize: 2, expansion: 3, n: 400 },
  { name: 'b2-x1-deletes', capacity: 200, bucketSize: 2, n: 1500, mix: { addnx: 2, del: 4, delAbsent: 1, count: 2, dup: 2 } },
  { name: 'b4-x2-dups-addnx', capacity: 64, bucketSize: 4, expansion: 2, n: 800, mix: { addnx: 4, del: 1, count: 1, dup: 6 } },
  { name: 'b2-x1-one-key-max-expansions', capacity: 4, bucketSize: 2, n: 140, oneKey: true },
  { name: 'b2-empty', capacity: 100, bucketSize: 2, n: 0 },
];

const keyOf = keyMaker(rnd);

async function reply(args) {
  try {
    return String(Number(await cmd(args)));
  } catch (err) {
    return `E ${err.message}`;
  }
}

const version = rb.info.version;
try {
  for (const c of CASES) {
    const key = `fixture:${c.name}`;
    await cmd(['DEL', key]);
    const bucketSize = c.bucketSize ?? 2;
    const maxIterations = c.maxIterations ?? 20;
    const expansion = c.expansion ?? 1;
    await cmd(['CF.RESERVE', key, String(c.capacity), 'BUCKETSIZE', String(bucketSize),
      'MAXITERATIONS', String(maxIterations), 'EXPANSION', String(expansion)]);
    const lines = [`# RedisBloom ${version} CF fixture, captured by scripts/capture-redis-cf.mjs`,
      `reserve ${c.capacity} ${bucketSize} ${maxIterations} ${expansion}`];
    const added = [];
    const mix = c.mix ?? {};
    for (let i = 0; i < c.n; i++) {
      let r = rnd() % 16;
      const pick = (share) => { const hit = r < (share ?? 0); r -= share ?? 0; return hit; };
      const k = c.oneKey ? enc.encode('the-same-key') : keyOf(c.keys, i);
      const old = () => added[rnd() % added.length];
      if (pick(mix.addnx)) {
        const kk = added.length && rnd() % 2 ? old() : k;
        const rep = await reply(['CF.ADDNX', key, Buffer.from(kk)]);
        lines.push(`addnx ${hex(kk)} ${rep}`);
        if (rep === '1') added.push(kk);
      } else if (pick(mix.del) && added.length) {
        const at = rnd() % added.length;
        const kk = added[at];
        const rep = await reply(['CF.DEL', key, Buffer.from(kk)]);
        lines.push(`del ${hex(kk)} ${rep}`);
        if (rep === '1') added.splice(at, 1);
      } else if (pick(mix.delAbsent)) {
        const kk = enc.encode(`never-added:${i}`);
        lines.push(`del ${hex(kk)} ${await reply(['CF.DEL', key, Buffer.from(kk)])}`);
      } else if (pick(mix.count) && added.length) {
        const kk = old();
        lines.push(`count ${hex(kk)} ${await reply(['CF.COUNT', key, Buffer.from(kk)])}`);
      } else {
        const kk = pick(mix.dup) && added.length ? old() : k;
        const rep = await reply(['CF.ADD', key, Buffer.from(kk)]);
        lines.push(`add ${hex(kk)} ${rep}`);
        if (rep === '1') added.push(kk);
      }
    }
    const info = await cmd(['CF.INFO', key]);
    lines.push(`info ${info.Size} ${info['Number of buckets']} ${info['Number of filters']} ${info['Number of items inserted']} ` +
      `${info['Number of items deleted']} ${info['Bucket size']} ${info['Expansion rate']} ${info['Max iterations']}`);
    lines.push(...await chunkLines(rb.client, 'CF', key));
    const probes = probeKeys(added);
    lines.push(`probekeys ${probes.slice(1000).map(hex).join(',')}`);
    const answers = await cmd(['CF.MEXISTS', key, ...probes.map((p) => Buffer.from(p))]);
    lines.push(`probes ${probes.length} ${answers.map((a) => (Number(a) ? 1 : 0)).join('')}`);
    const counts = [];
    for (const p of probes) counts.push(Number(await cmd(['CF.COUNT', key, Buffer.from(p)])));
    lines.push(`counts ${counts.join(',')}`);
    writeFileSync(new URL(`../tests/fixtures/redis/cf-${c.name}.txt`, import.meta.url), `${lines.join('\n')}\n`);
    console.log(`cf-${c.name}: ${c.n} ops, ${info['Number of filters']} filters, ${info['Number of items inserted']} items, ` +
      `${lines.filter((l) => l.includes(' E ')).length} errors`);
  }
} finally {
  await rb.stop();
}
