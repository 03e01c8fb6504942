// "Worker mode" (#worker, an appendix): bytes transferred, answers as on the main thread, and the
// big check that shows why (main-thread stall against a page that keeps painting).
import { visitUrls } from '../../demo/sample-urls.js';
import { assert } from './browser.mjs';
import { CLASS_OF, shotOf, UPLOAD_KIND } from './helpers.mjs';

/**
 * Worker mode's big check of `count` URLs, on the main thread and then in the worker (a filter
 * must have been sent): the same answers on both sides (and `want`, a Node twin's count, when
 * given), the main thread stalls while the worker keeps the page painting.
 */
export async function checkBigCheck(page, count, want, prefix) {
  await page.fill('#worker-big-n', String(count));
  const side = {};
  for (const where of ['main', 'worker']) {
    await page.evaluate(() => { delete document.getElementById('worker-big-status').dataset.state; });
    await page.click(`#worker-big-${where}`);
    await page.waitForFunction(() => document.getElementById('worker-big-status').dataset.state === 'done'
      || !document.getElementById('worker-error').hidden, null, { timeout: 30000 });
    assert(await page.$eval('#worker-error', (el) => el.hidden), `${where}: ${await page.textContent('#worker-error')}`);
    const cell = (row) => page.$eval(`#big-${where}-${row}`, (el) => Number(el.dataset.value));
    side[where] = { count: await cell('count'), present: await cell('present'), stall: await cell('stall'), frames: await cell('frames') };
  }
  const { main, worker } = side;
  if (process.env.E2E_TIMING) console.log(`       big check: ${JSON.stringify(side)}`);
  assert(main.count === count && worker.count === count && main.present === worker.present, `answers differ: ${JSON.stringify(side)}`);
  if (want !== null) assert(main.present === want, `page found ${main.present} listed, the same filter in Node ${want}`);
  assert(main.stall > worker.stall && main.frames <= 1, `the main-thread check should stall the page: ${JSON.stringify(side)}`);
  // relative to the main thread's stall, not a fixed 100 ms: a loaded 2-core machine (a clean-clone
  // run beside two builds) showed one 100 ms frame gap with the worker against 467 ms without it
  assert(worker.frames >= 2 && worker.stall * 2 <= main.stall, `the page should keep painting while the worker checks: ${JSON.stringify(side)}`);
  assert(/same number of listed URLs/.test(await page.textContent('#worker-big-status')), `status: ${await page.textContent('#worker-big-status')}`);
  await shotOf(page, `${prefix}worker-big`, '#worker');
}
export async function run(t, c) {
  const { page, text, data, value, setText, visibleError, shot, selectKind, keyOp, fillRandom } = c;
  await t.check('worker mode: bytes transferred, answers == main thread, round trip shown', async () => {
    await selectKind('bloom');
    await fillRandom(2000);
    assert(await keyOp('add', 'alice@example.com') === 'added', 'add alice');
    const items = await value('stat-items');
    await page.selectOption('#worker-source', 'builder');
    await page.click('#worker-send');
    await page.waitForFunction(() => document.getElementById('worker-status').dataset.items !== undefined
      || !document.getElementById('worker-error').hidden, null, { timeout: 10000 });
    assert(await visibleError('worker-error') === '', `error: ${await visibleError('worker-error')}`);
    assert(Number(await data('worker-status', 'items')) === items, `worker holds ${await data('worker-status', 'items')}`);
    assert(await data('worker-status', 'detached') === 'true', 'the ArrayBuffer was transferred (detached in the page)');
    for (const key of ['alice@example.com', 'nobody@example.com', 'x']) {
      await page.evaluate(() => { delete document.getElementById('worker-rtt').dataset.value; });
      await page.fill('#worker-key', key);
      await page.waitForFunction(() => document.getElementById('worker-rtt').dataset.value !== undefined);
      const w = await data('worker-answer', 'state');
      const m = await data('worker-main-answer', 'state');
      assert(w === m, `${key}: worker ${w}, main ${m}`);
      if (key.startsWith('alice')) assert(w === 'present', 'alice is present in the worker');
      const rtt = await value('worker-rtt');
      assert(rtt > 0 && rtt < 5000, `round trip ${rtt} ms`);
    }
    const keys = ['alice@example.com', ...Array.from({ length: 999 }, (_, i) => `probe-${i}`)];
    await setText('worker-keys', keys.join('\n'));
    await page.evaluate(() => { delete document.getElementById('worker-batch-result').dataset.total; });
    await page.click('#worker-batch');
    await page.waitForFunction(() => document.getElementById('worker-batch-result').dataset.total !== undefined
      || !document.getElementById('worker-error').hidden);
    assert(await visibleError('worker-error') === '', `error: ${await visibleError('worker-error')}`);
    assert(await data('worker-batch-result', 'differ') === '0', `differences: ${await text('worker-batch-result')}`);
    assert(Number(await data('worker-batch-result', 'total')) === 1000, 'total');
    assert(Number(await data('worker-batch-result', 'present')) >= 1, 'alice found in the batch');
    await shot('worker', '#worker');
  });

  await t.check('worker mode with the 120,000-line blacklist', async () => {
    await page.selectOption('#worker-source', 'blacklist');
    await page.evaluate(() => { delete document.getElementById('worker-status').dataset.items; });
    await page.click('#worker-send');
    await page.waitForFunction(() => document.getElementById('worker-status').dataset.items !== undefined
      || !document.getElementById('worker-error').hidden, null, { timeout: 10000 });
    assert(Number(await data('worker-status', 'items')) === 120000, `worker holds ${await data('worker-status', 'items')}`);
    const keys = [...Array.from({ length: 500 }, (_, i) => `https://upload-${i * 200}.bad.example/x`),
      ...Array.from({ length: 500 }, (_, i) => `https://fine-${i}.example/`)];
    await setText('worker-keys', keys.join('\n'));
    await page.evaluate(() => { delete document.getElementById('worker-batch-result').dataset.total; });
    await page.click('#worker-batch');
    await page.waitForFunction(() => document.getElementById('worker-batch-result').dataset.total !== undefined);
    assert(await data('worker-batch-result', 'differ') === '0', `differences: ${await text('worker-batch-result')}`);
    const present = Number(await data('worker-batch-result', 'present'));
    assert(present >= 500 && present <= 520, `present ${present}`);
  });

  await t.check('worker mode shows why: during a big check of the blacklist the main thread stalls, with the worker the page keeps painting', async () => {
    // the blacklist the worker holds now: the uploaded 120,000 lines in a cuckoo filter; the same in Node
    const twin = new CLASS_OF[UPLOAD_KIND]({ capacity: 120000, errorRate: 0.001 });
    twin.addAll(Array.from({ length: 120000 }, (_, i) => `https://upload-${i}.bad.example/x`));
    const want = twin.hasAll(visitUrls(100000)).reduce((a, b) => a + b, 0);
    twin.free();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      await checkBigCheck(page, 100000, want, '');
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });
}
