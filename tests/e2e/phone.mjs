// The playground on a phone (390 x 844 CSS px): nothing widens the page, the figures fit and work
// under reduced motion, the builder's and the blacklist's messages fit.
import { assert, onReadyPage, watchConsole } from './browser.mjs';
import { lib, shots, spaceLabelTrouble } from './helpers.mjs';
import { checkCuckooGrowth, checkCuckooSteps, checkFalseDeletion, checkTinyFigure } from './figures.mjs';
import { checkBigCheck } from './worker.mjs';
import { checkZoo } from './zoo.mjs';

const PHONE = { width: 390, height: 844 };

export async function run(t, c) {
  const { browser, server } = c;
  // ---- a phone: 390 x 844 CSS px ------------------------------------------------------------------
  await t.check('phone (390 px): nothing widens the page, every button is on screen, chart text stays legible', () => onReadyPage(browser, server.url, PHONE, async (phone) => {
    await phone.click('#fill-btn');
    await phone.fill('#opt-errorRate', '2');
    await phone.click('#filter-create');
    assert(!(await phone.$eval('#stats-note', (el) => el.hidden)), 'the kept-filter note shows on a phone');
    await phone.locator('#builder').screenshot({ path: `${shots}phone-builder-kept.png` });
    await phone.fill('#opt-errorRate', '0.01');
    await phone.click('#filter-create');
    await phone.click('#fill-btn');
    await phone.fill('#exp-n', '2000');
    await phone.fill('#exp-m', '2000');
    await phone.click('#exp-run');
    await phone.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'done', null, { timeout: 60000 });
    await phone.fill('#space-n', '3000');
    await phone.fill('#space-m', '20000');
    await phone.click('#space-run');
    await phone.waitForFunction(() => document.getElementById('space-status').dataset.state === 'done', null, { timeout: 60000 });
    const layout = await phone.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      const off = [...document.querySelectorAll('button, input, select, canvas, textarea')]
        .filter((el) => el.offsetParent !== null && !el.closest('.table-scroll'))
        .map((el) => ({ id: el.id || el.tagName, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.left < -1 || r.right > vw + 1)
        .map(({ id, r }) => `${id} ${Math.round(r.left)}..${Math.round(r.right)}`);
      const chart = document.getElementById('exp-chart');
      const space = document.getElementById('space-chart');
      return { vw, scrollWidth: document.documentElement.scrollWidth, off,
        chartCss: chart.getBoundingClientRect().width, chartBacking: chart.width, dpr: devicePixelRatio,
        spaceCss: space.getBoundingClientRect().width, spaceBacking: space.width };
    });
    await phone.screenshot({ path: `${shots}phone.png`, fullPage: true });
    await phone.locator('#experiment').screenshot({ path: `${shots}phone-experiment.png` });
    await phone.locator('#space').screenshot({ path: `${shots}phone-space.png` });
    const trouble = await spaceLabelTrouble(phone);
    await phone.locator('#hash').screenshot({ path: `${shots}phone-hash.png` });
    assert(trouble.length === 0, `the space chart's curve labels at 390 px: ${trouble.join('; ')}`);
    assert(layout.scrollWidth <= layout.vw, `the page is ${layout.scrollWidth} px wide on a ${layout.vw} px screen`);
    assert(layout.off.length === 0, `controls off screen: ${layout.off.join(', ')}`);
    // the chart is drawn at its on-screen size (× devicePixelRatio), so 12 px text is 12 px
    assert(Math.abs(layout.chartBacking - layout.chartCss * layout.dpr) <= 2, `chart backing ${layout.chartBacking} px for ${layout.chartCss} CSS px`);
    assert(Math.abs(layout.spaceBacking - layout.spaceCss * layout.dpr) <= 2, `space chart backing ${layout.spaceBacking} px for ${layout.spaceCss} CSS px`);
  }));

  await t.check('phone (390 px), reduced motion: the small figures fit and work', async () => {
    const phone = await browser.context.newPage();
    const phoneErrors = watchConsole(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.emulateMedia({ reducedMotion: 'reduce' });
    await phone.goto(server.url);
    await phone.waitForSelector('#status:text("ready")', { timeout: 20000 });
    await checkTinyFigure(phone, 'phone-');
    await checkCuckooSteps(phone, 'phone-');
    await checkFalseDeletion(phone, 'phone-');
    await checkZoo(phone, lib, (name) => phone.locator('#zoo').screenshot({ path: `${shots}phone-${name}.png` }));
    await checkCuckooGrowth(phone, 'phone-');
    await phone.selectOption('#worker-source', 'builder');
    await phone.click('#worker-send');
    await phone.waitForFunction(() => document.getElementById('worker-status').dataset.items !== undefined);
    await checkBigCheck(phone, 50000, null, 'phone-');
    const layout = await phone.evaluate(() => ({ vw: document.documentElement.clientWidth, sw: document.documentElement.scrollWidth,
      canvases: ['tiny-bloom', 'tiny-cuckoo', 'steps-canvas', 'zoo-canvas'].map((id) => document.getElementById(id).getBoundingClientRect().right) }));
    assert(layout.sw <= layout.vw && layout.canvases.every((r) => r <= layout.vw), `page ${layout.sw} px, canvases end at ${layout.canvases} on ${layout.vw} px`);
    assert(phoneErrors.length === 0, `console errors: ${phoneErrors.join(' | ')}`);
    await phone.close();
  });

  await t.check('phone (390 px): the builder\'s remove warning, bits / key, the blacklist\'s refusals and the verdicts fit', () => onReadyPage(browser, server.url, PHONE, async (phone) => {
    const fits = async (what) => {
      const l = await phone.evaluate(() => ({ vw: document.documentElement.clientWidth, sw: document.documentElement.scrollWidth }));
      assert(l.sw <= l.vw, `${what}: the page is ${l.sw} px wide on ${l.vw} px`);
    };
    // a cuckoo filter: one key (bits / key "—"), then a warning for a key never added that reads present
    await phone.selectOption('#filter-kind', 'cuckoo');
    for (const [k, v] of Object.entries({ capacity: '16', fingerprintBits: '8', bucketSize: '4', expansion: '0' })) await phone.fill(`#opt-${k}`, v);
    await phone.press('#opt-expansion', 'Enter');
    const added = ['k1', 'k2', 'k3', 'k4'];
    for (const k of added) { await phone.fill('#key-input', k); await phone.click('#key-add'); }
    const twin = new lib.CuckooFilter({ capacity: 16, fingerprintBits: 8, bucketSize: 4, expansion: 0 });
    twin.addAll(added);
    let ghost = null;
    for (let i = 0; ghost === null && i < 100000; i++) if (twin.has(`ghost-${i}`)) ghost = `ghost-${i}`;
    twin.free();
    await phone.fill('#key-input', ghost);
    await phone.click('#key-remove');
    assert(await phone.$eval('#key-result', (el) => el.dataset.state) === 'warn', 'the warning on a phone');
    await fits('the remove warning');
    await phone.locator('#builder').screenshot({ path: `${shots}phone-builder-remove-warn.png` });
    await phone.click('#key-keep');
    // the blacklist: a refused binary file, then a small list and a verdict
    await phone.setInputFiles('#bl-file', { name: 'random.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)) });
    await phone.waitForFunction(() => !document.getElementById('bl-error').hidden);
    await fits('the blacklist refusal');
    await phone.locator('#blacklist').screenshot({ path: `${shots}phone-blacklist-binary.png` });
    await phone.$eval('#bl-text', (el) => { el.value = 'https://a.example/\nhttps://b.example/'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    await phone.press('#bl-error-rate', 'Enter');
    await phone.waitForFunction(() => document.getElementById('bl-status').dataset.items === '2');
    await phone.fill('#bl-check', 'https://a.example/');
    await fits('the blacklist verdict');
    await phone.locator('#blacklist').screenshot({ path: `${shots}phone-blacklist.png` });
  }));
}
