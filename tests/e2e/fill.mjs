// "Watch them fill" (#fill: sliders that redraw the curve while dragged, a live false-positive
// rate, a cuckoo filter filled to the brim), and pointing at a bit of the Bloom figure of #tiny
// to see the keys that set it. Every number is checked against the library in Node.
import { CUCKOO_FILL, FILL_PROBES, fillKey, probeKey } from '../../demo/fill.js';
import { TINY_BLOOM, TINY_SEED_KEYS } from '../../demo/tiny.js';
import { STEPS_SEED_KEYS, stepsOptions } from '../../demo/cuckoo-steps.js';
import { readCuckooTables } from '../../demo/cuckoo-model.js';
import { assert } from './browser.mjs';
import { lib } from './helpers.mjs';

const formula = (n, m, k) => (1 - Math.exp((-k * n) / m)) ** k;

export async function run(t, c) {
  const { page, shot } = c;
  const chart = () => page.$eval('#fill-bloom-chart', (el) => ({ m: Number(el.dataset.m), k: Number(el.dataset.k), n: Number(el.dataset.n), theory: Number(el.dataset.theoryAtN), dots: Number(el.dataset.dots) }));

  await t.check('watch them fill: dragging m, k or n redraws the curve at every step of the drag, as the formula says', async () => {
    // the slider itself on screen (the section is taller than the window since the k chart came in)
    await page.locator('#fill-k').scrollIntoViewIfNeeded();
    // a mouse drag along the k slider: the chart follows while the button is still down
    const box = await page.locator('#fill-k').boundingBox();
    await page.evaluate(() => {
      window.fillSeen = [];
      new MutationObserver(() => window.fillSeen.push(document.getElementById('fill-bloom-chart').dataset.k))
        .observe(document.getElementById('fill-bloom-chart'), { attributes: true, attributeFilter: ['data-k'] });
    });
    await page.mouse.move(box.x + 6, box.y + box.height / 2);
    await page.mouse.down();
    for (let s = 1; s <= 10; s++) await page.mouse.move(box.x + 6 + (s / 10) * (box.width - 12), box.y + box.height / 2);
    const during = await page.evaluate(() => [...new Set(window.fillSeen)]);
    await page.mouse.up();
    assert(during.length >= 5, `the curve was redrawn for ${during.length} values of k during the drag (${during})`);
    // from the keyboard, one step at a time, each redraw checked against the formula
    for (const [id, key] of [['fill-k', 'ArrowLeft'], ['fill-m', 'ArrowLeft'], ['fill-n', 'ArrowRight']]) {
      await page.focus(`#${id}`);
      for (let i = 0; i < 3; i++) {
        const before = await chart();
        await page.keyboard.press(key);
        const now = await chart();
        assert(JSON.stringify(now) !== JSON.stringify(before), `${id}: ${key} changed nothing`);
        assert(Math.abs(now.theory - formula(now.n, now.m, now.k)) < 1e-12, `${id}: the page's ${now.theory} at m ${now.m}, k ${now.k}, n ${now.n}; the formula ${formula(now.n, now.m, now.k)}`);
      }
    }
  });

  await t.check('watch them fill: Fill measures the rate live, and its count is the library\'s (a Node twin, the same keys and probes)', async () => {
    await page.evaluate(() => {
      window.fillLive = [];
      new MutationObserver(() => window.fillLive.push(document.getElementById('fill-live').dataset.keys))
        .observe(document.getElementById('fill-live'), { attributes: true, attributeFilter: ['data-keys'] });
    });
    const { m, k, n } = await chart();
    await page.click('#fill-bloom-run');
    await page.waitForFunction((n) => Number(document.getElementById('fill-live').dataset.keys) === n, n, { timeout: 30000 });
    const seen = await page.evaluate(() => [...new Set(window.fillLive)].length);
    assert(seen >= 10, `the live figure moved ${seen} times`);
    const f = new lib.BloomFilter({ bits: m, hashes: k });
    try {
      f.addAll(Array.from({ length: n }, (_, i) => fillKey(i)));
      const fp = f.hasAll(Array.from({ length: FILL_PROBES }, (_, j) => probeKey(j))).reduce((a, b) => a + b, 0);
      const page_fp = Number(await page.getAttribute('#fill-live', 'data-fp'));
      assert(page_fp === fp, `false positives: page ${page_fp}, library ${fp}`);
    } finally {
      f.free();
    }
    assert((await chart()).dots >= 10, 'the measured dots are on the chart');
  });

  await t.check('watch them fill: a cuckoo filter to the brim: almost no kicks below half load, a cliff above 90 %, full where the library is', async () => {
    await page.selectOption('#fill-fp', '12');
    await page.click('#fill-cuckoo-run');
    await page.waitForFunction(() => document.getElementById('fill-cuckoo-status').dataset.state === 'full', null, { timeout: 60000 });
    const s = await page.$eval('#fill-cuckoo-status', (el) => ({ ...el.dataset }));
    const f = new lib.CuckooFilter({ ...CUCKOO_FILL, fingerprintBits: 12 });
    let i = 0;
    while (f.add(fillKey(i))) i++;
    const size = f.size;
    f.free();
    assert(Number(s.keys) === size, `full after ${s.keys} keys in the page, ${size} in the library`);
    assert(Number(s.meanBelowHalf) < 0.1 && Number(s.meanAbove90) > 3, `kicks per insert: ${s.meanBelowHalf} below 50 %, ${s.meanAbove90} above 90 %`);
    assert(size / Number(s.slots) > 0.9, `full at ${size} of ${s.slots} slots`);
    await shot('fill', '#fill');
  });

  await t.check('hashes to bits: pointing at (or tapping) a bit names the keys that set it, as the library places them', async () => {
    await page.click('#tiny-reset');
    const bloom = new lib.BloomFilter(TINY_BLOOM);
    try {
      for (const k of TINY_SEED_KEYS) bloom.add(k);
      const [x0, top, cell, cols] = (await page.getAttribute('#tiny-bloom', 'data-grid')).split(' ').map(Number);
      await page.locator('#tiny-bloom').scrollIntoViewIfNeeded();
      const box = await page.locator('#tiny-bloom').boundingBox();
      const at = (i) => ({ x: box.x + x0 + (i % cols) * cell + cell / 2, y: box.y + top + Math.floor(i / cols) * cell + cell / 2 });
      const setters = (i) => TINY_SEED_KEYS.filter((k) => Array.from(bloom.positions(k)).includes(i));
      const alice = Array.from(bloom.positions('alice'))[0];
      const clear = Array.from({ length: TINY_BLOOM.bits }, (_, i) => i).find((i) => setters(i).length === 0);
      await page.mouse.move(at(alice).x, at(alice).y);
      let cell0 = await page.$eval('#tiny-bloom-cell', (el) => ({ bit: el.dataset.bit, setters: el.dataset.setters, text: el.textContent }));
      assert(cell0.bit === String(alice) && cell0.setters === setters(alice).join(' ') && cell0.text.includes('“alice”'), `bit ${alice}: ${JSON.stringify(cell0)}`);
      await page.mouse.click(at(clear).x, at(clear).y);
      cell0 = await page.$eval('#tiny-bloom-cell', (el) => ({ bit: el.dataset.bit, setters: el.dataset.setters, text: el.textContent }));
      assert(cell0.bit === String(clear) && cell0.setters === '' && /is 0/.test(cell0.text), `bit ${clear}: ${JSON.stringify(cell0)}`);
    } finally {
      bloom.free();
    }
  });

  await t.check('verdicts are short badges with the derivation one click away (why?), in sections 2, 4 and 5', async () => {
    const read = (id) => page.$eval(`#${id}`, (el) => ({ badge: el.querySelector('.badge')?.textContent ?? '', open: el.querySelector('details')?.open ?? null,
      why: el.querySelector('details > span')?.textContent ?? '', shown: el.querySelector('.badge') ? el.querySelector('.badge').getBoundingClientRect().height : 0 }));
    for (const [input, button, id] of [['tiny-key', 'tiny-check', 'tiny-bloom-verdict'], ['steps-key', 'steps-check', 'steps-verdict'], ['zoo-key', 'zoo-check', 'zoo-verdict']]) {
      await page.fill(`#${input}`, 'eve-never-added');
      await page.click(`#${button}`);
      const v = await read(id);
      assert(['certainly absent', 'maybe present: a false positive'].includes(v.badge) && v.shown > 0, `${id}: badge "${v.badge}"`);
      assert(v.open === false && v.why.length > 40, `${id}: the derivation waits behind "why?" (${v.open}, ${v.why.length} characters)`);
      await page.click(`#${id} summary`);
      assert((await read(id)).open === true, `${id}: one click opens the derivation`);
    }
  });

  await t.check('fingerprints and kicks: pointing at a slot names whose fingerprint it is and the bucket a kick would send it to (the library\'s locate)', async () => {
    await page.selectOption('#steps-expansion', '0');
    await page.click('#steps-reset');
    const f = new lib.CuckooFilter(stepsOptions(0));
    try {
      for (const k of STEPS_SEED_KEYS) f.add(k);
      const { b, subs: [sub] } = readCuckooTables(f);
      const [x0, y0, w, h] = (await page.getAttribute('#steps-canvas', 'data-layout')).split(';')[0].split(' ').map(Number);
      await page.locator('#steps-canvas').scrollIntoViewIfNeeded();
      const box = await page.locator('#steps-canvas').boundingBox();
      let checked = 0;
      for (let i = 0; i < sub.slots.length && checked < 4; i++) {
        const [bucket, slot] = [Math.floor(i / b), i % b];
        await page.mouse.move(box.x + x0 + slot * w + w / 2, box.y + y0 + bucket * h + h / 2);
        const cell = await page.$eval('#steps-cell', (el) => ({ ...el.dataset, text: el.textContent }));
        assert(cell.bucket === String(bucket) && cell.slot === String(slot), `slot ${bucket}.${slot}: ${JSON.stringify(cell)}`);
        if (!sub.slots[i]) { assert(/empty/.test(cell.text), `empty slot ${bucket}.${slot}: ${cell.text}`); continue; }
        const { fingerprint, buckets: [[i1, i2]] } = f.locate(cell.owner);
        const alt = bucket === i1 ? i2 : i1;
        assert(fingerprint === sub.slots[i] && [i1, i2].includes(bucket), `slot ${bucket}.${slot} holds ${sub.slots[i]}, the page says ${cell.owner} (${fingerprint}, buckets ${i1} ${i2})`);
        assert(cell.text.includes(`${bucket} ⊕ ${bucket ^ alt} = ${alt}`), `the other bucket of ${cell.owner}: ${cell.text}`);
        checked++;
      }
      assert(checked === 4, `${checked} occupied slots checked`);
    } finally {
      f.free();
    }
  });
}
