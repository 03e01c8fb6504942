// Scrub and explain (issue 38 item 3): after a kick chain has played, a timeline drags the table
// back and forth through its moves; the status and the numbered trail count the same moves; the
// rules (which fingerprint is kicked, why never 0, after maxIterations, the 32-sub-filter cap) are
// said; the scalable layers' caption matches their sizes; the fuse tab shows how it was solved.
import { assert, onReadyPage } from './browser.mjs';
import { lib, shots } from './helpers.mjs';
import { readFuse } from '../../demo/zoo-model.js';
import { peelOrder, ZOO } from '../../demo/zoo.js';

export async function run(t, c) {
  const { browser, server } = c;
  await t.check('scrub: the kick chain\'s timeline goes back and forth through its moves; status and trail count the same moves', () => onReadyPage(browser, server.url, null, async (page) => {
    const shown = () => page.getAttribute('#steps-canvas', 'data-shown');
    const before = await shown();
    await page.uncheck('#steps-stepwise');
    await page.fill('#steps-key', 'mallory');
    await page.click('#steps-add');
    await page.waitForFunction(() => document.getElementById('steps-status').dataset.state === 'done', null, { timeout: 30000 });
    const end = await shown();
    const total = Number(await page.getAttribute('#steps-status', 'data-moves'));
    const status = await page.textContent('#steps-status');
    const trail = await page.$$eval('#steps-trail li:not(.end)', (lis) => lis.length);
    assert(total > 1, `mallory's add kicked (${total} moves)`);
    assert(trail === total && new RegExp(`^${total} moves: ${total - 1} kicks?, then a free slot`).test(status), `status "${status}", ${trail} moves in the trail, ${total} played`);
    assert(await page.isVisible('#steps-scrub'), 'the timeline shows after the chain');
    const scrubTo = (v) => page.$eval('#steps-scrub', (el, x) => { el.value = String(x); el.dispatchEvent(new Event('input', { bubbles: true })); }, v);
    assert(Number(await page.getAttribute('#steps-scrub', 'max')) === total, 'the timeline has one stop per move');
    // back to the start, forward move by move, then back again: each stop shows the table after that many moves
    await scrubTo(0);
    assert(await shown() === before, 'at 0 the table is the one before the add');
    const seen = [];
    for (let i = 1; i <= total; i++) {
      await scrubTo(i);
      const path = (await page.getAttribute('#steps-canvas', 'data-path')).split(' ').filter(Boolean);
      assert(path.length === i, `at ${i}: ${path.length} moves numbered on the table`);
      assert(Number(await page.getAttribute('#steps-status', 'data-move')) === i && (await page.textContent('#steps-status')).startsWith(`Move ${i} of ${total}`), `status at ${i}: ${await page.textContent('#steps-status')}`);
      assert(await page.$eval(`#steps-trail li:nth-child(${i})`, (li) => li.classList.contains('now')), `trail line ${i} marked`);
      seen.push(await shown());
    }
    assert(seen.at(-1) === end, 'the last stop is the table the filter holds');
    assert(new Set(seen).size === total, `each move changes the table (${new Set(seen).size} tables for ${total} moves)`);
    for (let i = total - 1; i >= 1; i--) {
      await scrubTo(i);
      assert(await shown() === seen[i - 1], `back at ${i}: not the table seen going forward`);
    }
    await page.locator('#steps').screenshot({ path: `${shots}steps-scrub.png` });
    // another operation retires the timeline
    await page.click('#steps-check');
    assert(!(await page.isVisible('#steps-scrub')), 'the timeline stays after another operation');
    const rules = await page.textContent('#steps details.rules');
    for (const w of ['random', 'never 0', '500', 'undone', 'FULL', '32 sub-filters']) assert(rules.includes(w), `the rules do not say "${w}": ${rules}`);
  }));

  await t.check('scrub: the cuckoo fill to the brim replays insert by insert, back and forth', () => onReadyPage(browser, server.url, null, async (page) => {
    await page.selectOption('#fill-fp', '8');
    await page.click('#fill-cuckoo-run');
    await page.waitForFunction(() => document.getElementById('fill-cuckoo-status').dataset.state === 'full', null, { timeout: 60000 });
    const total = Number(await page.getAttribute('#fill-cuckoo-chart', 'data-points'));
    assert(await page.isVisible('#fill-cuckoo-scrub') && Number(await page.getAttribute('#fill-cuckoo-scrub', 'max')) === total, `the timeline has ${total} stops`);
    const at = async (v) => {
      await page.$eval('#fill-cuckoo-scrub', (el, x) => { el.value = String(x); el.dispatchEvent(new Event('input', { bubbles: true })); }, v);
      return page.evaluate(() => ({ points: Number(document.getElementById('fill-cuckoo-chart').dataset.points), insert: Number(document.getElementById('fill-cuckoo-scrub-text').dataset.insert) }));
    };
    for (const v of [10, Math.floor(total / 2), total, 20]) {
      const r = await at(v);
      assert(r.points === v && r.insert === v, `at ${v}: ${JSON.stringify(r)}`);
    }
    await at(total);
    assert(/no free slot/.test(await page.textContent('#fill-cuckoo-scrub-text')), 'the last insert is the one that failed');
  }));

  await t.check('explain: the scalable layers\' caption gives their real sizes; the fuse tab shows its peeling order, checked in Node', () => onReadyPage(browser, server.url, null, async (page) => {
    await page.click('#zoo-tabs button[data-kind="scalable"]');
    await page.click('#zoo-more');
    await page.waitForFunction(() => (document.getElementById('zoo-canvas').dataset.layers ?? '').split(' ').length >= 3, null, { timeout: 20000 });
    const caption = await page.textContent('#zoo-caption');
    const layers = await page.$eval('#zoo-canvas', (el) => el.getAttribute('aria-label'));
    const bits = [...layers.matchAll(/layer (\d+): (\d+) bits, k = (\d+)/g)].map((m) => ({ i: m[1], m: m[2], k: m[3] }));
    assert(bits.length >= 3, `layers: ${layers}`);
    for (const l of bits) assert(caption.includes(`layer ${l.i}:`) && caption.includes(`k = ${l.k}, ${l.m} bits`), `the caption misses layer ${l.i} (${l.m} bits, k = ${l.k}): ${caption}`);
    assert(!/twice as large/.test(caption), `the caption still says "twice as large": ${caption}`);
    await page.click('#zoo-tabs button[data-kind="fuse"]');
    await page.waitForTimeout(1200);   // past the scalable tab's animation: it must not draw over the fuse tab
    assert(await page.getAttribute('#zoo-canvas', 'data-kind') === 'fuse' && !/Layers/.test(await page.textContent('#zoo-caption')), 'the fuse tab shows the scalable filter');
    const peel = await page.$eval('#zoo-peel', (el) => ({ hidden: el.hidden, text: el.textContent, order: el.dataset.order, stuck: el.dataset.stuck }));
    assert(!peel.hidden && /peeling/.test(peel.text), `the fuse tab: ${JSON.stringify(peel)}`);
    // the same order from the same keys in Node, and it is a real peeling: each slot covered by one remaining key
    const f = lib.BinaryFuseFilter.build(ZOO.fuse.seeds, ZOO.fuse.options);
    try {
      const fu = readFuse(f);
      const { order, stuck } = peelOrder(fu, ZOO.fuse.seeds);
      assert(order.map((o) => o.slot).join(' ') === peel.order && String(stuck) === peel.stuck, `page ${peel.order}, Node ${order.map((o) => o.slot).join(' ')}`);
      assert(stuck === 0 && order.length === ZOO.fuse.seeds.length, `peeling left ${stuck} keys`);
    } finally {
      f.free();
    }
    await page.locator('#zoo').screenshot({ path: `${shots}zoo-fuse-peel.png` });
  }));
}
