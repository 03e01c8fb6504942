// The worst header of every kind (issue 34): frames and RedisBloom dumps whose fields claim the
// most work for their bytes (counts, lengths and sub-filters at their limits), each with the right
// body length and checksum so that every reader gets to the body's claims. Read by
// tests/js/worst-headers.test.js (every wasm reader, within a ceiling) and written into the fuzz
// corpus by scripts/gen-fuzz-corpus.mjs; tests/cpp/worst_header_test.cc builds the same natively.
// bfHeader needs the library initialised (it takes a real link record from a RedisBloomFilter).
import { RedisBloomFilter, RedisCuckooFilter } from '../../js/main/index.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// Little-endian fields: [width, value] pairs (width 'f64' for a double), as bytes.
export function fields(...list) {
  const parts = list.map(([width, v]) => {
    const b = new Uint8Array(width === 'f64' ? 8 : width);
    const dv = new DataView(b.buffer);
    if (width === 'f64') dv.setFloat64(0, v, true);
    else if (width === 8) dv.setBigUint64(0, BigInt(v), true);
    else if (width === 4) dv.setUint32(0, Number(v), true);
    else if (width === 2) dv.setUint16(0, Number(v), true);
    else b[0] = Number(v);
    return b;
  });
  return Buffer.concat(parts);
}

// A whole frame around `body` with the right body length and checksum.
export function frame(kind, body) {
  const hashId = kind >= 7 ? 2 : 1;
  const head = Buffer.concat([Buffer.from('BCFL'), fields([2, 1], [1, kind], [1, hashId], [4, 0], [8, body.length])]);
  const out = new Uint8Array(head.length + body.length + 4);
  out.set(head, 0);
  out.set(body, head.length);
  new DataView(out.buffer).setUint32(out.length - 4, crc32(out.subarray(0, out.length - 4)), true);
  return out;
}

export const bloomBody = (bits) => fields([8, bits], [4, 64], [8, 0], ['f64', 0], [8, 0]);
export const cfHeader = (buckets, filters, bucketSize, expansion) =>
  fields([8, 1], [8, buckets], [8, 0], [8, filters], [2, bucketSize], [2, 20], [2, expansion]);

// A BF dump header of `links` links (4096, the most, by default), each a real link record of a
// small filter claiming `linkBytes` bytes of bitmap.
export function bfHeader(linkBytes, links = 4096) {
  const f = new RedisBloomFilter({ capacity: 100, errorRate: 0.01 });
  f.add('x');
  const [[, one]] = f.toRedisDump();
  f.free();
  const head = Buffer.from(one.subarray(0, 20));
  head.writeBigUInt64LE(0n, 0);
  head.writeUInt32LE(links, 8);
  const link = Buffer.from(one.subarray(20, 73));
  link.writeBigUInt64LE(BigInt(linkBytes), 0);
  link.writeBigUInt64LE(BigInt(linkBytes) * 8n, 8);
  link.writeBigUInt64LE(0n, 16);
  link[52] = 0;
  return Buffer.concat([head, ...Array.from({ length: links }, () => link)]);
}

export const U64_MAX = 2n ** 64n - 1n;
const validCf = () => {
  const data = new Uint8Array(65535);
  data[65534] = 7;
  return { header: cfHeader(1, 65535, 1, 1), data };
};

// [name, frame bytes, accepted]
export function frames() {
  const cf572 = Buffer.concat([cfHeader(1, 65535, 1, 1), new Uint8Array(534)]);
  const { header, data } = validCf();
  return [
    ['bloom: 2^64-1 bits, 64 probes', frame(1, bloomBody(U64_MAX)), false],
    ['blocked: 2^32-1 blocks', frame(2, fields([8, 0xffffffff], [8, 0], ['f64', 0], [8, 0])), false],
    ['counting: 2^64-1 counters, 64 probes', frame(3, bloomBody(U64_MAX)), false],
    ['scalable: 64 layers, the first claiming 2^64-1 bits',
      frame(4, Buffer.concat([fields([8, 1], ['f64', 0.5], [4, 1], [1, 0], [4, 64]), bloomBody(U64_MAX)])), false],
    ['cuckoo: 32 sub-filters of 2^40 buckets',
      frame(5, fields([8, 2 ** 48], ['f64', 0.01], [4, 16], [4, 8], [4, 65535], [4, 1], [8, 0], [8, 0], [4, 32],
        [8, 2 ** 40], [8, 2 ** 44])), false],
    ['fuse: 2^32 - 2^18 16-bit fingerprints',
      frame(6, fields([4, 16], [4, 2 ** 18], [4, 2 ** 14 - 3], [4, (2 ** 14 - 1) * 2 ** 18], [8, 1], [8, 1])), false],
    ['redis-bloom: 4096 links of 2^40 bytes', frame(7, bfHeader(2 ** 40)), false],
    ['redis-cuckoo: expansion 1, 65535 sub-filters (572 bytes)', frame(8, cf572), false],
    ['redis-cuckoo: expansion 1, 65535 sub-filters of 2^55 buckets x 255', frame(8, cfHeader(2 ** 55, 65535, 255, 1)), false],
    ['redis-cuckoo: expansion 32768, 65535 sub-filters', frame(8, cfHeader(1, 65535, 1, 32768)), false],
    ['redis-cuckoo: a valid filter of 65535 sub-filters', frame(8, Buffer.concat([header, data])), true],
  ];
}

// [name, () => chunks, the class, accepted]
export function dumps() {
  return [
    ['CF dump: expansion 1, 65535 sub-filters, 534 data bytes',
      () => [[1, cfHeader(1, 65535, 1, 1)], [535, new Uint8Array(534)]], RedisCuckooFilter, false],
    ['CF dump: expansion 1, 65535 sub-filters of 2^55 buckets',
      () => [[1, cfHeader(2 ** 55, 65535, 255, 1)], [535, new Uint8Array(534)]], RedisCuckooFilter, false],
    ['CF dump: a valid dump of 65535 sub-filters, one chunk each', () => {
      const { header, data } = validCf();
      return [[1, header], ...Array.from(data, (_, k) => [k + 2, data.subarray(k, k + 1)])];
    }, RedisCuckooFilter, true],
    ['BF dump: 4096 links of 2^40 bytes, no data', () => [[1, bfHeader(2 ** 40)]], RedisBloomFilter, false],
    ['BF dump: 4096 links of 1 byte, one chunk each',
      () => [[1, bfHeader(1)], ...Array.from({ length: 4096 }, (_, k) => [k + 2, new Uint8Array(1)])], RedisBloomFilter, true],
  ];
}
