// Access and the phone (issue 38): the focus ring's contrast against white, a skip link, every
// canvas labelled, status lines announced, table boxes scrollable from the keyboard, bits and
// slots inspectable from the keyboard, section 8's table breaking no word mid-word, the sticky
// Step bar hiding no active row.
import { assert, onReadyPage } from './browser.mjs';
import { shots } from './helpers.mjs';

/** WCAG relative luminance of an "rgb(r, g, b)" colour, and the contrast of two. */
function contrast(a, b) {
  const lum = (s) => {
    const [r, g, bl] = s.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

export async function run(t, c) {
  const { browser, server } = c;

  await t.check('access: a skip link first, a focus ring of 3:1 against white, every canvas labelled, status lines announced, table boxes scrollable from the keyboard', () => onReadyPage(browser, server.url, { width: 1280, height: 800 }, async (page) => {
    // the first Tab stop is a skip link to the first figure; following it puts the next Tab in the figure's form
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return { tag: el.tagName, href: el.getAttribute('href'), text: el.textContent, outline: cs.outlineColor, style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), visible: r.width > 0 && r.top >= 0 && r.top < innerHeight };
    });
    assert(skip.tag === 'A' && /^#/.test(skip.href ?? '') && /skip/i.test(skip.text), `the first Tab stop is ${skip.tag} "${skip.text}" (${skip.href})`);
    assert(skip.visible, 'the skip link shows when focused');
    const ratio = contrast(skip.outline, 'rgb(255, 255, 255)');
    assert(skip.style !== 'none' && skip.width >= 2, `the focus ring is ${skip.style} ${skip.width} px`);
    assert(ratio >= 3, `the focus ring ${skip.outline} is ${ratio.toFixed(2)}:1 against white (WCAG 2.4.11 asks 3:1)`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement.id);
    assert(next === 'tiny-key', `after the skip link, Tab lands on #${next}, not the first figure's key field`);
    // the ring of a button and of a field has the same contrast
    for (const id of ['tiny-check', 'tiny-key']) {
      await page.focus(`#${id}`);
      const col = await page.$eval(`#${id}`, (el) => getComputedStyle(el).outlineColor);
      assert(contrast(col, 'rgb(255, 255, 255)') >= 3, `#${id}'s focus ring ${col} is ${contrast(col, 'rgb(255, 255, 255)').toFixed(2)}:1`);
    }
    const a11y = await page.evaluate(() => {
      const unlabelled = [...document.querySelectorAll('canvas')]
        .filter((el) => el.getAttribute('role') !== 'img' || !(el.getAttribute('aria-label') ?? '').trim()).map((el) => el.id);
      const statuses = ['tiny-fpr', 'fill-live', 'fill-cuckoo-status', 'steps-status', 'space-status', 'exp-status', 'bl-status', 'bl-progress-text',
        'export-status', 'import-status', 'worker-status', 'fill-progress-text', 'zoo-verdict'];
      const silent = statuses.filter((id) => {
        const el = document.getElementById(id);
        return !el || el.closest('[aria-live="polite"], [aria-live="assertive"], [role="status"], [role="alert"]') === null;
      });
      const boxes = [...document.querySelectorAll('.table-scroll')]
        .filter((el) => el.tabIndex !== 0 || !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) || !el.getAttribute('role'))
        .map((el) => el.querySelector('table')?.id);
      return { unlabelled, silent, boxes };
    });
    assert(a11y.unlabelled.length === 0, `canvases without role="img" and a label: ${a11y.unlabelled.join(', ')}`);
    // the builder's and the experiment's canvases say what they show, not only what they are
    await page.fill('#fill-count', '300');
    await page.click('#fill-btn');
    await page.waitForFunction(() => !document.getElementById('fill-btn').disabled);
    const builderLabel = await page.getAttribute('#filter-canvas', 'aria-label');
    assert(/300 keys/.test(builderLabel), `the builder's canvas: "${builderLabel}"`);
    await page.fill('#exp-n', '1000');
    await page.fill('#exp-m', '2000');
    await page.click('#exp-run');
    await page.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'done', null, { timeout: 60000 });
    const expLabel = await page.getAttribute('#exp-chart', 'aria-label');
    assert(/1,000 of 1,000 keys/.test(expLabel) && /measured/.test(expLabel), `the experiment's chart: "${expLabel}"`);
    assert(a11y.silent.length === 0, `status lines not announced: ${a11y.silent.join(', ')}`);
    assert(a11y.boxes.length === 0, `table boxes not reachable from the keyboard (tabindex 0, a role and a label): ${a11y.boxes.join(', ')}`);
  }));

  await t.check('access: the bits and slots of the figures can be inspected from the keyboard (arrow keys)', () => onReadyPage(browser, server.url, { width: 1280, height: 800 }, async (page) => {
    await page.focus('#tiny-bloom');
    assert(await page.evaluate(() => document.activeElement.id) === 'tiny-bloom', 'the Bloom figure takes the focus');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const bit = await page.$eval('#tiny-bloom-cell', (el) => ({ bit: el.dataset.bit, text: el.textContent }));
    assert(bit.bit === '10', `arrows right, right, down from bit 0 name bit ${bit.bit} ("${bit.text}"), not 10`);
    await page.keyboard.press('End');
    assert(await page.$eval('#tiny-bloom-cell', (el) => el.dataset.bit) === '63', 'End goes to bit 63');
    for (const [canvas, cell] of [['tiny-cuckoo', 'tiny-cuckoo-cell'], ['steps-canvas', 'steps-cell']]) {
      await page.focus(`#${canvas}`);
      assert(await page.evaluate(() => document.activeElement.id) === canvas, `#${canvas} takes the focus`);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      const at = await page.$eval(`#${cell}`, (el) => ({ bucket: el.dataset.bucket, slot: el.dataset.slot, text: el.textContent }));
      assert(at.bucket === '1' && at.slot === '1', `#${canvas}: down, right from bucket 0 slot 0 names bucket ${at.bucket} slot ${at.slot} ("${at.text}")`);
    }
  }));

  await t.check('phone (390 px): section 8\'s table breaks no word or number mid-word; the Step bar hides none of the moves\' rows', () => onReadyPage(browser, server.url, { width: 390, height: 844 }, async (page) => {
    await page.fill('#exp-n', '2000');
    await page.fill('#exp-m', '2000');
    await page.click('#exp-run');
    await page.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'done', null, { timeout: 60000 });
    await page.locator('#experiment').screenshot({ path: `${shots}phone-experiment-table.png` });
    const broken = await page.evaluate(() => {
      const out = [];
      for (const td of document.querySelectorAll('#exp-results td, #space-results td')) {
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.data.matchAll(/\S+/g)) {
            const r = document.createRange();
            r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
            if (tops.size > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
    assert(broken.length === 0, `words broken over two lines in the results tables: ${broken.join(' | ')}`);
    // the kick chain on a phone: each move's bucket rows stay above the sticky Step bar
    await page.fill('#steps-key', 'mallory');
    await page.click('#steps-add');
    await page.waitForFunction(() => ['waiting', 'done'].includes(document.getElementById('steps-status').dataset.state), null, { timeout: 10000 });
    let moves = 0;
    for (let i = 0; i < 40; i++) {
      const state = await page.$eval('#steps-status', (el) => el.dataset.state);
      if (state !== 'waiting') break;
      await page.click('#steps-step');
      await page.waitForFunction((n) => Number(document.getElementById('steps-status').dataset.move) >= n
        && document.getElementById('steps-canvas').dataset.animating !== 'true', moves + 1, { timeout: 10000 });
      moves++;
      if (await page.$eval('#steps-status', (el) => el.dataset.state) !== 'waiting') break;   // the last move settled: the table as the filter holds it
      const hidden = await page.evaluate(() => {
        const c = document.getElementById('steps-canvas');
        const rows = (c.dataset.activeRows ?? '').split(' ').filter(Boolean).map(Number);
        const r = c.getBoundingClientRect();
        const bar = document.querySelector('.step-bar').getBoundingClientRect();
        return { rows, hidden: rows.filter((y) => r.top + y > bar.top || r.top + y < 0) };
      });
      assert(hidden.rows.length > 0, 'the steps canvas names the rows of the move (data-active-rows)');
      assert(hidden.hidden.length === 0, `move ${moves}: rows at ${hidden.hidden} are under the Step bar or off screen`);
    }
    assert(moves > 0, 'the chain had moves to step through');
    await page.screenshot({ path: `${shots}phone-steps-bar.png` });
  }));
}
