// Across sections: every membership verdict has the same words, colours and live region.
import { assert } from './browser.mjs';
import { lib } from './helpers.mjs';

export async function run(t, c) {
  const { page, text, setText, shot, createWith, keyOp, fillRandom, importBytes } = c;
  await t.check('every membership verdict in the page has the coloured verdict style of the small figures, in a live region, and the same words', async () => {
    // the colours of the figures' verdicts, by state
    const ref = await page.evaluate(() => {
      const out = {};
      for (const st of ['present', 'absent', 'full', 'removed-unknown', 'not-found']) {
        const p = document.createElement('p');
        p.className = 'verdict';
        p.dataset.state = st;
        document.body.append(p);
        out[st] = getComputedStyle(p).color;
        p.remove();
      }
      return out;
    });
    assert(new Set([ref.present, ref.absent, ref.full]).size === 3, `reference colours ${JSON.stringify(ref)}`);
    const looks = (id) => page.$eval(`#${id}`, (el) => ({ state: el.dataset.state, text: el.textContent, color: getComputedStyle(el).color,
      weight: getComputedStyle(el).fontWeight, live: el.closest('[aria-live]')?.getAttribute('aria-live') ?? null }));
    const expect = async (id, as, words) => {
      const v = await looks(id);
      assert(v.color === ref[as], `#${id} (${v.state}, "${v.text}") is ${v.color}, a ${as} verdict is ${ref[as]}`);
      assert(Number(v.weight) >= 600, `#${id} weight ${v.weight}`);
      assert(v.live === 'polite', `#${id} is not in a polite live region (${v.live})`);
      if (words) assert(words.test(v.text), `#${id}: "${v.text}" lacks ${words}`);
    };
    // the builder
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
    assert(await keyOp('add', 'alice@example.com') === 'added', 'add');
    assert(await keyOp('check', 'alice@example.com') === 'present', 'check alice');
    await expect('key-result', 'present', /maybe present/);
    assert(await keyOp('check', 'nobody@example.com') === 'absent', 'check nobody');
    await expect('key-result', 'absent', /certainly absent/);
    // the blacklist
    await setText('bl-text', 'https://a.example/\nhttps://b.example/');
    await page.selectOption('#bl-kind', 'bloom');
    await page.fill('#bl-error-rate', '0.001');
    await page.evaluate(() => { delete document.getElementById('bl-status').dataset.items; });
    await page.click('#bl-build');
    await page.waitForFunction(() => document.getElementById('bl-status').dataset.items === '2');
    assert(/, \d+ bits per line\. /.test(await text('bl-status')), `bits per line of 2 lines, ≥ 100: no decimals: "${await text('bl-status')}"`);
    await page.fill('#bl-check', 'https://a.example/');
    await expect('bl-check-result', 'present', /listed \(maybe\)/);
    await page.fill('#bl-check', 'https://zzz.example/');
    await expect('bl-check-result', 'absent', /not listed/);
    // an imported filter
    const f = new lib.BloomFilter({ capacity: 100, errorRate: 0.001 });
    f.add('bob@example.com');
    await importBytes('bob.bin', Buffer.from(f.serialize()));
    f.free();
    await page.fill('#import-key', 'bob@example.com');
    await expect('import-key-result', 'present', /maybe present/);
    await page.fill('#import-key', 'carol@example.com');
    await expect('import-key-result', 'absent', /certainly absent/);
    // the worker, and the main thread's answer next to it
    await page.selectOption('#worker-source', 'builder');
    await page.evaluate(() => { delete document.getElementById('worker-status').dataset.items; });
    await page.click('#worker-send');
    await page.waitForFunction(() => document.getElementById('worker-status').dataset.items !== undefined);
    for (const [key, as, words] of [['alice@example.com', 'present', /maybe present/], ['nobody@example.com', 'absent', /certainly absent/]]) {
      await page.evaluate(() => { delete document.getElementById('worker-rtt').dataset.value; });
      await page.fill('#worker-key', key);
      await page.waitForFunction(() => document.getElementById('worker-rtt').dataset.value !== undefined);
      await expect('worker-answer', as, words);
      await expect('worker-main-answer', as, words);
    }
    // FULL, and a removal of a key never added, in the builder
    await createWith('cuckoo', { capacity: '16', fingerprintBits: '8', bucketSize: '4', expansion: '0' });
    await fillRandom(200);
    await expect('key-result', 'full', /full/);
    await createWith('cuckoo', { capacity: '1000', fingerprintBits: '', bucketSize: '4', expansion: '1' });
    assert(await keyOp('remove', 'nobody@example.com') === 'not-found', 'remove a key never added');
    await expect('key-result', 'not-found');
    await shot('verdicts-builder', '#builder');
    await shot('verdicts-blacklist', '#blacklist');
    await shot('verdicts-transfer', '#transfer');
    await shot('verdicts-worker', '#worker');
  });
}
