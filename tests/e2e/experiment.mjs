// "Two filters, one memory" (#experiment): the false-positive experiment, every class that takes part, in pairs.
import { assert } from './browser.mjs';

export async function run(t, c) {
  const { page, text, data, value, visibleError, shot } = c;
  await t.check('experiment: bad inputs show an error in the page', async () => {
    await page.fill('#exp-n', 'many');
    await page.click('#exp-run');
    await page.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'failed');
    assert(/n keys/.test(await visibleError('exp-error')) && /many/.test(await visibleError('exp-error')), `message "${await visibleError('exp-error')}"`);
    await page.fill('#exp-n', '14700');
  });

  await t.check('experiment: the defaults are a fight the cuckoo filter should win, as in the README (14,700 keys in 32,768 bytes, 200,000 probes)', async () => {
    const got = { n: await page.inputValue('#exp-n'), bytes: await page.inputValue('#exp-bytes'), m: await page.inputValue('#exp-m') };
    assert(got.n === '14700' && got.bytes === '32768' && got.m === '200000', `defaults: ${JSON.stringify(got)}`);
  });

  const expKinds = await page.$$eval('#exp-left option', (os) => os.map((o) => o.value));
  const pairs = [[await page.inputValue('#exp-left'), await page.inputValue('#exp-right')]];
  for (const k of expKinds) if (!pairs.flat().includes(k)) pairs.push([k, pairs.flat().includes('bloom') && k !== 'bloom' ? 'bloom' : k]);
  for (const [left, right] of pairs) {
    await t.check(`FPR experiment ${left} vs ${right}: measured within the binomial bound of theory, same memory`, async () => {
      await page.selectOption('#exp-left', left);
      await page.selectOption('#exp-right', right);
      await page.click('#exp-run');
      await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('exp-status').dataset.state), null, { timeout: 30000 });
      assert(await data('exp-status', 'state') === 'done', `experiment failed: ${await visibleError('exp-error')}`);
      assert(await visibleError('exp-error') === '', `error: ${await visibleError('exp-error')}`);
      const budget = Number(await page.inputValue('#exp-bytes'));
      const n = Number(await page.inputValue('#exp-n'));
      const sizes = [];
      for (const side of ['left', 'right']) {
        const m = await value(`exp-${side}-probes`);
        const measured = await value(`exp-${side}-measured`);
        const theory = await value(`exp-${side}-theory`);
        const fp = await value(`exp-${side}-fp`);
        const size = await value(`exp-${side}-bytes`);
        sizes.push(size);
        assert(await value(`exp-${side}-keys`) === n, `${side}: all ${n} keys inserted`);
        assert(Math.abs(measured - fp / m) < 1e-12, `${side}: measured = fp / m`);
        // one-sided binomial bound: 4.5 standard deviations plus a few counts of slack
        const bound = theory + 4.5 * Math.sqrt((theory * (1 - theory)) / m) + 3 / m;
        assert(measured <= bound, `${side} (${await data(`exp-${side}-kind`, 'value')}): measured ${measured} > bound ${bound} (theory ${theory})`);
        // and not far below it (a filter answering "absent" too often): only where ≥ 100 are expected
        if (theory * m >= 100) assert(measured >= theory / 2, `${side}: measured ${measured} far below theory ${theory}`);
        assert(size <= budget, `${side}: ${size} bytes > budget ${budget}`);
      }
      // the same memory on both sides (up to one 32-byte block of rounding), and the note says it
      assert(Math.max(...sizes) - Math.min(...sizes) <= 32, `memory differs: ${sizes}`);
      assert((await data('exp-memory-note', 'bytes')) === sizes.join(' '), `note: ${await text('exp-memory-note')}`);
      for (const side of ['left', 'right']) {
        const bpk = await value(`exp-${side}-bpk`);
        assert(Math.abs(bpk - (8 * sizes[side === 'left' ? 0 : 1]) / n) < 1e-9, `${side} bits/key ${bpk}`);
        const fill = await value(`exp-${side}-fill`);
        assert(fill > 0 && fill <= 1, `${side} fill/load ${fill}`);
      }
      // every measured rate with its 95 % interval (Wilson), in the table
      for (const side of ['left', 'right']) {
        const [lo, hi] = (await data(`exp-${side}-interval`, 'value')).split(' ').map(Number);
        const measured = await value(`exp-${side}-measured`);
        assert(lo <= measured && measured <= hi && hi > lo, `${side}: interval [${lo}, ${hi}] around ${measured}`);
      }
      if (left === 'bloom' && right === 'cuckoo' && n === 14700) {
        // the default experiment: the same bytes (so bits per key), a cuckoo table that fills them
        // with 16-bit fingerprints at 90 % load, and the cuckoo filter ahead, as the README measures
        // at low rates; the crossover is named
        assert(sizes[0] === sizes[1], `default memory: ${sizes}`);
        assert(/\(f = 16\)/.test(await text('exp-right-kind')), `default cuckoo: ${await text('exp-right-kind')}`);
        const [tl, tr] = [await value('exp-left-theory'), await value('exp-right-theory')];
        assert(tr < tl, `default rates: Bloom ${tl}, cuckoo ${tr}: the cuckoo filter should be ahead`);
        const cross = await page.$eval('#exp-crossover', (el) => ({ text: el.textContent, bits: Number(el.dataset.bits), f: Number(el.dataset.f) }));
        assert(cross.f >= 8 && cross.f <= 16 && cross.bits < 17.8 && /cuckoo is ahead/.test(cross.text), `crossover: ${JSON.stringify(cross)}`);
      }
      // the chart is drawn: pixels of both series' colours (blue left, red right)
      const px = await page.$eval('#exp-chart', (c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let blue = 0;
        let red = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i] < 80 && d[i + 1] < 130 && d[i + 2] > 200) blue++;
          if (d[i] > 190 && d[i + 1] < 80 && d[i + 2] < 80) red++;
        }
        return { blue, red };
      });
      assert(px.blue > 200 && px.red > 200, `chart pixels: ${JSON.stringify(px)}`);
      await shot(`experiment-${left}-vs-${right}`, '#experiment');
    });
  }

  await t.check('a failed experiment clears the old chart, table and memory note', async () => {
    assert(await page.$$eval('#exp-results tbody tr', (trs) => trs.length) === 2, 'a finished run has two rows');
    await page.fill('#exp-bytes', '12');
    await page.click('#exp-run');
    await page.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'failed');
    assert(/memory/.test(await visibleError('exp-error')), `message: ${await visibleError('exp-error')}`);
    assert(await page.$$eval('#exp-results tbody tr', (trs) => trs.length) === 0, 'old rows cleared');
    assert(await text('exp-memory-note') === '', 'old memory note cleared');
    const coloured = await page.$eval('#exp-chart', (c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if ((d[i] < 80 && d[i + 2] > 200) || (d[i] > 190 && d[i + 1] < 80 && d[i + 2] < 80)) k++;
      return k;
    });
    assert(coloured === 0, `the old series are still drawn (${coloured} px)`);
    await page.fill('#exp-bytes', '32768');
  });
}
