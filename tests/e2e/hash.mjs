// "MurmurHash3 in wasm" (#hash, an appendix): against the Node build, the native vectors and
// murmurhash3js-revisited.
import { readFileSync } from 'node:fs';
import { assert } from './browser.mjs';
import murmurhash3js from 'murmurhash3js-revisited';
import { lib } from './helpers.mjs';

const { murmur3 } = lib;

export async function run(t, c) {
  const { page, text, shot } = c;
  await t.check('MurmurHash3 in the page matches the Node build', async () => {
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    const x86 = await text('hash-x86');
    const x64 = await text('hash-x64');
    const want64 = Array.from(murmur3.x64_128('geeky ogre', 42), (b) => b.toString(16).padStart(2, '0')).join('');
    assert(x86 === murmur3.x86_32('geeky ogre', 42).toString(16).padStart(8, '0'), `x86_32 shown ${x86}`);
    assert(x64 === want64, `x64_128 shown ${x64}`);
  });

  await t.check('MurmurHash3 in the page matches the vectors the native build is tested on', async () => {
    // tests/fixtures/murmur3_vectors.txt is what tests/cpp/murmur3_test.cc checks natively.
    const hex = (s) => Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('');
    const lines = readFileSync(new URL('../fixtures/murmur3_vectors.txt', import.meta.url), 'utf8').split('\n');
    const want = (algo) => lines.find((l) => l.startsWith(`${algo} 42 ${hex('geeky ogre')} `)).split(' ')[3];
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    assert(await text('hash-x86') === want('x86_32'), 'x86_32 differs from the native vector');
    assert(await text('hash-x64') === want('x64_128'), 'x64_128 differs from the native vector');
  });

  await t.check('MurmurHash3 x64_128: the page labels its byte order, and its h1 h2 words are what murmurhash3js-revisited prints', async () => {
    for (const [key, seed] of [['geeky ogre', 42], ['naïve café ☕', 7], ['', 0]]) {
      await page.fill('#hash-input', key);
      await page.fill('#hash-seed', String(seed));
      const bytes = await text('hash-x64');
      const words = await text('hash-x64-words');
      // the claim the page makes: h1 then h2, each 64-bit word little-endian in the bytes
      const swap = (h) => h.match(/../g).reverse().join('');
      assert(words === `${swap(bytes.slice(0, 16))} ${swap(bytes.slice(16))}`, `${key}: words ${words}, bytes ${bytes}`);
      // and what the common JS package prints for the same UTF-8 bytes and seed
      const theirs = murmurhash3js.x64.hash128(new TextEncoder().encode(key), seed);
      assert(words.replace(' ', '') === theirs, `${key}: page ${words}, murmurhash3js-revisited ${theirs}`);
    }
    const labels = await text('hash');
    assert(/h1 then h2/.test(labels) && /little-endian/.test(labels) && /big-endian/.test(labels) && /murmurhash3js-revisited/.test(labels), `labels: ${labels}`);
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    await shot('hash', '#hash');
  });
}
