// An uncaught error thrown from the shipped (minified) JS prints a readable amount on stderr.
// Node prints the source line where an uncaught error was thrown: when the whole build was one
// 30 KB line, one forgotten errorRate printed 31,558 bytes. scripts/build-js.mjs keeps line
// breaks in what it writes, so each entry's uncaught FilterError prints under 2 KB, the message
// and its code included. (Needs the shipped build: scripts/build.sh or node scripts/build-js.mjs.)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const url = (f) => new URL(`../../${f}`, import.meta.url).href;
const LIMIT = 2048;

const CASES = [
  ['dist/index.min.js: a constructor without errorRate', `import { init, BloomFilter } from '${url('dist/index.min.js')}';
await init();
new BloomFilter({ capacity: 1000 });`, 'INVALID_ARGUMENT'],
  ['dist/index.min.js: deserialize of foreign bytes', `import { init, deserialize } from '${url('dist/index.min.js')}';
await init();
deserialize(new Uint8Array(64).fill(7));`, 'CORRUPT_DATA'],
  ['dist/index.min.js: a filter used after free()', `import { init, CuckooFilter } from '${url('dist/index.min.js')}';
await init();
const f = new CuckooFilter({ capacity: 10 });
f.free();
f.has('x');`, 'DISPOSED'],
  ['dist/check.min.js: open() of truncated bytes', `import { open } from '${url('dist/check.min.js')}';
await open(new Uint8Array(3));`, 'CORRUPT_DATA'],
  ['dist/redis.min.js: a client that is none', `import { pullFilter } from '${url('dist/redis.min.js')}';
await pullFilter({}, 'key');`, 'INVALID_ARGUMENT'],
];

test.each(CASES)('%s: an uncaught FilterError prints < 2 KB on stderr', (_name, code, errorCode) => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('../../', import.meta.url)), timeout: 60000 });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('FilterError');
  expect(r.stderr).toContain(errorCode);
  if (Buffer.byteLength(r.stderr) >= LIMIT) {
    throw new Error(`${Buffer.byteLength(r.stderr)} bytes on stderr (≥ ${LIMIT}); its first 300:\n${r.stderr.slice(0, 300)}`);
  }
});
