// The first screen (issue 38): the page opens on the figure, at 1280 x 800 and at 390 x 844. The
// 64-bit Bloom filter and the 8-bucket cuckoo filter answer the same key on the first screen, with
// a live "x of 64 bits set → (x/64)^k ≈ y %" line that follows the figure's own bits.
import { assert, onReadyPage } from './browser.mjs';
import { lib, shots } from './helpers.mjs';
import { TINY_BLOOM, TINY_SEED_KEYS } from '../../demo/tiny.js';
import { KEY_COLOURS } from '../../demo/tiny-draw.js';

const SIZES = [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 390, height: 844 }];

/** The live line's numbers against the bits the Bloom figure shows (data-bits). */
async function fprLine(page) {
  return page.evaluate(() => {
    const el = document.getElementById('tiny-fpr');
    const bits = document.getElementById('tiny-bloom').dataset.bits ?? '';
    const m = /(\d+) of 64 bits set → \((\d+)\/64\)\^(\d+) ≈ ([\d.]+) %/.exec(el?.textContent ?? '');
    return { text: el?.textContent ?? null, live: el?.closest('[aria-live]') !== null, set: [...bits].filter((b) => b === '1').length,
      x: m && Number(m[1]), x2: m && Number(m[2]), k: m && Number(m[3]), y: m && Number(m[4]) };
  });
}

export async function run(t, c) {
  const { browser, server } = c;
  for (const size of SIZES) {
    await t.check(`first screen (${size.width} x ${size.height}): the two figures answer the same key above the fold, the live rate line follows the bits`, () => onReadyPage(browser, server.url, size, async (page) => {
      await page.screenshot({ path: `${shots}first-screen-${size.name}.png` });
      const geo = await page.evaluate(() => {
        const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
        const canvases = [...document.querySelectorAll('canvas')].filter((el) => el.offsetParent !== null);
        const firstForm = document.querySelector('main textarea, main input[type="file"]');
        return { bloom: box('tiny-bloom'), cuckoo: box('tiny-cuckoo'), firstCanvas: canvases[0]?.id, vh: innerHeight,
          blacklistTop: box('blacklist').top, stepsTop: box('steps').top, formTop: firstForm ? firstForm.getBoundingClientRect().top + scrollY : Infinity };
      });
      assert(geo.firstCanvas === 'tiny-bloom', `the first canvas of the page is #${geo.firstCanvas}`);
      assert(geo.bloom.top < geo.vh, `the Bloom figure starts at y ${Math.round(geo.bloom.top)}, below the fold at ${geo.vh}`);
      assert(geo.cuckoo.top < geo.vh, `the cuckoo figure starts at y ${Math.round(geo.cuckoo.top)}, below the fold at ${geo.vh}`);
      assert(geo.bloom.bottom <= geo.vh && geo.cuckoo.bottom <= geo.vh,
        `both figures whole on the first screen: Bloom ends at ${Math.round(geo.bloom.bottom)}, cuckoo at ${Math.round(geo.cuckoo.bottom)}, the fold at ${geo.vh}`);
      assert(geo.formTop > geo.vh, `a form (the blacklist's list) starts on the first screen, at ${Math.round(geo.formTop)}`);
      assert(geo.blacklistTop > geo.stepsTop, 'the blacklist comes after the kick chain');
      // the live line: as many bits as the figure shows set, and (x/64)^k
      let line = await fprLine(page);
      assert(line.text !== null && line.x !== null, `the live line reads "${line.text}"`);
      assert(line.live, 'the live line is in an aria-live region');
      const check = (l) => {
        assert(l.x === l.set && l.x2 === l.set, `the line says ${l.x} bits set, the figure shows ${l.set}`);
        const want = 100 * (l.set / 64) ** l.k;
        assert(Math.abs(l.y - want) <= Math.max(0.05, want * 0.02), `the line says ${l.y} %, (${l.set}/64)^${l.k} is ${want.toFixed(3)} %`);
      };
      check(line);
      // one colour per key: a bit only one seed key set carries that key's colour (a strip along
      // its bottom), the same as the strip on the key's cuckoo slot and its swatch in the list
      const twin = new lib.BloomFilter(TINY_BLOOM);
      const setters = Array.from({ length: 64 }, () => []);
      TINY_SEED_KEYS.forEach((k, i) => { twin.add(k); for (const p of new Set(twin.positions(k))) setters[p].push(i); });
      twin.free();
      const lone = setters.findIndex((s) => s.length === 1);
      const strip = await page.$eval('#tiny-bloom', (cv, bit) => {
        const [x0, top, cell, cols] = cv.dataset.grid.split(' ').map(Number);
        const dpr = cv.width / cv.getBoundingClientRect().width;
        const x = x0 + (bit % cols) * cell + cell / 2;
        const y = top + Math.floor(bit / cols) * cell + cell - 3;
        const d = cv.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data;
        return `#${[d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
      }, lone);
      assert(strip === KEY_COLOURS[setters[lone][0]], `bit ${lone}, set only by ${TINY_SEED_KEYS[setters[lone][0]]}: strip ${strip}, the key's colour ${KEY_COLOURS[setters[lone][0]]}`);
      const swatches = await page.$$eval('#tiny-holds .swatch', (els) => els.map((e) => getComputedStyle(e).backgroundColor));
      assert(swatches.length === TINY_SEED_KEYS.length, `${swatches.length} key swatches`);
      // one Check answers in both figures; an Add moves the line
      await page.fill('#tiny-key', 'zed');
      await page.click('#tiny-check');
      await page.waitForFunction(() => document.getElementById('tiny-bloom-verdict').dataset.state && document.getElementById('tiny-cuckoo-verdict').dataset.state);
      const before = line.x;
      await page.fill('#tiny-key', 'oscar');
      await page.click('#tiny-add');
      await page.waitForFunction((b) => /(\d+) of 64/.exec(document.getElementById('tiny-fpr').textContent)?.[1] !== String(b), before, { timeout: 10000 });
      await page.waitForFunction(() => document.getElementById('tiny-bloom').dataset.animating !== 'true', null, { timeout: 10000 });
      line = await fprLine(page);
      check(line);
      assert(line.x > before, `after adding "oscar" the line reads ${line.x} bits (was ${before})`);
    }));
  }

  await t.check('phone (390 x 844): the kick chain is reached within 3.5 screens of scrolling', () => onReadyPage(browser, server.url, { width: 390, height: 844 }, async (page) => {
    const top = await page.$eval('#steps-canvas', (el) => el.getBoundingClientRect().top + scrollY);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`       phone: the kick chain's table at y ${Math.round(top)} (${(top / 844).toFixed(1)} screens), the page ${height} px`);
    assert(top < 3.5 * 844, `the kick chain's table starts at y ${Math.round(top)} (${(top / 844).toFixed(1)} screens)`);
  }));
}
