// Captures RedisBloom BF fixtures from a live server (tests/redis/server.mjs starts one):
// for each case, the BF.RESERVE options, every BF.ADD and its reply, BF.INFO, the BF.SCANDUMP
// chunks, and BF.EXISTS for 2,000 probe keys ("probe:<i>", half of them added). Written to
// tests/fixtures/redis/bf-<case>.txt, one record a line (hex for bytes), read by
// tests/js/redis-bloom.test.js and tests/cpp/redis_bloom_filter_test.cc.
//   node scripts/capture-redis-bf.mjs
import { writeFileSync } from 'node:fs';
import { chunkLines, hex, keyMaker, probeKeys, startForCapture, xorshift } from '../tests/redis/capture.mjs';

const rb = await startForCapture();
const cmd = (args) => rb.client.sendCommand(args);
const rnd = xorshift(0x9e3779b9);

const CASES = [
  { name: 'e0.1-x2-grown', errorRate: 0.1, capacity: 50, expansion: 2, n: 600, keys: 'text' },
  { name: 'e0.01-x1-grown', errorRate: 0.01, capacity: 100, expansion: 1, n: 700, keys: 'text' },
  { name: 'e0.001-x4-grown', errorRate: 0.001, capacity: 30, expansion: 4, n: 700, keys: 'utf8' },
  { name: 'e0.0001-nonscaling-full', errorRate: 0.0001, capacity: 200, nonScaling: true, n: 260, keys: 'text' },
  { name: 'e0.05-x2-binary', errorRate: 0.05, capacity: 64, expansion: 2, n: 500, keys: 'binary' },
];

const keyOf = keyMaker(rnd);

const version = rb.info.version;
try {
  for (const c of CASES) {
    const key = `fixture:${c.name}`;
    await cmd(['DEL', key]);
    const reserve = ['BF.RESERVE', key, String(c.errorRate), String(c.capacity)];
    if (c.nonScaling) reserve.push('NONSCALING'); else reserve.push('EXPANSION', String(c.expansion));
    await cmd(reserve);
    const lines = [`# RedisBloom ${version} BF fixture, captured by scripts/capture-redis-bf.mjs`,
      `reserve ${c.errorRate} ${c.capacity} ${c.expansion ?? 2} ${c.nonScaling ? 1 : 0}`];
    const added = [];
    for (let i = 0; i < c.n; i++) {
      // every 7th add repeats an earlier key (BF.ADD then replies 0)
      const k = i % 7 === 6 && added.length ? added[rnd() % added.length] : keyOf(c.keys, i);
      let reply;
      try { reply = String(Number(await cmd(['BF.ADD', key, Buffer.from(k)]))); } catch (err) { reply = `E ${err.message}`; }
      lines.push(`add ${hex(k)} ${reply}`);
      if (reply === '1') added.push(k);
    }
    const info = await cmd(['BF.INFO', key]);
    lines.push(`info ${info.Capacity} ${info.Size} ${info['Number of filters']} ${info['Number of items inserted']} ${info['Expansion rate'] ?? 'null'}`);
    lines.push(...await chunkLines(rb.client, 'BF', key));
    // probes: "probe:<i>" for i < 1000 are absent keys; then the first 1000 added keys
    const probes = probeKeys(added);
    const answers = await cmd(['BF.MEXISTS', key, ...probes.map((p) => Buffer.from(p))]);
    lines.push(`probes ${probes.length} ${answers.map((a) => (a ? 1 : 0)).join('')}`);
    writeFileSync(new URL(`../tests/fixtures/redis/bf-${c.name}.txt`, import.meta.url), `${lines.join('\n')}\n`);
    console.log(`bf-${c.name}: ${c.n} adds, ${info['Number of filters']} filters, ${lines.length} lines`);
  }
} finally {
  await rb.stop();
}
