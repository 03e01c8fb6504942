// Reads tests/fixtures/golden/MANIFEST.txt and builds each recipe with the JS API.
import { readFileSync } from 'node:fs';
import * as lib from '../../js/index.js';

export const GOLDEN_DIR = new URL('../fixtures/golden/', import.meta.url);

export function recipes() {
  return readFileSync(new URL('MANIFEST.txt', GOLDEN_DIR), 'utf8').split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((line) => {
      const [file, kind, ...fields] = line.trim().split(/\s+/);
      const options = {};
      let n = 0;
      let remove = 0;
      for (const f of fields) {
        const [k, v] = f.split('=');
        if (k === 'n') n = Number(v); else if (k === 'remove') remove = Number(v); else options[k] = Number(v);
      }
      return { file, kind, options, n, remove };
    });
}

const CLASSES = { bloom: 'BloomFilter', blocked: 'BlockedBloomFilter', counting: 'CountingBloomFilter',
  scalable: 'ScalableBloomFilter', cuckoo: 'CuckooFilter', 'redis-bloom': 'RedisBloomFilter', 'redis-cuckoo': 'RedisCuckooFilter' };

export function build({ kind, options, n, remove }) {
  const keys = Array.from({ length: n }, (_, i) => `golden:${i}`);
  if (kind === 'fuse') return lib.BinaryFuseFilter.build(keys, options);
  const f = new lib[CLASSES[kind]](options);
  f.addAll(keys);
  for (let i = 0; i < remove; i++) f.remove(keys[i]);
  return f;
}
