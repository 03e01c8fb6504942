// "The problem: a blacklist" (#blacklist): the checker (generate, upload, refuse binary files, check as
// you type); `runFailure` (a failed build clears everything) runs after the sections that use the list.
import { sampleUrls } from '../../demo/sample-urls.js';
import { assert } from './browser.mjs';
import { lib, UPLOAD_KIND } from './helpers.mjs';

export async function run(t, c) {
  const { page, text, data, setText, visibleError, shot } = c;
  await t.check('blacklist: building an empty list shows an error in the page', async () => {
    await setText('bl-text', '');
    await page.click('#bl-build');
    await page.waitForFunction(() => !document.getElementById('bl-error').hidden);
    assert(/empty/.test(await visibleError('bl-error')), `message "${await visibleError('bl-error')}"`);
  });

  await t.check('blacklist: 100,000 generated URLs build with a live progress bar; URLs check as you type', async () => {
    await page.click('#bl-generate');
    assert(await text('bl-lines') === '100,000 lines', `lines: ${await text('bl-lines')}`);
    await page.selectOption('#bl-kind', 'bloom');
    await page.fill('#bl-error-rate', '0.001');
    // sample the progress bar on every frame: values strictly between 0 and 1 prove the page
    // painted while building
    await page.evaluate(() => {
      window.__progress = [];
      const tick = () => { window.__progress.push(document.getElementById('bl-progress').value); if (window.__progress.length < 2000 && !document.getElementById('bl-status').dataset.items) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    await page.click('#bl-build');
    await page.waitForFunction(() => document.getElementById('bl-status').dataset.items || !document.getElementById('bl-error').hidden, null, { timeout: 20000 });
    assert(await visibleError('bl-error') === '', `error: ${await visibleError('bl-error')}`);
    assert(Number(await data('bl-status', 'items')) === 100000, `items ${await data('bl-status', 'items')}`);
    const samples = await page.evaluate(() => window.__progress);
    assert(samples.some((v) => v > 0 && v < 1), `progress never seen between 0 and 1: ${samples.slice(0, 20)}`);
    // the page shows the first lines of the list it holds: the same list Node generates
    const list = sampleUrls();
    const preview = (await page.inputValue('#bl-text')).split('\n');
    assert(preview[0] === list[0] && preview[999] === list[999], 'the preview shows the generated list');
    assert(new Set(list).size === 100000, 'the sample URLs are distinct');
    for (const url of [list[0], list[54321], list[99999]]) {
      await page.fill('#bl-check', url);
      assert(await data('bl-check-result', 'state') === 'listed', `${url} is listed`);
      assert((await text('bl-check-truth')).includes('in the list'), 'truth note');
    }
    // the same list and options in Node: the page answers exactly like the library does
    const f = new lib.BloomFilter({ capacity: 100000, errorRate: 0.001 });
    f.addAll(list);
    // the list in megabytes against the filter in kilobytes, as Node counts them
    const listBytes = list.reduce((a, line) => a + Buffer.byteLength(line) + 1, 0);
    assert(Number(await data('bl-status', 'listBytes')) === listBytes && Number(await data('bl-status', 'filterBytes')) === f.byteLength,
      `sizes: page ${await data('bl-status', 'listBytes')} / ${await data('bl-status', 'filterBytes')}, node ${listBytes} / ${f.byteLength}`);
    assert((await text('bl-status')).includes(`${Math.round(listBytes / f.byteLength)}× smaller`), `the comparison: ${await text('bl-status')}`);
    for (const url of ['https://example.org/', 'https://login-secure-zz.com/', 'https://my-bank.example/login']) {
      await page.fill('#bl-check', url);
      const state = await data('bl-check-result', 'state');
      assert(state === (f.has(url) ? 'listed' : 'clear'), `${url}: page ${state}, node ${f.has(url)}`);
    }
    f.free();
    await page.fill('#bl-check', 'https://example.org/');
    await shot('blacklist', '#blacklist');
  });

  await t.check(`blacklist: an uploaded list of 120,000 lines builds a ${UPLOAD_KIND} filter`, async () => {
    const lines = Array.from({ length: 120000 }, (_, i) => `https://upload-${i}.bad.example/x`);
    await page.setInputFiles('#bl-file', { name: 'list.txt', mimeType: 'text/plain', buffer: Buffer.from(`${lines.join('\n')}\n`) });
    await page.waitForFunction(() => document.getElementById('bl-lines').textContent === '120,000 lines');
    await page.selectOption('#bl-kind', UPLOAD_KIND);
    await page.evaluate(() => { delete document.getElementById('bl-status').dataset.items; });
    await page.click('#bl-build');
    await page.waitForFunction(() => document.getElementById('bl-status').dataset.items || !document.getElementById('bl-error').hidden, null, { timeout: 20000 });
    assert(await visibleError('bl-error') === '', `error: ${await visibleError('bl-error')}`);
    assert(Number(await data('bl-status', 'items')) === 120000, `items ${await data('bl-status', 'items')}`);
    await page.fill('#bl-check', lines[777]);
    assert(await data('bl-check-result', 'state') === 'listed', 'an uploaded line is listed');
  });

  await t.check('blacklist: a binary file (random bytes, UTF-16, not UTF-8, control characters) is refused with a clear message; the list stays as it was', async () => {
    let x = 0x9e3779b9;
    const random = Buffer.alloc(64 * 1024);
    for (let i = 0; i < random.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; random[i] = x & 0xff; }
    const listLines = ['https://one.example/', 'https://two.example/', 'https://café.example/'];
    await page.setInputFiles('#bl-file', { name: 'good.txt', mimeType: 'text/plain', buffer: Buffer.from(`\ufeff${listLines.join('\r\n')}\r\n`, 'utf8') });
    await page.waitForFunction(() => document.getElementById('bl-lines').textContent === '3 lines');
    assert((await page.inputValue('#bl-text')).split('\n')[0] === listLines[0], 'a UTF-8 list with a BOM and CRLF loads');
    const cases = [
      ['random.bin', random, /NUL/],
      ['utf16.txt', Buffer.from(`\ufeff${listLines.join('\n')}\n`, 'utf16le'), /NUL/],
      ['latin1.txt', Buffer.from('https://caf\xe9.example/\nhttps://na\xefve.example/\n', 'latin1'), /UTF-8/],
      ['controls.txt', Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 5 === 0 ? '\x01\x02\x1b' : 'abcdefgh')).join('\n')), /control/],
    ];
    for (const [name, buffer, why] of cases) {
      await page.evaluate(() => { const e = document.getElementById('bl-error'); e.hidden = true; e.textContent = ''; });
      await page.setInputFiles('#bl-file', { name, mimeType: 'application/octet-stream', buffer });
      await page.waitForFunction(() => !document.getElementById('bl-error').hidden, null, { timeout: 5000 });
      const msg = await visibleError('bl-error');
      assert(msg.includes(name) && /not a text file|not (a )?(plain )?text/.test(msg) && why.test(msg) && /one item per line/.test(msg), `${name}: "${msg}"`);
      assert(await text('bl-lines') === '3 lines', `${name}: the list changed to ${await text('bl-lines')}`);
      assert(await page.$eval('#bl-file', (el) => el.files.length) === 0, `${name}: the refused file stays chosen`);
      if (name === 'random.bin') await shot('blacklist-binary', '#blacklist');
    }
  });
}

export async function runFailure(t, c) {
  const { page, text, data, visibleError } = c;
  await t.check('a failed blacklist build clears the old status, filter and answers', async () => {
    assert(Number(await data('bl-status', 'items')) > 0, 'a built list before');
    await page.selectOption('#bl-kind', 'bloom');
    await page.fill('#bl-error-rate', 'x');
    await page.click('#bl-build');
    await page.waitForFunction(() => !document.getElementById('bl-error').hidden);
    assert(/errorRate/.test(await visibleError('bl-error')), `message: ${await visibleError('bl-error')}`);
    assert(await data('bl-status', 'items') === '' && /not built/.test(await text('bl-status')), `status: ${await text('bl-status')}`);
    assert(await page.isDisabled('#bl-check') && await data('bl-check-result', 'state') === '', 'no answers from the old filter');
    const sources = await page.$$eval('#export-source option', (os) => os.map((o) => o.value));
    assert(!sources.includes('blacklist'), `export still offers the old blacklist filter: ${sources}`);
    await page.fill('#bl-error-rate', '0.001');
  });
}
