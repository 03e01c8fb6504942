// "Export / import the bytes" (#transfer, an appendix): export and import of every class's bytes, golden fixtures, corrupt files.
import { readFileSync } from 'node:fs';
import { assert } from './browser.mjs';
import { KINDS, lib } from './helpers.mjs';

export async function run(t, c) {
  const { page, text, data, value, visibleError, shot, selectKind, keyOp, fillRandom, download, importBytes, compareWith } = c;
  let lastExport = null;
  for (const kind of KINDS) {
    await t.check(`${kind}: the exported file answers like the original, in the page and in Node`, async () => {
      await selectKind(kind);
      await fillRandom(300);
      for (const k of ['alice@example.com', 'bob@example.com']) assert(await keyOp('add', k) === 'added', `add ${k}`);
      const items = await value('stat-items');
      await page.selectOption('#export-source', 'builder');
      const file = await download();
      assert(file.name === `bloomcuckoo-${kind}-${items}.bin`, `file name ${file.name}`);
      assert(file.bytes.length === Number(await data('export-status', 'bytes')), 'downloaded size = shown size');
      // Node reads the downloaded bytes
      assert(lib.kindOf(file.bytes) === kind, `kindOf → ${lib.kindOf(file.bytes)}`);
      const copy = lib.deserialize(file.bytes);
      assert(copy.size === items, `node copy holds ${copy.size}, page ${items}`);
      const keys = ['alice@example.com', 'bob@example.com', ...Array.from({ length: 298 }, (_, i) => `other-${kind}-${i}`)];
      const nodePresent = copy.hasAll(keys).reduce((a, b) => a + b, 0);
      assert(copy.has('alice@example.com') && copy.has('bob@example.com'), 'node copy finds the keys');
      copy.free();
      // the page imports it back
      await importBytes(file.name, file.bytes);
      assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
      assert(await data('import-status', 'kind') === kind && Number(await data('import-status', 'items')) === items, `import status: ${await text('import-status')}`);
      const r = await compareWith('builder', keys);
      assert(r.total === 300 && r.same === 300, `identical answers: ${r.same} of ${r.total}`);
      assert(r.present === nodePresent, `page says ${r.present} present, node ${nodePresent}`);
      await page.fill('#import-key', 'bob@example.com');
      assert(await data('import-key-result', 'state') === 'present', 'imported filter finds bob');
      lastExport = file;
      if (kind === KINDS[0]) await shot('transfer', '#transfer');
    });
  }

  // A RedisBloom filter pulled from Redis (`bloomcuckoo redis pull`, or fromRedisDump + serialize)
  // imports like any other filter file: the page answers as the server did (captured fixtures).
  for (const fixture of ['bf-e0.01-x1-grown.txt', 'cf-b3-x1-seed.txt']) {
    await t.check(`a RedisBloom ${fixture.slice(0, 2).toUpperCase()} filter file imports and answers as the server did`, async () => {
      const rows = readFileSync(new URL(`../fixtures/redis/${fixture}`, import.meta.url), 'utf8').split('\n');
      const chunks = rows.filter((l) => l.startsWith('chunk ')).map((l) => {
        const [, it, hex] = l.split(' ');
        return [Number(it), hex === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(hex, 'hex'))];
      });
      const answers = rows.find((l) => l.startsWith('probes ')).split(' ')[2];
      const f = lib.fromRedisDump(chunks);
      const bytes = Buffer.from(f.serialize());
      const kind = f.info().kind;
      const items = f.size;
      f.free();
      await importBytes(`${kind}.bin`, bytes);
      assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
      assert(await data('import-status', 'kind') === kind && Number(await data('import-status', 'items')) === items, `import status: ${await text('import-status')}`);
      for (let i = 0; i < 40; i += 3) {   // "probe:<i>" keys: the server's CF/BF.EXISTS answers
        await page.fill('#import-key', `probe:${i}`);
        const state = await data('import-key-result', 'state');
        assert(state === (answers[i] === '1' ? 'present' : 'absent'), `probe:${i}: page ${state}, server ${answers[i]}`);
      }
    });
  }

  await t.check('blacklist export → import answers like the original', async () => {
    await page.selectOption('#export-source', 'blacklist');
    const file = await download();
    await importBytes(file.name, file.bytes);
    assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
    assert(Number(await data('import-status', 'items')) === 120000, 'items');
    const keys = [...Array.from({ length: 200 }, (_, i) => `https://upload-${i * 599}.bad.example/x`),
      ...Array.from({ length: 200 }, (_, i) => `https://fine-${i}.example/`)];
    const r = await compareWith('blacklist', keys);
    assert(r.same === 400 && r.present >= 200, `same ${r.same}, present ${r.present}`);
  });

  await t.check('corrupt, truncated and empty files show a clear message', async () => {
    const good = lastExport.bytes;
    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1] ^= 0x55;
    const cases = [
      ['garbage.bin', Buffer.from('this is not a filter, just some text\n'.repeat(20))],
      ['truncated.bin', good.subarray(0, good.length >> 1)],
      ['flipped.bin', flipped],
      ['empty.bin', Buffer.alloc(0)],
    ];
    for (const [name, buf] of cases) {
      await importBytes(name, buf);
      const msg = await visibleError('import-error');
      assert(msg.includes(name) && /CORRUPT_DATA|UNSUPPORTED_VERSION/.test(msg), `${name}: "${msg}"`);
      assert(await page.isDisabled('#import-key'), `${name}: the key check is disabled`);
    }
    await shot('import-corrupt', '#transfer');
    await importBytes(lastExport.name, lastExport.bytes);
    assert(await visibleError('import-error') === '', 'a good file clears the message');
  });
}
