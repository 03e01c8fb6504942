// The playground in real headless Chromium: builds demo/, serves it on 127.0.0.1, walks through
// every section, asserts what the DOM shows (cross-checked against the library in Node where it
// can be), fails on console errors, and saves screenshots to tests/e2e/screenshots/ (git-ignored).
// Covers every filter class the library exports at the time it runs.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as lib from '../../js/index.js';
import { sampleUrls, visitUrls } from '../../demo/sample-urls.js';
import { readCuckooTables } from '../../demo/cuckoo-model.js';
import { TINY_BLOOM, TINY_CUCKOO, TINY_SEED_KEYS } from '../../demo/tiny.js';
import { STEPS_SEED_KEYS, stepsOptions } from '../../demo/cuckoo-steps.js';
import { assert, buildAndServe, launchBrowser, makeRunner, watchConsole } from './browser.mjs';
import { checkZoo } from './zoo.mjs';
import { checkRobustness } from './robust.mjs';
import murmurhash3js from 'murmurhash3js-revisited';

const { init, murmur3 } = lib;
const demoRoot = fileURLToPath(new URL('../../demo/', import.meta.url));
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(shots, { recursive: true });

// the classes the page should offer: every filter class this build exports
const CLASS_OF = { bloom: 'BloomFilter', blocked: 'BlockedBloomFilter', counting: 'CountingBloomFilter',
  scalable: 'ScalableBloomFilter', cuckoo: 'CuckooFilter', fuse: 'BinaryFuseFilter' };
const KINDS = Object.keys(CLASS_OF).filter((k) => typeof lib[CLASS_OF[k]] === 'function');
const REMOVABLE = new Set(['counting', 'cuckoo']);
function shotOf(page, name, selector) {
  return selector
    ? page.locator(selector).screenshot({ path: `${shots}${name}.png` })
    : page.screenshot({ path: `${shots}${name}.png`, fullPage: true });
}

/**
 * "The cuckoo filter, step by step" on `page`: a kick chain stepped one move at a time (each Step
 * changes one slot; the end is the real filter's table), the speed control from the keyboard,
 * the duplicate limit with expansion 0 (FULL, and why) and 1 (a new sub-filter), remove.
 */
async function checkCuckooSteps(page, prefix) {
  const twin = (expansion, keys) => {
    const f = new lib.CuckooFilter(stepsOptions(expansion));
    for (const k of keys) f.add(k);
    return f;
  };
  const status = () => page.$eval('#steps-status', (el) => ({ state: el.dataset.state, move: Number(el.dataset.move), moves: Number(el.dataset.moves), text: el.textContent }));
  const waitFor = (states) => page.waitForFunction((s) => s.includes(document.getElementById('steps-status').dataset.state)
    && document.getElementById('steps-canvas').dataset.animating !== 'true', states, { timeout: 20000 });
  const shown = () => page.getAttribute('#steps-canvas', 'data-shown');
  const verdict = () => page.$eval('#steps-verdict', (el) => ({ state: el.dataset.state, text: el.textContent }));
  let f = twin(0, STEPS_SEED_KEYS);
  try {
    assert(await shown() === tableText(f), `on arrival: shown ${await shown()}, filter ${tableText(f)}`);
    // the fastest speed, from the keyboard
    await page.focus('#steps-speed');
    await page.keyboard.press('End');
    assert(/^120 ms/.test(await page.textContent('#steps-speed-text')), `speed: ${await page.textContent('#steps-speed-text')}`);
    // a key whose buckets are both full: every move on Step
    const key = 'mallory';
    const { fingerprint, buckets: [[i1, i2]] } = f.locate(key);
    assert(f.count(key) === 0, 'mallory is not in the seeded table');
    await page.fill('#steps-key', key);
    await page.click('#steps-add');
    await waitFor(['waiting', 'done']);
    const how = await page.textContent('#steps-how');
    assert(how.includes(`= 0x${fingerprint.toString(16).padStart(2, '0')};`) && how.includes(`i1 = hash mod 8 = ${i1}`) && how.includes(`= ${i1} ⊕ ${i1 ^ i2} = ${i2}.`), `i1/i2 derivation: ${how}`);
    assert((await status()).state === 'waiting', `a chain waits for Step: ${JSON.stringify(await status())}`);
    assert((await verdict()).text === '' && !/kick|Stored/.test((await status()).text), `the ending is kept for the end: ${(await verdict()).text} / ${(await status()).text}`);
    let before = await shown();
    let steps = 0;
    for (; (await status()).state === 'waiting' && steps < 50; steps++) {
      await page.click('#steps-step');
      await waitFor(['waiting', 'done']);
      const now = await shown();
      const changed = now.split(',').filter((x, i) => x !== before.split(',')[i]).length;
      assert(changed === 1, `step ${steps + 1} changed ${changed} slots`);
      // the numbered path: one line per move so far, a kick with the XOR to the evicted fingerprint's other bucket
      const trail = await page.$$eval('#steps-trail li:not(.end)', (lis) => lis.map((li) => ({ n: li.value, ...li.dataset, text: li.textContent })));
      assert(trail.length === steps + 1 && trail.every((li, i) => li.n === i + 1), `the trail after step ${steps + 1}: ${JSON.stringify(trail)}`);
      const last = trail.at(-1);
      if (last.next !== undefined) {
        assert(last.text.includes(`= ${last.bucket} ⊕ ${last.xor} = ${last.next}`) && (Number(last.bucket) ^ Number(last.xor)) === Number(last.next), `move ${steps + 1}'s XOR: ${last.text}`);
      }
      if ((await status()).state === 'waiting') assert((await verdict()).text === '', `a verdict before the end of the chain: ${(await verdict()).text}`);
      before = now;
      if (steps === 1 && prefix === '') await shotOf(page, 'steps-kick', '#steps');
    }
    const ok = f.add(key);
    const s = await status();
    assert(ok && s.state === 'done' && steps === s.moves && s.moves >= 2, `${steps} steps, status ${JSON.stringify(s)}`);
    assert(await shown() === tableText(f), `after the chain: shown ${await shown()}, filter ${tableText(f)}`);
    assert(await page.getAttribute('#steps-canvas', 'data-match') === 'true', 'replay = filter');
    assert((await verdict()).state === 'kicked' && (await verdict()).text.includes(`${s.moves - 1} kick`), `verdict ${JSON.stringify(await verdict())}`);
    // remove a key that was added
    await page.fill('#steps-key', 'alice');
    await page.click('#steps-remove');
    f.remove('alice');
    // the figure is drawn from the next animation frame on: wait for it (a busy machine may not have painted yet)
    await page.waitForFunction(() => document.getElementById('steps-canvas').dataset.animating !== 'true');
    assert((await verdict()).state === 'removed' && await shown() === tableText(f), `remove alice: ${JSON.stringify(await verdict())}, shown ${await shown()}, filter ${tableText(f)}`);

    // the duplicate limit: 2b + 1 = 9 copies on an empty table
    for (const expansion of [0, 1]) {
      await page.selectOption('#steps-expansion', String(expansion));
      f.free();
      f = twin(expansion, []);
      await page.fill('#steps-key', key);
      await page.click('#steps-dup');
      await waitFor(['waiting', 'done']);
      if ((await status()).state === 'waiting') await page.click('#steps-finish');
      await waitFor(['done']);
      let added = 0;
      for (let i = 0; i < 9; i++) added += f.add(key);
      const v = await verdict();
      assert(await shown() === tableText(f), `expansion ${expansion}: shown ${await shown()}, filter ${tableText(f)}`);
      assert(v.text.includes(`hold 4 copies of 0x${fingerprint.toString(16).padStart(2, '0')}`) && v.text.includes('2·b = 8'), `why: ${v.text}`);
      if (expansion === 0) {
        assert(added === 8 && v.state === 'full' && /FULL/.test(v.text), `expansion 0: ${added} added, verdict ${JSON.stringify(v)}`);
      } else {
        assert(added === 9 && f.info().filters === 2 && v.state === 'grew' && v.text.includes('new sub-filter 1') && v.text.includes('32 B → 64 B'), `expansion 1: ${added} added, verdict ${JSON.stringify(v)}`);
      }
      await shotOf(page, `${prefix}steps-dup-x${expansion}`, '#steps');
    }
    await page.selectOption('#steps-expansion', '0');
  } finally {
    f.free();
  }
}

/** Bucket counts of a cuckoo filter's sub-filters, read from its bytes (docs/FORMAT.md, kind 5). */
function subFilterBuckets(bytes) {
  const v = new DataView(bytes, 20);
  const out = [];
  for (let s = v.getUint32(48, true), at = 52; s > 0; s--) {
    out.push(Number(v.getBigUint64(at, true)));
    at += 16 + Number(v.getBigUint64(at + 8, true));
  }
  return out;
}

/**
 * A cuckoo filter in the builder grows while random keys go in: the growth is announced with the
 * bytes before and after, and the map draws each sub-filter under its label (as many as the
 * filter's bytes say, of the same sizes).
 */
async function checkCuckooGrowth(page, prefix) {
  if (await page.inputValue('#filter-kind') !== 'cuckoo') await page.selectOption('#filter-kind', 'cuckoo');
  await page.fill('#opt-capacity', '1000');
  await page.fill('#opt-expansion', '1');
  await page.click('#filter-create');
  const info = async () => JSON.parse(await page.textContent('#stat-info'));
  const before = await info();
  assert(before.filters === 1 && before.size === 0, `a new filter: ${JSON.stringify(before)}`);
  for (let i = 0; i < 12 && (await info()).filters === 1; i++) {
    assert(await page.isHidden('#key-grew'), 'no growth, no announcement');
    await page.fill('#fill-count', '250');
    await page.click('#fill-btn');
  }
  const after = await info();
  assert(after.filters === 2, `the filter did not grow: ${JSON.stringify(after)}`);
  const g = await page.$eval('#key-grew', (el) => ({ hidden: el.hidden, text: el.textContent, ...el.dataset }));
  assert(!g.hidden && g.text.startsWith('grew: new sub-filter 1 of 512 buckets, 3 KiB → 6 KiB'), `announcement: ${JSON.stringify(g)}`);
  assert(Number(g.bytesFrom) === before.byteLength && Number(g.bytesTo) === after.byteLength, `bytes ${g.bytesFrom} → ${g.bytesTo}`);
  // the same options in Node, grown once: the sub-filters its bytes hold are the ones drawn
  const twin = new lib.CuckooFilter({ capacity: 1000, errorRate: 0.01, bucketSize: 4, maxIterations: 500, expansion: 1 });
  for (let i = 0; twin.info().filters < 2; i++) twin.add(`twin-${i}`);
  const subs = subFilterBuckets(twin.serialize());
  twin.free();
  const legend = await page.$eval('#canvas-legend', (el) => ({ ...el.dataset, text: el.textContent }));
  assert(legend.subfilters === subs.join(' '), `sub-filters drawn ${legend.subfilters}, the filter's bytes ${subs}`);
  const tops = legend.regionTops.split(' ').map(Number);
  assert(tops.length === 2 && tops[0] < tops[1] && tops[1] < Number(legend.mapBottom), `regions at ${tops}, map ends at ${legend.mapBottom}`);
  assert(/2 sub-filters, each under its label/.test(legend.text), `legend: ${legend.text}`);
  await shotOf(page, `${prefix}builder-cuckoo-grew`, '#builder');
  await page.click('#key-check');
  assert(await page.isHidden('#key-grew'), 'the announcement goes with the next operation');
}

/**
 * Worker mode's big check of `count` URLs, on the main thread and then in the worker (a filter
 * must have been sent): the same answers on both sides (and `want`, a Node twin's count, when
 * given), the main thread stalls while the worker keeps the page painting.
 */
async function checkBigCheck(page, count, want, prefix) {
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
  assert(worker.stall < 100 && worker.frames >= 2, `the page should keep painting while the worker checks: ${JSON.stringify(side)}`);
  assert(/same number of listed URLs/.test(await page.textContent('#worker-big-status')), `status: ${await page.textContent('#worker-big-status')}`);
  await shotOf(page, `${prefix}worker-big`, '#worker');
}

/**
 * Step by step, removing a key never added: the page finds one that looks present, warns before
 * removing it (naming the added keys it would break, as the library on a copy in Node says),
 * changes nothing until "Remove anyway", then names the keys that now read absent; one of them
 * checks as a false negative.
 */
async function checkFalseDeletion(page, prefix) {
  const settle = () => page.waitForFunction(() => document.getElementById('steps-canvas').dataset.animating !== 'true');
  const verdict = () => page.$eval('#steps-verdict', (el) => ({ ...el.dataset, text: el.textContent }));
  const shown = () => page.getAttribute('#steps-canvas', 'data-shown');
  await page.selectOption('#steps-expansion', '0');
  await page.click('#steps-reset');
  const f = new lib.CuckooFilter(stepsOptions(0));
  try {
    for (const k of STEPS_SEED_KEYS) assert(f.add(k), `seed ${k}`);
    await page.click('#steps-stranger');
    await settle();
    const key = await page.inputValue('#steps-key');
    assert(!STEPS_SEED_KEYS.includes(key) && f.has(key) && (await verdict()).state === 'false-positive', `stranger ${key}: ${JSON.stringify(await verdict())}`);
    const copy = lib.CuckooFilter.deserialize(f.serialize());
    copy.remove(key);
    const wouldBreak = STEPS_SEED_KEYS.filter((k) => f.has(k) && !copy.has(k));
    copy.free();
    assert(wouldBreak.length > 0, `removing ${key} breaks no key`);
    // before: a warning that names them, and nothing removed yet
    await page.click('#steps-remove');
    await settle();
    let v = await verdict();
    assert(v.state === 'warn' && v.wouldBreak === wouldBreak.join(' ') && wouldBreak.every((k) => v.text.includes(`“${k}”`)), `warning: ${JSON.stringify(v)}`);
    assert(await shown() === tableText(f), 'nothing is removed before Remove anyway');
    assert(await page.isVisible('#steps-remove-anyway'), 'Remove anyway is offered');
    await shotOf(page, `${prefix}steps-remove-warn`, '#steps');
    // after: the keys that now read absent, as in Node
    await page.click('#steps-remove-anyway');
    await settle();
    assert(f.remove(key), `remove ${key} in Node`);
    v = await verdict();
    const broken = STEPS_SEED_KEYS.filter((k) => !f.has(k));
    assert(v.state === 'removed-unknown' && v.broken === broken.join(' ') && v.broken === wouldBreak.join(' '), `after: ${JSON.stringify(v)}, Node: ${broken}`);
    assert(await shown() === tableText(f), `after: shown ${await shown()}, filter ${tableText(f)}`);
    assert(await page.isHidden('#steps-confirm'), 'the confirmation is gone');
    await shotOf(page, `${prefix}steps-remove-broke`, '#steps');
    await page.fill('#steps-key', broken[0]);
    await page.click('#steps-check');
    await settle();
    assert((await verdict()).state === 'false-negative' && !f.has(broken[0]), `${broken[0]} after: ${JSON.stringify(await verdict())}`);
  } finally {
    f.free();
  }
}

/**
 * Inputs on `page` whose placeholder does not fit: the placeholder's width in the input's own font
 * against the input's content box. Returns "id: text (needs N px, has M px)" for each.
 */
function placeholdersCut(page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const el of document.querySelectorAll('input[placeholder]')) {
      if (!el.placeholder || el.offsetParent === null) continue;
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const need = ctx.measureText(el.placeholder).width;
      const has = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (need > has + 0.5) out.push(`${el.id}: "${el.placeholder}" (needs ${need.toFixed(0)} px, has ${has.toFixed(0)} px)`);
    }
    return out;
  });
}

/**
 * The space chart on `page`: the labels of the two theoretical curves must overlap no marker (by
 * the chart's own geometry, and by its pixels: no marker colour inside a label's box), each other,
 * or the plot's edges. Returns what is wrong, as text.
 */
async function spaceLabelTrouble(page) {
  return page.$eval('#space-chart', (c) => {
    const parse = (s) => (s ? s.split(';').map((t) => t.split(' ').map(Number)) : []);
    const boxes = parse(c.dataset.labelBoxes);
    const markers = parse(c.dataset.markers);
    const [px, py, pw, ph] = c.dataset.plot.split(' ').map(Number);
    const out = [];
    if (boxes.length !== 2) out.push(`${boxes.length} label boxes`);
    const dpr = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    boxes.forEach(([x, y, w, h], i) => {
      if (x < px - 0.5 || y < py - 0.5 || x + w > px + pw + 0.5 || y + h > py + ph + 0.5) out.push(`label ${i} [${x} ${y} ${w} ${h}] leaves the plot [${px} ${py} ${pw} ${ph}]`);
      for (const [mx, my, r] of markers) {
        if (mx + r > x && mx - r < x + w && my + r > y && my - r < y + h) out.push(`label ${i} [${x} ${y} ${w} ${h}] covers the marker at ${mx},${my}`);
      }
      boxes.forEach(([x2, y2, w2, h2], j) => {
        if (j > i && x2 < x + w && x2 + w2 > x && y2 < y + h && y2 + h2 > y) out.push(`labels ${i} and ${j} overlap`);
      });
      // pixels: a saturated colour (a marker) inside the box
      let coloured = 0;
      for (let yy = Math.ceil(y * dpr); yy < Math.floor((y + h) * dpr); yy++) {
        for (let xx = Math.ceil(x * dpr); xx < Math.floor((x + w) * dpr); xx++) {
          const k = (yy * c.width + xx) * 4;
          if (Math.max(d[k], d[k + 1], d[k + 2]) - Math.min(d[k], d[k + 1], d[k + 2]) > 90) coloured++;
        }
      }
      if (coloured > 0) out.push(`label ${i}: ${coloured} marker-coloured pixels inside its box`);
    });
    return out;
  });
}

/** What the page holds in a figure of cuckoo slots (data-shown): the same text from a real filter. */
const tableText = (filter) => readCuckooTables(filter).subs.map((s) => s.slots.join(',')).join('|');

/**
 * The first figure ("See it work") on `page`: what it draws is what twin filters built in Node
 * hold, verdicts are the library's answers, a miss shows a clear bit / both buckets, an add that
 * kicks plays its chain and ends on the filter's table, and it all works from the keyboard.
 * Returns the Node twins' keys. `shots`: file-name prefix for screenshots.
 */
async function checkTinyFigure(page, prefix) {
  const bloom = new lib.BloomFilter(TINY_BLOOM);
  const cuckoo = new lib.CuckooFilter(TINY_CUCKOO);
  try {
    for (const k of TINY_SEED_KEYS) { bloom.add(k); cuckoo.add(k); }
    const bits = () => Array.from(bloom.fillMap(64), (x) => (x > 0 ? 1 : 0)).join('');
    const attr = (sel, name) => page.getAttribute(sel, name);
    const settled = () => page.waitForFunction(() => ['tiny-bloom', 'tiny-cuckoo'].every((id) => document.getElementById(id).dataset.animating !== 'true')
      && document.getElementById('tiny-cuckoo-status').dataset.state !== 'playing');
    const same = async (what) => {
      await settled();
      assert(await attr('#tiny-bloom', 'data-bits') === bits(), `${what}: Bloom bits shown ${await attr('#tiny-bloom', 'data-bits')}, filter ${bits()}`);
      assert(await attr('#tiny-cuckoo', 'data-shown') === tableText(cuckoo), `${what}: cuckoo table shown ${await attr('#tiny-cuckoo', 'data-shown')}, filter ${tableText(cuckoo)}`);
    };
    // text alternatives and live regions
    for (const id of ['tiny-bloom', 'tiny-cuckoo']) {
      assert(await attr(`#${id}`, 'role') === 'img', `#${id} role`);
      assert(await attr(`#${id}-verdict`, 'aria-live') === 'polite', `#${id}-verdict is not a live region`);
    }
    await same('on arrival');
    assert(/Bloom filter of 64 bits.*Bits set \(\d+\)/.test(await attr('#tiny-bloom', 'aria-label')), `Bloom aria-label: ${await attr('#tiny-bloom', 'aria-label')}`);
    assert(/bucket 0: .*bucket 7: /.test(await attr('#tiny-cuckoo', 'aria-label')), `cuckoo aria-label: ${await attr('#tiny-cuckoo', 'aria-label')}`);
    assert((await attr('#tiny-cuckoo', 'aria-label')).includes('(alice)'), 'the cuckoo text alternative names the keys');

    // a check from the keyboard: Enter in the key field checks
    async function checkKey(key) {
      await page.fill('#tiny-key', key);
      await page.press('#tiny-key', 'Enter');
      await settled();
      const b = await page.$eval('#tiny-bloom-verdict', (el) => ({ state: el.dataset.state, proof: el.dataset.proof, text: el.textContent }));
      const c = await page.$eval('#tiny-cuckoo-verdict', (el) => ({ state: el.dataset.state, text: el.textContent }));
      const added = TINY_SEED_KEYS.includes(key);
      const want = (has) => (!has ? 'absent' : added ? 'present' : 'false-positive');
      assert(b.state === want(bloom.has(key)), `Bloom check ${key}: page ${b.state}, library has() ${bloom.has(key)}`);
      assert(c.state === want(cuckoo.has(key)), `cuckoo check ${key}: page ${c.state}, library has() ${cuckoo.has(key)}`);
      const positions = Array.from(bloom.positions(key));
      if (b.state === 'absent') {
        const p = Number(b.proof);
        assert(positions.includes(p) && bits()[p] === '0', `proof bit ${b.proof} of ${positions} (bits ${bits()})`);
        assert(b.text.includes(`bit ${p} is 0`), `Bloom verdict: ${b.text}`);
      }
      const { fingerprint, buckets: [[i1, i2]] } = cuckoo.locate(key);
      assert(c.text.includes(`0x${fingerprint.toString(16).padStart(2, '0')}`), `cuckoo verdict names the fingerprint: ${c.text}`);
      if (c.state === 'absent') assert(c.text.includes(`buckets ${i1} and ${i2}`), `cuckoo verdict names both buckets: ${c.text}`);
      const how = await page.textContent('#tiny-cuckoo-how');
      assert(how.includes(`i1 = hash mod 8 = ${i1}`) && how.includes(`= ${i2}.`), `derivation: ${how}`);
      return { b, c };
    }
    const eve = await checkKey('eve');
    assert(eve.b.state === 'absent' && eve.c.state === 'absent', 'eve (never added) is absent from both');
    await page.evaluate(() => document.getElementById('tiny-key').blur());
    await shotOf(page, `${prefix}tiny`, '#tiny');
    assert((await checkKey('alice')).b.state === 'present', 'alice (a seed key) is present');

    // Tab from the key field reaches Check, then Add; Enter on Add adds
    await page.fill('#tiny-key', 'frank');
    await page.focus('#tiny-key');
    await page.keyboard.press('Tab');
    assert(await page.evaluate(() => document.activeElement.id) === 'tiny-check', 'Tab → Check');
    await page.keyboard.press('Tab');
    assert(await page.evaluate(() => document.activeElement.id) === 'tiny-add', 'Tab → Add');
    await page.keyboard.press('Enter');
    bloom.add('frank'); cuckoo.add('frank');
    await same('after adding frank from the keyboard');
    assert(await page.$eval('#tiny-bloom-verdict', (el) => el.dataset.state) === 'added', 'Bloom verdict after add');

    // add keys until the cuckoo filter kicks: the chain is played and ends on the real table
    let kicked = null;
    for (let i = 0; i < 40 && !kicked; i++) {
      const key = `k${i}`;
      await page.fill('#tiny-key', key);
      await page.click('#tiny-add');
      bloom.add(key);
      const ok = cuckoo.add(key);
      let state = await page.$eval('#tiny-cuckoo-verdict', (el) => el.dataset.state);
      // a chain keeps its ending for the end: nothing is said until the last move has played
      const chain = state === 'playing';
      if (chain) {
        assert(await page.textContent('#tiny-cuckoo-verdict') === '', 'no verdict while the chain plays');
        if (prefix === '') {
          await page.waitForFunction(() => /^Move 1:/.test(document.getElementById('tiny-cuckoo-status').textContent));
          await shotOf(page, 'tiny-kick', '#tiny');
        }
        await settled();
        state = await page.$eval('#tiny-cuckoo-verdict', (el) => el.dataset.state);
      }
      assert(ok ? ['added', 'kicked'].includes(state) : state === 'full', `add ${key}: page ${state}, library ${ok}`);
      assert(!chain || state !== 'added', `add ${key}: played as a chain, yet ${state}`);
      if (state === 'kicked') {
        kicked = key;
        await same(`after the kick chain of ${key}`);
        assert(await attr('#tiny-cuckoo', 'data-match') === 'true', 'the replayed chain ends on the filter\'s table');
        assert(/kicks?, then a free slot/.test(await page.textContent('#tiny-cuckoo-status')), `status: ${await page.textContent('#tiny-cuckoo-status')}`);
      }
    }
    assert(kicked, 'no add kicked within 40 keys');
    await same('after the adds');
    await page.click('#tiny-reset');
    await page.waitForFunction(() => document.getElementById('tiny-bloom-verdict').dataset.state === '');
  } finally {
    bloom.free();
    cuckoo.free();
  }
}

const started = Date.now();

await init();
const runner = makeRunner();
// every check also prints how long it took (the whole run must stay well under a minute)
// E2E_ONLY=<regex>: run only the checks whose names match (for checks that set up their own
// state; most of the walk-through depends on the checks before it)
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
const t = {
  check: (name, fn) => (only && !only.test(name) ? undefined : runner.check(name, async () => {
    const t0 = Date.now();
    try { await fn(); } finally { if (process.env.E2E_TIMING) console.log(`       ${name}: ${Date.now() - t0} ms`); }
  })),
  summary: () => runner.summary(),
};
const server = await buildAndServe(demoRoot);
const browser = await launchBrowser();
console.log(`  (filter classes in this build: ${KINDS.join(', ')}; built and served in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
try {
  const page = await browser.context.newPage();
  const errors = watchConsole(page);
  await page.goto(server.url);
  await page.waitForSelector('#status:text("ready")', { timeout: 20000 });

  const text = (id) => page.textContent(`#${id}`);
  const data = (id, key) => page.$eval(`#${id}`, (el, k) => el.dataset[k] ?? '', key);
  const value = async (id) => {
    const v = await data(id, 'value');
    assert(v !== '', `#${id} has no value (shows "${await text(id)}")`);
    return Number(v);
  };
  // page.fill types multi-line text slowly (seconds for 1000 lines): set the value and fire input
  const setText = (id, value) => page.$eval(`#${id}`, (el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
  const visibleError = (id) => page.$eval(`#${id}`, (el) => (el.hidden ? '' : el.textContent));
  const visibleText = visibleError;
  const shot = (name, selector) => shotOf(page, name, selector);

  async function selectKind(kind) {
    await page.selectOption('#filter-kind', kind);
    await page.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created');
  }
  async function createWith(kind, options) {
    if (await page.inputValue('#filter-kind') !== kind) await selectKind(kind);
    for (const [k, v] of Object.entries(options)) {
      if (await page.$eval(`#opt-${k}`, (el) => el.tagName) === 'SELECT') await page.selectOption(`#opt-${k}`, v);
      else await page.fill(`#opt-${k}`, v);
    }
    await page.click('#filter-create');
  }
  async function keyOp(op, key) {
    await page.fill('#key-input', key);
    await page.click(`#key-${op}`);
    return data('key-result', 'state');
  }
  async function fillRandom(n) {
    await page.fill('#fill-count', String(n));
    await page.click('#fill-btn');
  }

  await t.check('MurmurHash3 in the page matches the Node build', async () => {
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    const x86 = await text('hash-x86');
    const x64 = await text('hash-x64');
    const want64 = Array.from(murmur3.x64_128('geeky ogre', 42), (b) => b.toString(16).padStart(2, '0')).join('');
    assert(x86 === murmur3.x86_32('geeky ogre', 42).toString(16).padStart(8, '0'), `x86_32 shown ${x86}`);
    assert(x64 === want64, `x64_128 shown ${x64}`);
  });

  await t.check('MurmurHash3 in the page matches the vectors the native build is tested on', async () => {
    // tests/fixtures/murmur3_vectors.txt is what tests/cpp/murmur3_test.cc checks natively.
    const hex = (s) => Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('');
    const lines = readFileSync(new URL('../fixtures/murmur3_vectors.txt', import.meta.url), 'utf8').split('\n');
    const want = (algo) => lines.find((l) => l.startsWith(`${algo} 42 ${hex('geeky ogre')} `)).split(' ')[3];
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    assert(await text('hash-x86') === want('x86_32'), 'x86_32 differs from the native vector');
    assert(await text('hash-x64') === want('x64_128'), 'x64_128 differs from the native vector');
  });

  await t.check('MurmurHash3 x64_128: the page labels its byte order, and its h1 h2 words are what murmurhash3js-revisited prints', async () => {
    for (const [key, seed] of [['geeky ogre', 42], ['naïve café ☕', 7], ['', 0]]) {
      await page.fill('#hash-input', key);
      await page.fill('#hash-seed', String(seed));
      const bytes = await text('hash-x64');
      const words = await text('hash-x64-words');
      // the claim the page makes: h1 then h2, each 64-bit word little-endian in the bytes
      const swap = (h) => h.match(/../g).reverse().join('');
      assert(words === `${swap(bytes.slice(0, 16))} ${swap(bytes.slice(16))}`, `${key}: words ${words}, bytes ${bytes}`);
      // and what the common JS package prints for the same UTF-8 bytes and seed
      const theirs = murmurhash3js.x64.hash128(new TextEncoder().encode(key), seed);
      assert(words.replace(' ', '') === theirs, `${key}: page ${words}, murmurhash3js-revisited ${theirs}`);
    }
    const labels = await text('hash');
    assert(/h1 then h2/.test(labels) && /little-endian/.test(labels) && /big-endian/.test(labels) && /murmurhash3js-revisited/.test(labels), `labels: ${labels}`);
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    await shot('hash', '#hash');
  });

  await t.check('see it work: the tiny Bloom and cuckoo filters draw what they hold, answer as the library, play a kick chain, from the keyboard', async () => {
    await checkTinyFigure(page, '');
  });

  await t.check('cuckoo step by step: Step plays one move at a time and ends on the filter\'s table; the 9th copy of a key is FULL (expansion 0) or grows (1)', async () => {
    await checkCuckooSteps(page, '');
  });

  await t.check('cuckoo step by step: removing a key never added warns first (naming the keys it would break), then shows which added keys now read absent', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      await checkFalseDeletion(page, '');
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });

  await t.check('every class as it really is: counting counters (saturating at 15), blocked words, scalable layers, fuse segments and XOR are the filter\'s; verdicts are has()', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      await checkZoo(page, lib, (name) => shot(name, '#zoo'));
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });

  await t.check('the page offers every filter class the library exports', async () => {
    const offered = await page.$$eval('#filter-kind option', (os) => os.map((o) => o.value));
    assert(JSON.stringify(offered.sort()) === JSON.stringify([...KINDS].sort()), `offered ${offered}, exported ${KINDS}`);
    assert(await page.getAttribute('body', 'data-kinds') === KINDS.join(' '), 'body data-kinds');
  });

  await t.check('every input placeholder fits its field, for every filter class\'s options, at 1280 and 390 px', async () => {
    const phone = await browser.context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(server.url);
      await phone.waitForSelector('#status:text("ready")', { timeout: 20000 });
      const cut = [];
      for (const [p, width] of [[page, 1280], [phone, 390]]) {
        for (const kind of KINDS) {
          await p.selectOption('#filter-kind', kind);
          await p.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created');
          for (const c of await placeholdersCut(p)) cut.push(`${width} px, ${kind}: ${c}`);
        }
      }
      await phone.selectOption('#filter-kind', 'bloom');
      await phone.locator('#builder').screenshot({ path: `${shots}phone-builder-placeholders.png` });
      await phone.locator('#transfer').screenshot({ path: `${shots}phone-transfer.png` });
      await phone.locator('#worker').screenshot({ path: `${shots}phone-worker.png` });
      assert(cut.length === 0, `placeholders cut off:\n      ${[...new Set(cut)].join('\n      ')}`);
    } finally {
      await phone.close();
      await page.selectOption('#filter-kind', 'bloom');
    }
    await shot('builder-placeholders', '#builder');
  });

  await t.check('Enter in an option field runs its section\'s primary action (create, add random, build, run, measure), keyboard only', async () => {
    const typeIn = async (id, v) => {
      await page.focus(`#${id}`);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(v);
    };
    // 4 · builder: capacity, Tab to error rate, Enter creates
    await selectKind('bloom');
    assert(await keyOp('add', 'alice@example.com') === 'added', 'add');
    await typeIn('opt-capacity', '2000');
    await page.keyboard.press('Tab');
    assert(await page.evaluate(() => document.activeElement.id) === 'opt-errorRate', 'Tab → error rate');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.02');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created', null, { timeout: 5000 });
    const info = JSON.parse(await page.textContent('#stat-info'));
    assert(info.capacity === 2000 && info.errorRate === 0.02 && info.size === 0, `Enter created ${JSON.stringify(info)}`);
    // every kind's fields: a text field and a select
    for (const [kind, field, v] of [['cuckoo', 'bucketSize', '2'], ['scalable', 'expansion', '4'], ['fuse', 'fingerprintBits', '16']]) {
      if (!KINDS.includes(kind)) continue;
      await selectKind(kind);
      if (kind !== 'fuse') assert(await keyOp('add', 'alice@example.com') === 'added', 'add');
      else { await page.fill('#key-input', 'alice@example.com'); await page.click('#key-add'); }
      await page.evaluate(() => { document.getElementById('key-result').dataset.state = ''; });
      await typeIn(`opt-${field}`, v);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created', null, { timeout: 5000 });
      const i = JSON.parse(await page.textContent('#stat-info'));
      assert(String(i[field]) === v, `${kind}: Enter in ${field} created ${JSON.stringify(i)}`);
    }
    if (KINDS.includes('scalable')) {
      await selectKind('scalable');
      await page.focus('#opt-nonScaling');
      await page.evaluate(() => { document.getElementById('key-result').dataset.state = ''; });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created', null, { timeout: 5000 });
    }
    await selectKind('bloom');
    // Add N random keys
    await typeIn('fill-count', '300');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('stat-items').dataset.value === '300', null, { timeout: 5000 });
    // 7 · blacklist: Enter in the error rate builds
    await setText('bl-text', 'https://a.example/\nhttps://b.example/\nhttps://c.example/');
    await page.evaluate(() => { delete document.getElementById('bl-status').dataset.items; });
    await typeIn('bl-error-rate', '0.01');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('bl-status').dataset.items === '3', null, { timeout: 5000 });
    // 5 · experiment: Enter in any of its fields runs it
    const [n, m] = [await page.inputValue('#exp-n'), await page.inputValue('#exp-m')];
    await page.fill('#exp-n', '2000');
    await page.fill('#exp-m', '2000');
    await page.evaluate(() => { delete document.getElementById('exp-status').dataset.state; });
    await typeIn('exp-steps', '5');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('exp-status').dataset.state), null, { timeout: 20000 });
    assert(await data('exp-status', 'state') === 'done', `experiment: ${await visibleError('exp-error')}`);
    await page.fill('#exp-n', n);
    await page.fill('#exp-m', m);
    await page.fill('#exp-steps', '20');
    // 6 · space against error: Enter measures
    await page.fill('#space-m', '5000');
    await page.evaluate(() => { delete document.getElementById('space-status').dataset.state; });
    await typeIn('space-n', '2000');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('space-status').dataset.state), null, { timeout: 30000 });
    assert(await data('space-status', 'state') === 'done', `space: ${await visibleError('space-error')}`);
  });

  await t.check('bits / key: "—" until a filter holds 10 % of what it is sized for, the figure at capacity always, sensibly formatted', async () => {
    const cell = () => page.$eval('#stat-bpk', (el) => ({ text: el.textContent, value: el.dataset.value, how: el.parentElement.querySelector('#stat-bpk-how')?.textContent ?? '' }));
    const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2));
    for (const kind of ['bloom', 'counting', 'cuckoo', 'fuse'].filter((k) => KINDS.includes(k))) {
      await selectKind(kind);
      await page.fill('#key-input', 'alice@example.com');
      await page.click('#key-add');
      const bytes = await value('stat-bytes');
      let c = await cell();
      if (kind === 'fuse') {
        // built for exactly its keys: the figure is the filter's own, from the first key
        assert(c.text === fmt(bytes * 8) && Number(c.value) === bytes * 8, `fuse, 1 key: ${JSON.stringify(c)}`);
        assert(/built for these keys/.test(c.how), `fuse how: ${JSON.stringify(c)}`);
        continue;
      }
      const atCapacity = (bytes * 8) / 1000;
      assert(c.text.startsWith('—') && c.value === undefined, `${kind}, 1 key: shows ${JSON.stringify(c)} (${bytes * 8} bits for one key)`);
      assert(c.how.includes(`${fmt(atCapacity)} at capacity (1,000 keys)`), `${kind}: how ${JSON.stringify(c)}, want ${fmt(atCapacity)} at capacity`);
      if (kind === 'cuckoo') await shot('builder-bpk-one-key', '#stats');
      await fillRandom(98);
      assert((await cell()).text.startsWith('—'), `${kind}, 99 keys: ${JSON.stringify(await cell())}`);
      await fillRandom(1);
      assert(await text('key-result') === '1 random key added', `Last: "${await text('key-result')}"`);
      c = await cell();
      const v = (bytes * 8) / 100;
      assert(c.text === fmt(v) && Math.abs(Number(c.value) - v) < 1e-9, `${kind}, 100 keys: ${JSON.stringify(c)}, want ${fmt(v)}`);
      if (kind === 'bloom') await shot('builder-bpk', '#builder');
    }
    await selectKind('bloom');
  });

  await t.check('a bad error rate ("abc", "0", "1.5", "", ...) gets a message naming the allowed range, in the builder and the blacklist', async () => {
    const bad = ['abc', '0', '1.5', '', '-0.01', '1', 'NaN', '1 %'];
    const clear = (msg, v, where) => {
      assert(/strictly between 0 and 1/.test(msg) && /error ?rate/i.test(msg), `${where} "${v}": "${msg}" does not name the range`);
      assert(!/\bNaN\b|undefined/.test(msg.replace(/"NaN"/, '')), `${where} "${v}": "${msg}"`);
      assert(v.trim() === '' ? /empty/.test(msg) : msg.includes(`"${v}"`), `${where} "${v}": "${msg}" does not quote what was typed`);
    };
    for (const kind of ['bloom', 'blocked', 'counting', 'scalable', 'cuckoo'].filter((k) => KINDS.includes(k))) {
      for (const v of kind === 'bloom' ? bad : ['abc', '', '1.5']) {   // every class reads the field the same way
        if (kind === 'cuckoo' && v === '') continue;   // a cuckoo filter's default: 1 %
        await createWith(kind, { capacity: '1000', errorRate: v });
        const msg = await visibleError('builder-error');
        clear(msg, v, kind);
        assert(await data('builder-error', 'code') === 'INVALID_ARGUMENT', `${kind} "${v}": code ${await data('builder-error', 'code')}`);
        if (kind === 'bloom' && v === 'abc') await shot('bad-error-rate', '#builder');
      }
      await createWith(kind, { capacity: '1000', errorRate: '0.01' });
      assert(await visibleError('builder-error') === '', `${kind}: a good error rate clears the message`);
    }
    await setText('bl-text', 'https://a.example/\nhttps://b.example/');
    for (const blKind of ['bloom', 'fuse'].filter((k) => KINDS.includes(k))) {
      await page.selectOption('#bl-kind', blKind);
      for (const v of blKind === 'bloom' ? bad : ['abc', '']) {
        await page.fill('#bl-error-rate', v);
        await page.click('#bl-build');
        await page.waitForFunction(() => !document.getElementById('bl-error').hidden);
        clear(await visibleError('bl-error'), v, `blacklist ${blKind}`);
        if (v === 'abc' && blKind === 'bloom') await shot('bad-error-rate-blacklist', '#blacklist');
      }
    }
    await page.selectOption('#bl-kind', 'bloom');
    await page.fill('#bl-error-rate', '0.001');
    await selectKind('bloom');
  });

  // ---- section 1: every class, add / check / remove / stats / canvas --------------------------
  for (const kind of KINDS) {
    await t.check(`${kind}: add, check${REMOVABLE.has(kind) ? ', remove' : ''}, live stats, canvas`, async () => {
      await selectKind(kind);
      assert(await visibleError('builder-error') === '', `error after create: ${await visibleError('builder-error')}`);
      assert(await value('stat-items') === 0, 'a new filter holds 0 items');
      assert(await keyOp('add', 'alice@example.com') === 'added', `add → ${await text('key-result')}`);
      assert(await value('stat-items') === 1, `items after one add: ${await text('stat-items')}`);
      assert(await keyOp('check', 'alice@example.com') === 'present', 'the key added is found');
      assert(await keyOp('check', 'mallory-was-never-added') === 'absent', 'a key never added is absent');
      if (REMOVABLE.has(kind)) {
        assert(await keyOp('remove', 'alice@example.com') === 'removed', `remove → ${await text('key-result')}`);
        assert(await value('stat-items') === 0, 'items after remove');
        assert(await keyOp('check', 'alice@example.com') === 'absent', 'a removed key is absent');
        assert(await keyOp('remove', 'alice@example.com') === 'not-found', 'removing it again finds nothing');
        assert(await keyOp('add', 'alice@example.com') === 'added', 're-add');
      } else {
        assert(await page.isDisabled('#key-remove'), 'remove is disabled for a filter without removal');
      }
      // where the key landed: compare with the library in Node (same options, same default seed)
      const Cls = lib[CLASS_OF[kind]];
      const probe = kind === 'fuse' ? Cls.build(['alice@example.com']) : new Cls({ capacity: 1000, errorRate: 0.01 });
      assert(await keyOp('check', 'alice@example.com') === 'present', 'check alice again');
      const touched = await text('key-touched');
      if (typeof probe.positions === 'function') {
        const want = Array.from(probe.positions('alice@example.com'), (p) => p.toLocaleString('en-US')).join(', ');
        assert(touched.includes(want), `touched "${touched}" lacks positions ${want}`);
      } else if (typeof probe.locate === 'function') {
        const { fingerprint, buckets } = probe.locate('alice@example.com');
        assert(touched.includes(`(${fingerprint})`) && touched.includes(`buckets ${buckets[0][0].toLocaleString('en-US')} and ${buckets[0][1].toLocaleString('en-US')}`),
          `touched "${touched}" vs locate ${JSON.stringify({ fingerprint, buckets })}`);
      }

      await fillRandom(500);
      // the marks of the last single key are gone after a batch
      assert((await text('key-touched')).startsWith('—'), `touched after a batch: "${await text('key-touched')}"`);
      if (typeof Cls.prototype.fillMap === 'function') assert(await data('canvas-legend', 'marks') === '0', `marks after a batch: ${await data('canvas-legend', 'marks')}`);
      const items = await value('stat-items');
      // scalable add() skips keys that may already be present, so it may hold slightly fewer
      assert(kind === 'scalable' ? items >= 495 && items <= 501 : items === 501, `items after 500 random: ${items}`);
      const bytes = await value('stat-bytes');
      const bpk = await value('stat-bpk');
      assert(bytes > 0 && Math.abs(bpk - (bytes * 8) / items) < 0.01, `bits/key ${bpk} vs ${bytes} B / ${items}`);
      const theory = await value('stat-theory-fpr');
      const est = await value('stat-est-fpr');
      assert(theory >= 0 && theory <= 0.01, `theoretical FPR ${theory} at half capacity (target 1 %)`);
      assert(est >= 0 && est <= 0.02, `estimated FPR ${est}`);
      const fill = await value('stat-fill');
      assert(fill > 0 && fill < 1, `fill/load ${fill}`);
      assert(await keyOp('check', 'alice@example.com') === 'present', 'still found after 500 more keys');
      // the canvas: the set units it shows add up to what the stats say
      const mode = await data('canvas-legend', 'mode');
      if (typeof Cls.prototype.fillMap === 'function') {
        assert(mode === 'exact' || mode === 'density', `canvas mode ${mode}`);
        const shown = Number(await data('canvas-legend', 'setUnits'));
        const units = Number(await data('canvas-legend', 'units'));
        const info = JSON.parse(await page.textContent('#stat-info'));
        const want = kind === 'cuckoo' ? info.loadFactor * units : kind === 'counting' ? info.nonzeroCounters
          : info.setBits;
        const tolerance = mode === 'exact' ? 0.5 : 0.02 * want + 2;
        if (want !== undefined) assert(Math.abs(shown - want) <= tolerance, `canvas (${mode}) shows ${shown} set of ${units}, stats say ${want}`);
        if (typeof probe.positions === 'function' || typeof probe.locate === 'function') {
          assert(Number(await data('canvas-legend', 'marks')) > 0, 'the touched units are marked');
        }
      }
      probe.free();
      assert(await visibleError('builder-error') === '', `error: ${await visibleError('builder-error')}`);
      if (kind === 'fuse') {
        // static: no remove, and why; Create filter rebuilds from the same keys
        assert(/static/.test(await visibleText('key-note')) && /no add and no remove/.test(await visibleText('key-note')), `note: "${await visibleText('key-note')}"`);
        await page.fill('#opt-fingerprintBits', '16');
        await page.click('#filter-create');
        assert(await value('stat-items') === items, `Create filter kept ${await value('stat-items')} of ${items} keys`);
        assert((await text('key-result')).includes(`from the ${items.toLocaleString('en-US')} keys`), `result: ${await text('key-result')}`);
        assert(JSON.parse(await page.textContent('#stat-info')).fingerprintBits === 16, 'rebuilt with the new options');
        assert(await keyOp('check', 'alice@example.com') === 'present', 'alice survives Create filter');
      } else {
        assert(await visibleText('key-note') === '', 'no static note');
      }
      await shot(`builder-${kind}`, '#builder');
    });
  }

  if (typeof lib.BloomFilter.prototype.fillMap === 'function') {
    await t.check('a large filter is drawn as a density map that adds up to its set bits', async () => {
      await createWith('bloom', { capacity: '200000', errorRate: '0.01' });
      await fillRandom(100000);
      assert(await keyOp('add', 'alice@example.com') === 'added', 'add alice');
      assert(await data('canvas-legend', 'mode') === 'density', `mode ${await data('canvas-legend', 'mode')}`);
      const info = JSON.parse(await page.textContent('#stat-info'));
      const shown = Number(await data('canvas-legend', 'setUnits'));
      assert(Math.abs(shown - info.setBits) <= 0.01 * info.setBits, `density map shows ${shown} set bits, stats ${info.setBits}`);
      assert(Number(await data('canvas-legend', 'marks')) === info.hashes, 'one mark per probe');
      assert(/density map/.test(await text('canvas-legend')), 'legend explains the density map');
      await shot('builder-density', '#builder');
      await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
    });
  }

  if (typeof lib.CuckooFilter?.prototype.locate === 'function') {
    await t.check('a grown cuckoo filter shows the two buckets in every sub-filter', async () => {
      await selectKind('cuckoo');
      await createWith('cuckoo', { capacity: '64', expansion: '2' });
      assert(await keyOp('add', 'alice@example.com') === 'added', 'add alice');
      await fillRandom(400);
      assert(await visibleError('builder-error') === '', `error: ${await visibleError('builder-error')}`);
      assert(await keyOp('check', 'alice@example.com') === 'present', 'alice found after growth');
      const info = JSON.parse(await page.textContent('#stat-info'));
      assert(info.filters >= 2, `sub-filters: ${info.filters}`);
      const touched = await text('key-touched');
      assert(touched.includes(`sub-filter ${info.filters - 1}:`), `touched "${touched}"`);
      assert(Number(await data('canvas-legend', 'marks')) === 2 * info.filters, 'two buckets marked per sub-filter');
      // the fingerprint's label sits under the map, over no bucket
      const [, labelY] = (await data('canvas-legend', 'labelBox')).split(' ').map(Number);
      assert(labelY >= Number(await data('canvas-legend', 'mapBottom')), `label at y ${labelY}, map ends at ${await data('canvas-legend', 'mapBottom')}`);
      const shown = Number(await data('canvas-legend', 'setUnits'));
      const want = info.loadFactor * info.buckets * info.bucketSize;
      assert(Math.abs(shown - want) <= 0.02 * want + 2, `canvas shows ${shown} occupied slots, stats ${want}`);
      await shot('builder-cuckoo-grown', '#builder');
      await createWith('cuckoo', { capacity: '1000', expansion: '1' });
    });
  }

  if (KINDS.includes('cuckoo')) {
    await t.check('a growing cuckoo filter: the growth announced (3 KiB → 6 KiB), each sub-filter drawn under its label', async () => {
      await checkCuckooGrowth(page, '');
    });
  }

  await t.check('bad options show an error in the page', async () => {
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
    await fillRandom(40);
    await createWith('bloom', { capacity: '1000', errorRate: '2' });
    let msg = await visibleError('builder-error');
    assert(/errorRate/.test(msg) && /INVALID_ARGUMENT/.test(msg), `errorRate 2 → "${msg}"`);
    // the previous filter stays, and the page says its numbers are the old filter's
    assert(await data('key-result', 'state') === 'error' && /previous Bloom filter \(40 keys\) is kept/.test(await text('key-result')), `Last: "${await text('key-result')}"`);
    assert(/previous filter's numbers/.test(await visibleText('stats-note')), `stats note: "${await visibleText('stats-note')}"`);
    assert(await value('stat-items') === 40, 'the kept filter\'s stats');
    assert(await data('builder-error', 'code') === 'INVALID_ARGUMENT', 'data-code');
    await createWith('bloom', { capacity: 'lots', errorRate: '0.01' });
    msg = await visibleError('builder-error');
    assert(/capacity/.test(msg) && /lots/.test(msg), `capacity "lots" → "${msg}"`);
    await createWith('bloom', { capacity: '1000', errorRate: '0.01', bits: '4096', hashes: '3' });
    msg = await visibleError('builder-error');
    assert(/either/.test(msg), `capacity + bits → "${msg}"`);
    await shot('bad-options', '#builder');
    await createWith('bloom', { capacity: '1000', errorRate: '0.01', bits: '', hashes: '' });
    assert(await visibleError('builder-error') === '', 'valid options clear the error');
    assert(await visibleText('stats-note') === '' && await value('stat-items') === 0, 'a new filter: no note, fresh stats');
  });

  if (KINDS.includes('cuckoo')) {
    await t.check('a fixed-size cuckoo filter (expansion 0) driven to full shows FULL, loses nothing', async () => {
      await selectKind('cuckoo');
      await createWith('cuckoo', { capacity: '64', expansion: '0', maxIterations: '500' });
      assert(await keyOp('add', 'alice@example.com') === 'added', 'first add');
      await fillRandom(1000);
      const msg = await visibleError('builder-error');
      assert(/^FULL/.test(msg) && /expansion 0/.test(msg), `message "${msg}"`);
      assert(await data('key-result', 'state') === 'full', 'key result says full');
      const items = await value('stat-items');
      assert(items >= 64 && items < 1001, `items when full: ${items}`);
      await shot('cuckoo-full', '#builder');
      assert(await keyOp('check', 'alice@example.com') === 'present', 'a key stored before it filled is still found');
      await createWith('cuckoo', { capacity: '1000', expansion: '1' });
    });
  }

  if (KINDS.includes('scalable')) {
    await t.check('a non-scaling scalable Bloom filter at capacity shows FULL', async () => {
      await selectKind('scalable');
      await createWith('scalable', { capacity: '100', nonScaling: 'true' });
      await fillRandom(500);
      const msg = await visibleError('builder-error');
      assert(/^FULL/.test(msg), `message "${msg}"`);
      assert(await data('key-result', 'state') === 'full' && /FULL/.test(await text('key-result')), `Last: "${await text('key-result')}"`);
      await createWith('scalable', { capacity: '1000', nonScaling: 'false' });
    });
  }

  await t.check('builder: removing a key never added from a counting or cuckoo filter is checked first: certainly absent removes nothing, maybe present warns (naming the keys it would break) and waits for Remove anyway, then names the keys it broke', async () => {
    const cases = [
      // a tiny cuckoo filter with 8-bit fingerprints: a never-added key that shares a fingerprint
      // and a bucket with an added one is easy to find from Node, with the same wasm
      ['cuckoo', { capacity: '16', errorRate: '0.01', fingerprintBits: '8', bucketSize: '4', expansion: '0' }, { capacity: 16, errorRate: 0.01, fingerprintBits: 8, bucketSize: 4, expansion: 0 }],
      ['counting', { capacity: '4', errorRate: '0.2' }, { capacity: 4, errorRate: 0.2 }],
    ].filter(([kind]) => KINDS.includes(kind));
    for (const [kind, form, options] of cases) {
      const Cls = lib[CLASS_OF[kind]];
      await createWith(kind, form);
      const added = ['k1', 'k2', 'k3', 'k4'];
      for (const k of added) assert(await keyOp('add', k) === 'added', `${kind}: add ${k}`);
      const twin = new Cls(options);
      for (const k of added) twin.add(k);
      const wouldBreak = (g) => {
        const copy = Cls.deserialize(twin.serialize());
        copy.remove(g);
        const lost = added.filter((k) => !copy.has(k));
        copy.free();
        return lost;
      };
      let ghost = null;
      let absent = null;
      for (let i = 0; i < 200000 && ghost === null; i++) {
        const g = `ghost-${i}`;
        if (!twin.has(g)) { absent ??= g; continue; }
        if (wouldBreak(g).length) ghost = g;
      }
      assert(ghost !== null && absent !== null, `${kind}: found a never-added key that removes an added key's ${kind === 'cuckoo' ? 'fingerprint' : 'counters'}`);
      const lost = wouldBreak(ghost);
      const info = async () => JSON.parse(await page.textContent('#stat-info'));
      const before = await info();
      // certainly absent: nothing to remove, and nothing is removed
      assert(await keyOp('remove', absent) === 'not-found', `${kind}: remove ${absent}: ${await text('key-result')}`);
      assert(/certainly absent/.test(await text('key-result')) && /nothing removed/.test(await text('key-result')), `${kind}: "${await text('key-result')}"`);
      assert(JSON.stringify(await info()) === JSON.stringify(before), `${kind}: a certainly-absent key changed the filter`);
      assert(await page.isHidden('#key-confirm'), `${kind}: no confirmation for a key that is absent`);
      // maybe present: a warning first, naming the keys it would break, and nothing removed yet
      assert(await keyOp('remove', ghost) === 'warn', `${kind}: remove ${ghost}: ${await text('key-result')}`);
      let msg = await text('key-result');
      assert(/never added/.test(msg) && /maybe present/.test(msg) && lost.every((k) => msg.includes(`“${k}”`)), `${kind} warning: "${msg}" (Node: ${lost})`);
      assert(await data('key-result', 'wouldBreak') === lost.join(' '), `${kind}: data-would-break ${await data('key-result', 'wouldBreak')}, Node ${lost}`);
      assert(JSON.stringify(await info()) === JSON.stringify(before), `${kind}: the warning removed something`);
      assert(await page.isVisible('#key-remove-anyway') && (await text('key-remove-anyway')).includes(ghost), `${kind}: Remove anyway is offered for ${ghost}`);
      for (const k of added) assert(await keyOp('check', k) === 'present', `${kind}: ${k} before`);
      assert(await page.isHidden('#key-confirm'), `${kind}: another operation withdraws the confirmation`);
      // Keep it: nothing removed
      assert(await keyOp('remove', ghost) === 'warn', `${kind}: warn again`);
      // from the keyboard: Tab from Remove reaches the choice
      await page.focus('#key-remove');
      await page.keyboard.press('Tab');
      assert(await page.evaluate(() => document.activeElement.id) === 'key-remove-anyway', 'Tab → Remove anyway');
      await page.keyboard.press('Tab');
      assert(await page.evaluate(() => document.activeElement.id) === 'key-keep', 'Tab → Keep it');
      await page.keyboard.press('Enter');
      assert(await data('key-result', 'state') === 'kept' && JSON.stringify(await info()) === JSON.stringify(before), `${kind}: kept: ${await text('key-result')}`);
      // Remove anyway: the keys it broke are named, as Node says
      assert(await keyOp('remove', ghost) === 'warn', `${kind}: warn once more`);
      if (kind === 'cuckoo') await shot('builder-remove-warn', '#builder');
      await page.click('#key-remove-anyway');
      assert(twin.remove(ghost), `${kind}: remove ${ghost} in Node`);
      assert(await data('key-result', 'state') === 'removed-unknown', `${kind}: after Remove anyway: ${await text('key-result')}`);
      msg = await text('key-result');
      const broken = added.filter((k) => !twin.has(k));
      assert(/never added/.test(msg) && /now reads? as certainly absent/.test(msg) && broken.every((k) => msg.includes(k)), `${kind} message: "${msg}"`);
      assert(await data('key-result', 'broken') === broken.join(' ') && broken.join(' ') === lost.join(' '), `${kind}: broken ${await data('key-result', 'broken')}, Node ${broken}`);
      assert(await page.isHidden('#key-confirm'), `${kind}: the confirmation is gone`);
      if (kind === 'cuckoo') await shot('builder-false-deletion', '#builder');
      assert(await keyOp('check', broken[0]) === 'false-negative' && /false negative/.test(await text('key-result')), `${kind}: ${broken[0]} is a false negative now: ${await text('key-result')}`);
      twin.free();
    }
  });

  await t.check('scalable Bloom says why some random keys were not added', async () => {
    await createWith('scalable', { capacity: '100', errorRate: '0.1' });
    await fillRandom(2000);
    const msg = await text('key-result');
    assert(/of 2,000 random keys added/.test(msg) && /looked present/.test(msg), `message: "${msg}"`);
  });

  await t.check('a Bloom filter over its capacity says so, in the stats, in colour', async () => {
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
    await page.waitForFunction(() => document.getElementById('stat-capacity').dataset.value === '1000');
    assert(await page.$eval('#stats', (el) => !el.classList.contains('over')), 'a fresh filter is not over capacity');
    await fillRandom(1500);
    await page.waitForFunction(() => Number(document.getElementById('stat-items').dataset.value) >= 1400);
    assert(await page.$eval('#stats', (el) => el.classList.contains('over')), 'over capacity is marked');
    const note = await text('stat-capacity');
    assert(/over capacity/.test(note) && /1,000/.test(note), `capacity cell: "${note}"`);
    const color = await page.$eval('#stat-est-fpr', (el) => getComputedStyle(el).color);
    assert(color !== 'rgb(29, 35, 48)', `the estimated FPR is coloured when over capacity (${color})`);
    await shot('builder-over-capacity', '#builder');
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
  });

  await t.check('a fixed cuckoo filter past its capacity is flagged only when its rate leaves the target', async () => {
    const cuckooRate = () => page.$eval('#stat-info', (el) => JSON.parse(el.textContent));
    for (const [bits, over] of [['12', false], ['8', true]]) {
      await createWith('cuckoo', { capacity: '64', errorRate: '0.01', fingerprintBits: bits, bucketSize: '4', expansion: '0' });
      await page.waitForFunction(() => document.getElementById('stat-capacity').dataset.value === '64' && document.getElementById('stat-items').dataset.value === '0');
      await fillRandom(90);
      await page.waitForFunction(() => Number(document.getElementById('stat-items').dataset.value) >= 80);
      const info = await cuckooRate();
      const note = await text('stat-capacity');
      const marked = await page.$eval('#stats', (el) => el.classList.contains('over'));
      assert(info.itemsInserted > 64 && marked === over && marked === info.estimatedErrorRate > 0.01,
        `${bits}-bit fingerprints, ${info.itemsInserted} keys, estimate ${info.estimatedErrorRate}: marked ${marked}, "${note}"`);
      assert(over ? /over capacity/.test(note) : /past it/.test(note) && /still within the 1\.00 % target/.test(note), `capacity cell: "${note}"`);
    }
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
  });

  // ---- section 2: FPR experiment, every class that takes part, in pairs -------------------------
  await t.check('experiment: bad inputs show an error in the page', async () => {
    await page.fill('#exp-n', 'many');
    await page.click('#exp-run');
    await page.waitForFunction(() => document.getElementById('exp-status').dataset.state === 'failed');
    assert(/n keys/.test(await visibleError('exp-error')) && /many/.test(await visibleError('exp-error')), `message "${await visibleError('exp-error')}"`);
    await page.fill('#exp-n', '20000');
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
      const Cls = lib[CLASS_OF[r.kind]];
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

  // ---- section 3: blacklist -------------------------------------------------------------------
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
    for (const url of ['https://example.org/', 'https://login-secure-zz.com/', 'https://my-bank.example/login']) {
      await page.fill('#bl-check', url);
      const state = await data('bl-check-result', 'state');
      assert(state === (f.has(url) ? 'listed' : 'clear'), `${url}: page ${state}, node ${f.has(url)}`);
    }
    f.free();
    await page.fill('#bl-check', 'https://example.org/');
    await shot('blacklist', '#blacklist');
  });

  const uploadKind = KINDS.includes('cuckoo') ? 'cuckoo' : KINDS.at(-1);
  await t.check(`blacklist: an uploaded list of 120,000 lines builds a ${uploadKind} filter`, async () => {
    const lines = Array.from({ length: 120000 }, (_, i) => `https://upload-${i}.bad.example/x`);
    await page.setInputFiles('#bl-file', { name: 'list.txt', mimeType: 'text/plain', buffer: Buffer.from(`${lines.join('\n')}\n`) });
    await page.waitForFunction(() => document.getElementById('bl-lines').textContent === '120,000 lines');
    await page.selectOption('#bl-kind', uploadKind);
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

  // ---- section 4: export / import, every class ------------------------------------------------
  async function download() {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-btn')]);
    assert(await dl.failure() === null, 'download failed');
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  }
  async function importBytes(name, buffer) {
    await page.evaluate(() => { const s = document.getElementById('import-status'); s.textContent = ''; delete s.dataset.items; });
    await page.setInputFiles('#import-file', { name, mimeType: 'application/octet-stream', buffer });
    await page.waitForFunction(() => document.getElementById('import-status').dataset.items !== undefined
      || !document.getElementById('import-error').hidden);
  }
  async function compareWith(source, keys) {
    await setText('import-compare-keys', keys.join('\n'));
    await page.selectOption('#import-compare-source', source);
    await page.click('#import-compare');
    return { same: Number(await data('import-compare-result', 'same')), total: Number(await data('import-compare-result', 'total')), present: Number(await data('import-compare-result', 'present')) };
  }
  let lastExport = null;
  for (const kind of KINDS) {
    await t.check(`${kind}: the exported file answers like the original, in the page and in Node`, async () => {
      await selectKind(kind);
      await fillRandom(300);
      for (const k of ['alice@example.com', 'bob@example.com']) assert(await keyOp('add', k) === 'added', `add ${k}`);
      const items = await value('stat-items');
      await page.selectOption('#export-source', 'builder');
      const file = await download();
      assert(file.name === `bloomcuckoo-${kind}-${items}.bin`, `file name ${file.name}`);
      assert(file.bytes.length === Number(await data('export-status', 'bytes')), 'downloaded size = shown size');
      // Node reads the downloaded bytes
      assert(lib.kindOf(file.bytes) === kind, `kindOf → ${lib.kindOf(file.bytes)}`);
      const copy = lib.deserialize(file.bytes);
      assert(copy.size === items, `node copy holds ${copy.size}, page ${items}`);
      const keys = ['alice@example.com', 'bob@example.com', ...Array.from({ length: 298 }, (_, i) => `other-${kind}-${i}`)];
      const nodePresent = copy.hasAll(keys).reduce((a, b) => a + b, 0);
      assert(copy.has('alice@example.com') && copy.has('bob@example.com'), 'node copy finds the keys');
      copy.free();
      // the page imports it back
      await importBytes(file.name, file.bytes);
      assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
      assert(await data('import-status', 'kind') === kind && Number(await data('import-status', 'items')) === items, `import status: ${await text('import-status')}`);
      const r = await compareWith('builder', keys);
      assert(r.total === 300 && r.same === 300, `identical answers: ${r.same} of ${r.total}`);
      assert(r.present === nodePresent, `page says ${r.present} present, node ${nodePresent}`);
      await page.fill('#import-key', 'bob@example.com');
      assert(await data('import-key-result', 'state') === 'present', 'imported filter finds bob');
      lastExport = file;
      if (kind === KINDS[0]) await shot('transfer', '#transfer');
    });
  }

  // A RedisBloom filter pulled from Redis (`bloomcuckoo redis pull`, or fromRedisDump + serialize)
  // imports like any other filter file: the page answers as the server did (captured fixtures).
  for (const fixture of ['bf-e0.01-x1-grown.txt', 'cf-b3-x1-seed.txt']) {
    await t.check(`a RedisBloom ${fixture.slice(0, 2).toUpperCase()} filter file imports and answers as the server did`, async () => {
      const rows = readFileSync(new URL(`../fixtures/redis/${fixture}`, import.meta.url), 'utf8').split('\n');
      const chunks = rows.filter((l) => l.startsWith('chunk ')).map((l) => {
        const [, it, hex] = l.split(' ');
        return [Number(it), hex === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(hex, 'hex'))];
      });
      const answers = rows.find((l) => l.startsWith('probes ')).split(' ')[2];
      const f = lib.fromRedisDump(chunks);
      const bytes = Buffer.from(f.serialize());
      const kind = f.info().kind;
      const items = f.size;
      f.free();
      await importBytes(`${kind}.bin`, bytes);
      assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
      assert(await data('import-status', 'kind') === kind && Number(await data('import-status', 'items')) === items, `import status: ${await text('import-status')}`);
      for (let i = 0; i < 40; i += 3) {   // "probe:<i>" keys: the server's CF/BF.EXISTS answers
        await page.fill('#import-key', `probe:${i}`);
        const state = await data('import-key-result', 'state');
        assert(state === (answers[i] === '1' ? 'present' : 'absent'), `probe:${i}: page ${state}, server ${answers[i]}`);
      }
    });
  }

  await t.check('blacklist export → import answers like the original', async () => {
    await page.selectOption('#export-source', 'blacklist');
    const file = await download();
    await importBytes(file.name, file.bytes);
    assert(await visibleError('import-error') === '', `import error: ${await visibleError('import-error')}`);
    assert(Number(await data('import-status', 'items')) === 120000, 'items');
    const keys = [...Array.from({ length: 200 }, (_, i) => `https://upload-${i * 599}.bad.example/x`),
      ...Array.from({ length: 200 }, (_, i) => `https://fine-${i}.example/`)];
    const r = await compareWith('blacklist', keys);
    assert(r.same === 400 && r.present >= 200, `same ${r.same}, present ${r.present}`);
  });

  await t.check('corrupt, truncated and empty files show a clear message', async () => {
    const good = lastExport.bytes;
    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1] ^= 0x55;
    const cases = [
      ['garbage.bin', Buffer.from('this is not a filter, just some text\n'.repeat(20))],
      ['truncated.bin', good.subarray(0, good.length >> 1)],
      ['flipped.bin', flipped],
      ['empty.bin', Buffer.alloc(0)],
    ];
    for (const [name, buf] of cases) {
      await importBytes(name, buf);
      const msg = await visibleError('import-error');
      assert(msg.includes(name) && /CORRUPT_DATA|UNSUPPORTED_VERSION/.test(msg), `${name}: "${msg}"`);
      assert(await page.isDisabled('#import-key'), `${name}: the key check is disabled`);
    }
    await shot('import-corrupt', '#transfer');
    await importBytes(lastExport.name, lastExport.bytes);
    assert(await visibleError('import-error') === '', 'a good file clears the message');
  });

  // ---- section 5: worker mode ------------------------------------------------------------------
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
    const twin = new lib[CLASS_OF[uploadKind]]({ capacity: 120000, errorRate: 0.001 });
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

  await t.check('every membership verdict in the page has the coloured verdict style of sections 1-3, in a live region, and the same words', async () => {
    // the colours of the figures' verdicts, by state
    const ref = await page.evaluate(() => {
      const out = {};
      for (const st of ['present', 'absent', 'full', 'removed-unknown', 'not-found']) {
        const p = document.createElement('p');
        p.className = 'verdict';
        p.dataset.state = st;
        document.body.append(p);
        out[st] = getComputedStyle(p).color;
        p.remove();
      }
      return out;
    });
    assert(new Set([ref.present, ref.absent, ref.full]).size === 3, `reference colours ${JSON.stringify(ref)}`);
    const looks = (id) => page.$eval(`#${id}`, (el) => ({ state: el.dataset.state, text: el.textContent, color: getComputedStyle(el).color,
      weight: getComputedStyle(el).fontWeight, live: el.closest('[aria-live]')?.getAttribute('aria-live') ?? null }));
    const expect = async (id, as, words) => {
      const v = await looks(id);
      assert(v.color === ref[as], `#${id} (${v.state}, "${v.text}") is ${v.color}, a ${as} verdict is ${ref[as]}`);
      assert(Number(v.weight) >= 600, `#${id} weight ${v.weight}`);
      assert(v.live === 'polite', `#${id} is not in a polite live region (${v.live})`);
      if (words) assert(words.test(v.text), `#${id}: "${v.text}" lacks ${words}`);
    };
    // 4 · the builder
    await createWith('bloom', { capacity: '1000', errorRate: '0.01' });
    assert(await keyOp('add', 'alice@example.com') === 'added', 'add');
    assert(await keyOp('check', 'alice@example.com') === 'present', 'check alice');
    await expect('key-result', 'present', /maybe present/);
    assert(await keyOp('check', 'nobody@example.com') === 'absent', 'check nobody');
    await expect('key-result', 'absent', /certainly absent/);
    // 7 · the blacklist
    await setText('bl-text', 'https://a.example/\nhttps://b.example/');
    await page.selectOption('#bl-kind', 'bloom');
    await page.fill('#bl-error-rate', '0.001');
    await page.evaluate(() => { delete document.getElementById('bl-status').dataset.items; });
    await page.click('#bl-build');
    await page.waitForFunction(() => document.getElementById('bl-status').dataset.items === '2');
    assert(/, \d+ bits per line\.$/.test(await text('bl-status')), `bits per line of 2 lines, ≥ 100: no decimals: "${await text('bl-status')}"`);
    await page.fill('#bl-check', 'https://a.example/');
    await expect('bl-check-result', 'present', /listed \(maybe\)/);
    await page.fill('#bl-check', 'https://zzz.example/');
    await expect('bl-check-result', 'absent', /not listed/);
    // 8 · an imported filter
    const f = new lib.BloomFilter({ capacity: 100, errorRate: 0.001 });
    f.add('bob@example.com');
    await importBytes('bob.bin', Buffer.from(f.serialize()));
    f.free();
    await page.fill('#import-key', 'bob@example.com');
    await expect('import-key-result', 'present', /maybe present/);
    await page.fill('#import-key', 'carol@example.com');
    await expect('import-key-result', 'absent', /certainly absent/);
    // 9 · the worker, and the main thread's answer next to it
    await page.selectOption('#worker-source', 'builder');
    await page.evaluate(() => { delete document.getElementById('worker-status').dataset.items; });
    await page.click('#worker-send');
    await page.waitForFunction(() => document.getElementById('worker-status').dataset.items !== undefined);
    for (const [key, as, words] of [['alice@example.com', 'present', /maybe present/], ['nobody@example.com', 'absent', /certainly absent/]]) {
      await page.evaluate(() => { delete document.getElementById('worker-rtt').dataset.value; });
      await page.fill('#worker-key', key);
      await page.waitForFunction(() => document.getElementById('worker-rtt').dataset.value !== undefined);
      await expect('worker-answer', as, words);
      await expect('worker-main-answer', as, words);
    }
    // FULL, and a removal of a key never added, in the builder
    await createWith('cuckoo', { capacity: '16', fingerprintBits: '8', bucketSize: '4', expansion: '0' });
    await fillRandom(200);
    await expect('key-result', 'full', /full/);
    await createWith('cuckoo', { capacity: '1000', fingerprintBits: '', bucketSize: '4', expansion: '1' });
    assert(await keyOp('remove', 'nobody@example.com') === 'not-found', 'remove a key never added');
    await expect('key-result', 'not-found');
    await shot('verdicts-builder', '#builder');
    await shot('verdicts-blacklist', '#blacklist');
    await shot('verdicts-transfer', '#transfer');
    await shot('verdicts-worker', '#worker');
  });

  // ---- a phone: 390 x 844 CSS px ------------------------------------------------------------------
  await t.check('phone (390 px): nothing widens the page, every button is on screen, chart text stays legible', async () => {
    const phone = await browser.context.newPage();
    const phoneErrors = watchConsole(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(server.url);
    await phone.waitForSelector('#status:text("ready")', { timeout: 20000 });
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
    assert(phoneErrors.length === 0, `console errors: ${phoneErrors.join(' | ')}`);
    await phone.close();
  });

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

  await t.check('phone (390 px): the builder\'s remove warning, bits / key, the blacklist\'s refusals and the verdicts fit', async () => {
    const phone = await browser.context.newPage();
    const phoneErrors = watchConsole(phone);
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(server.url);
      await phone.waitForSelector('#status:text("ready")', { timeout: 20000 });
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
      assert(phoneErrors.length === 0, `console errors: ${phoneErrors.join(' | ')}`);
    } finally {
      await phone.close();
    }
  });

  await checkRobustness(t, { browser, url: server.url, shots });

  await t.check('no error banner, no console errors', async () => {
    await shot('page');
    assert(await visibleError('global-error') === '', `banner: ${await visibleError('global-error')}`);
    assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  });
} finally {
  await browser.close();
  await server.close();
}
console.log(`  (e2e took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = t.summary() ? 1 : 0;
