// "Space against error" (#space): every class measured as the library measures it.
import { assert } from './browser.mjs';
import { CLASS_OF, KINDS, spaceLabelTrouble } from './helpers.mjs';

export async function run(t, c) {
  const { page, data, visibleError, shot } = c;
  // ---- space against error ----------------------------------------------------------------------
  await t.check('space against error: every class measured on the same keys, as the library measures them, in slices that never freeze the page', async () => {
    const n = 10000;
    const m = 100000;
    await page.evaluate(() => { delete document.getElementById('space-status').dataset.state; });
    await page.fill('#space-n', String(n));
    await page.fill('#space-m', String(m));
    // long tasks (> 50 ms) and the progress bar on every frame while it runs
    await page.evaluate(() => {
      window.__long = [];
      window.__spaceObserver = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); });
      window.__spaceObserver.observe({ type: 'longtask' });
      window.__frames = [];
      const tick = () => {
        window.__frames.push(document.getElementById('space-progress').value);
        if (!['done', 'failed'].includes(document.getElementById('space-status').dataset.state) && window.__frames.length < 5000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.click('#space-run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('space-status').dataset.state), null, { timeout: 60000 });
    assert(await data('space-status', 'state') === 'done', `not done: ${await visibleError('space-error')}`);
    const { long, frames } = await page.evaluate(() => { window.__spaceObserver.disconnect(); return { long: window.__long, frames: window.__frames }; });
    const longest = Number(await data('space-status', 'longest'));
    if (process.env.E2E_TIMING) console.log(`       longest slice ${longest.toFixed(1)} ms, long tasks ${JSON.stringify(long)}, ${frames.length} frames`);
    assert(longest < 100, `a slice of work took ${longest} ms`);
    assert(long.filter((d) => d > 100).length <= 1, `long tasks over 100 ms: ${long}`);
    assert(frames.some((v) => v > 0 && v < 1), `the page never painted mid-run (progress ${frames.slice(0, 10)})`);
    // every row: the same filter built in Node from the same keys has the same bytes and the same
    // number of false positives on the same probes
    const rows = await page.$$eval('#space-results tbody tr', (trs) => trs.map((tr) => ({ ...tr.dataset, bpk: tr.cells[3].textContent })));
    const keys = Array.from({ length: n }, (_, i) => `space-in-${i}`);
    const probes = Array.from({ length: m }, (_, j) => `space-out-${j}`);
    const perKind = {};
    for (const r of rows) perKind[r.kind] = (perKind[r.kind] ?? 0) + 1;
    for (const kind of KINDS) assert(perKind[kind] >= 2, `${kind}: ${perKind[kind] ?? 0} points`);
    for (const r of rows) {
      const Cls = CLASS_OF[r.kind];
      const v = Number(r.setting.replace(/^.*= /, '').replace(' %', ''));
      const f = r.kind === 'fuse' ? Cls.build(keys, { fingerprintBits: v })
        : r.kind === 'cuckoo' ? new Cls({ capacity: n, fingerprintBits: v }) : new Cls({ capacity: n, errorRate: v / 100 });
      if (r.kind !== 'fuse') f.addAll(keys);
      const fp = f.hasAll(probes).reduce((a, b) => a + b, 0);
      assert(Number(r.bytes) === f.byteLength && Number(r.fp) === fp && Number(r.probes) === m,
        `${r.kind} ${r.setting}: page ${r.bytes} B, ${r.fp} false positives; library ${f.byteLength} B, ${fp}`);
      assert(Math.abs(Number(r.bpk) - (8 * f.byteLength) / n) < 0.006, `${r.kind} ${r.setting}: bits/key ${r.bpk}`);
      f.free();
    }
    // markers of the classes' colours on the chart; hiding a class takes its markers away
    const red = () => page.$eval('#space-chart', (c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 60 && d[i + 2] < 60) k++;
      return k;
    });
    assert(await red() > 30, 'the cuckoo markers are drawn');
    await page.uncheck('#space-legend input[value="cuckoo"]');
    assert(await red() === 0, 'unticking Cuckoo hides its markers');
    await page.check('#space-legend input[value="cuckoo"]');
    await shot('space', '#space');
    const trouble = await spaceLabelTrouble(page);
    assert(trouble.length === 0, `the curves' labels at 1280 px: ${trouble.join('; ')}`);
    // a failed run clears the old chart and table
    await page.fill('#space-n', 'lots');
    await page.click('#space-run');
    await page.waitForFunction(() => document.getElementById('space-status').dataset.state === 'failed');
    assert(/n keys/.test(await visibleError('space-error')), `message: ${await visibleError('space-error')}`);
    assert(await page.$$eval('#space-results tbody tr', (trs) => trs.length) === 0, 'the old table is cleared');
    assert(await red() === 0, 'the old chart is cleared');
    await page.fill('#space-n', '30000');
  });
}
