// The small figures of the playground: "See it work" (#tiny), the cuckoo filter step by step
// (#steps: kick chains, the duplicate limit, growth, false deletion) and every class as it really is (#zoo).
import { TINY_BLOOM, TINY_CUCKOO, TINY_SEED_KEYS } from '../../demo/tiny.js';
import { STEPS_SEED_KEYS, stepsOptions } from '../../demo/cuckoo-steps.js';
import { assert } from './browser.mjs';
import { lib, shotOf, subFilterBuckets, tableText, tabThrough } from './helpers.mjs';
import { checkZoo } from './zoo.mjs';

/**
 * "The cuckoo filter, step by step" on `page`: a kick chain stepped one move at a time (each Step
 * changes one slot; the end is the real filter's table), the speed control from the keyboard,
 * the duplicate limit with expansion 0 (FULL, and why) and 1 (a new sub-filter), remove.
 */
export async function checkCuckooSteps(page, prefix) {
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
      // and on the table: every move so far numbered in its slot
      const path = (await page.getAttribute('#steps-canvas', 'data-path')).split(' ');
      assert(path.length === steps + 1 && path.every((p, i) => p === `${trail[i].bucket}.${p.split('.')[1]}`), `the numbered path on the table: ${path} (trail ${trail.map((x) => x.bucket)})`);
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

/**
 * A cuckoo filter in the builder grows while random keys go in: the growth is announced with the
 * bytes before and after, and the map draws each sub-filter under its label (as many as the
 * filter's bytes say, of the same sizes).
 */
export async function checkCuckooGrowth(page, prefix) {
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
 * Step by step, removing a key never added: the page finds one that looks present, warns before
 * removing it (naming the added keys it would break, as the library on a copy in Node says),
 * changes nothing until "Remove anyway", then names the keys that now read absent; one of them
 * checks as a false negative.
 */
export async function checkFalseDeletion(page, prefix) {
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
 * The first figure ("See it work") on `page`: what it draws is what twin filters built in Node
 * hold, verdicts are the library's answers, a miss shows a clear bit / both buckets, an add that
 * kicks plays its chain and ends on the filter's table, and it all works from the keyboard.
 * Returns the Node twins' keys. `shots`: file-name prefix for screenshots.
 */
export async function checkTinyFigure(page, prefix) {
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
    await tabThrough(page, 'tiny-key', ['tiny-check', 'tiny-add']);
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
export async function run(t, c) {
  const { page, shot } = c;
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
}
