// "Watch them fill" derives instead of asserting (issue 38): n, m and k are separate sliders, so
// more memory at the same keys lowers the rate; a chart of the rate against k shows the U-curve
// and its bottom at k = (m/n)·ln 2; measured points carry 95 % (Wilson) intervals.
import { assert, onReadyPage } from './browser.mjs';
import { shots } from './helpers.mjs';

const formula = (n, m, k) => (1 - Math.exp((-k * n) / m)) ** k;

/** Moves range input `id` to the step whose shown value (data attribute `key` of the chart) is `want`. */
async function setSlider(page, id, key, want) {
  const ok = await page.evaluate(({ id, key, want }) => {
    const el = document.getElementById(id);
    for (let v = Number(el.min); v <= Number(el.max); v += Number(el.step || 1)) {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      if (Number(document.getElementById('fill-bloom-chart').dataset[key]) === want) return true;
    }
    return false;
  }, { id, key, want });
  assert(ok, `#${id} has no step with ${key} = ${want}`);
}

export async function run(t, c) {
  const { browser, server } = c;
  await t.check('derive: the m slider changes the rate at the same n (4,096 → 8,192 bits at 1,024 keys: 14.7 % → 3.1 %); the k chart bottoms out at (m/n)·ln 2', () => onReadyPage(browser, server.url, null, async (page) => {
    const chart = () => page.$eval('#fill-bloom-chart', (el) => ({ m: Number(el.dataset.m), k: Number(el.dataset.k), n: Number(el.dataset.n), theory: Number(el.dataset.theoryAtN) }));
    await setSlider(page, 'fill-k', 'k', 3);
    await setSlider(page, 'fill-n', 'n', 1024);
    await setSlider(page, 'fill-m', 'm', 4096);
    const small = await chart();
    assert(small.n === 1024 && small.k === 3, `n ${small.n}, k ${small.k}`);
    assert(Math.abs(small.theory - formula(1024, 4096, 3)) < 1e-12 && Math.abs(small.theory - 0.147) < 0.001, `4,096 bits: ${small.theory}`);
    await setSlider(page, 'fill-m', 'm', 8192);
    const big = await chart();
    assert(big.n === 1024, `moving m moved n too: ${big.n}`);
    assert(Math.abs(big.theory - 0.031) < 0.001, `8,192 bits at 1,024 keys: ${big.theory} (want ~3.1 %)`);
    const shape = await page.textContent('#fill-shape');
    assert(/\b3\.(0[5-9]|1\d?) %/.test(shape) && /8,192/.test(shape), `the sentence under the sliders: ${shape}`);
    // the rate against k: a U, its bottom at round((m/n)·ln 2), the text naming ln 2 and 1.44
    const k = await page.$eval('#fill-k-chart', (el) => ({ role: el.getAttribute('role'), label: el.getAttribute('aria-label'), best: Number(el.dataset.bestK), curve: (el.dataset.curve ?? '').split(' ').map(Number) }));
    assert(k.role === 'img' && k.label, 'the k chart is labelled');
    const want = Math.round((8192 / 1024) * Math.LN2);
    assert(k.best === want, `the k chart's best k is ${k.best}, (m/n)·ln 2 rounds to ${want}`);
    const at = (kk) => k.curve[kk - 1];
    assert(at(1) > at(want) && at(16) > at(want), `not a U: k=1 ${at(1)}, k=${want} ${at(want)}, k=16 ${at(16)}`);
    for (let kk = 1; kk <= 16; kk++) assert(Math.abs(at(kk) - formula(1024, 8192, kk)) < 1e-12, `k chart at k = ${kk}: ${at(kk)}`);
    const why = await page.textContent('#fill-k-why');
    assert(/ln 2/.test(why) && /1\.44/.test(why), `the k chart's text: ${why}`);
    // measured points with intervals: run the fill, every dot has a Wilson 95 % interval around it
    await page.click('#fill-bloom-run');
    await page.waitForFunction(() => Number(document.getElementById('fill-live').dataset.keys) === 1024, null, { timeout: 30000 });
    const dots = await page.$eval('#fill-bloom-chart', (el) => JSON.parse(el.dataset.intervals ?? '[]'));
    assert(dots.length >= 10, `${dots.length} dots with intervals`);
    for (const d of dots) {
      const p = d.fp / d.probes;
      const z = 1.959964;
      const den = 1 + (z * z) / d.probes;
      const mid = (p + (z * z) / (2 * d.probes)) / den;
      const half = (z * Math.sqrt((p * (1 - p)) / d.probes + (z * z) / (4 * d.probes * d.probes))) / den;
      assert(Math.abs(d.lo - (mid - half)) < 1e-9 && Math.abs(d.hi - (mid + half)) < 1e-9, `interval of ${d.fp}/${d.probes}: [${d.lo}, ${d.hi}]`);
    }
    const live = await page.textContent('#fill-live');
    assert(/95 %/.test(live), `the live line gives the interval: ${live}`);
    // the timeline: back to the first chunk and forward again, the dots and the live line follow
    assert(await page.isVisible('#fill-scrub'), 'the fill has a timeline once done');
    const scrubTo = async (v) => {
      await page.$eval('#fill-scrub', (el, x) => { el.value = String(x); el.dispatchEvent(new Event('input', { bubbles: true })); }, v);
      return page.evaluate(() => ({ dots: Number(document.getElementById('fill-bloom-chart').dataset.dots), keys: Number(document.getElementById('fill-live').dataset.keys) }));
    };
    const first = await scrubTo(1);
    assert(first.dots === 1 && first.keys === dots[0].n, `at 1: ${JSON.stringify(first)}`);
    const mid = await scrubTo(5);
    assert(mid.dots === 5 && mid.keys === dots[4].n, `at 5: ${JSON.stringify(mid)}`);
    const back = await scrubTo(2);
    assert(back.dots === 2 && back.keys === dots[1].n, `back at 2: ${JSON.stringify(back)}`);
    await page.locator('#fill').screenshot({ path: `${shots}fill-derive.png` });
  }));
}
