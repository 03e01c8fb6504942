// "Build your own filter" (#builder): every class's options, keys, stats, canvas, growth,
// FULL, the remove warning, capacity flags, keyboard.
import { assert, openReadyPage } from './browser.mjs';
import { CLASS_OF, KINDS, placeholdersCut, REMOVABLE, shots, tabThrough } from './helpers.mjs';
import { checkCuckooGrowth } from './figures.mjs';

export async function run(t, c) {
  const { page, browser, server, text, data, value, setText, visibleError, visibleText, shot, selectKind, createWith, keyOp, fillRandom } = c;
  await t.check('the page offers every filter class the library exports', async () => {
    const offered = await page.$$eval('#filter-kind option', (os) => os.map((o) => o.value));
    assert(JSON.stringify(offered.sort()) === JSON.stringify([...KINDS].sort()), `offered ${offered}, exported ${KINDS}`);
    assert(await page.getAttribute('body', 'data-kinds') === KINDS.join(' '), 'body data-kinds');
  });

  await t.check('every input placeholder fits its field, for every filter class\'s options, at 1280 and 390 px', async () => {
    const { page: phone } = await openReadyPage(browser, server.url, { width: 390, height: 844 });
    try {
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
    // types v in #id (v null: only focuses it), presses Enter, and waits until data-<attr> of
    // #status (cleared first) is one of `ends`; returns it
    const enterIn = async (id, v, status, ends, { attr = 'state', timeout = 5000 } = {}) => {
      await page.evaluate(([s, a]) => { delete document.getElementById(s).dataset[a]; }, [status, attr]);
      if (v === null) await page.focus(`#${id}`); else await typeIn(id, v);
      await page.keyboard.press('Enter');
      await page.waitForFunction(([s, a, e]) => e.includes(document.getElementById(s).dataset[a]), [status, attr, ends], { timeout });
      return data(status, attr);
    };
    // builder: capacity, Tab to error rate, Enter creates
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
      await selectKind(kind);
      if (kind !== 'fuse') assert(await keyOp('add', 'alice@example.com') === 'added', 'add');
      else { await page.fill('#key-input', 'alice@example.com'); await page.click('#key-add'); }
      await enterIn(`opt-${field}`, v, 'key-result', ['created']);
      const i = JSON.parse(await page.textContent('#stat-info'));
      assert(String(i[field]) === v, `${kind}: Enter in ${field} created ${JSON.stringify(i)}`);
    }
    await selectKind('scalable');
    await enterIn('opt-nonScaling', null, 'key-result', ['created']);
    await selectKind('bloom');
    // Add N random keys
    await enterIn('fill-count', '300', 'stat-items', ['300'], { attr: 'value' });
    // blacklist: Enter in the error rate builds
    await setText('bl-text', 'https://a.example/\nhttps://b.example/\nhttps://c.example/');
    await enterIn('bl-error-rate', '0.01', 'bl-status', ['3'], { attr: 'items' });
    // experiment: Enter in any of its fields runs it
    const [n, m] = [await page.inputValue('#exp-n'), await page.inputValue('#exp-m')];
    await page.fill('#exp-n', '2000');
    await page.fill('#exp-m', '2000');
    assert(await enterIn('exp-steps', '5', 'exp-status', ['done', 'failed'], { timeout: 20000 }) === 'done', `experiment: ${await visibleError('exp-error')}`);
    await page.fill('#exp-n', n);
    await page.fill('#exp-m', m);
    await page.fill('#exp-steps', '20');
    // space against error: Enter measures
    await page.fill('#space-m', '5000');
    assert(await enterIn('space-n', '2000', 'space-status', ['done', 'failed'], { timeout: 30000 }) === 'done', `space: ${await visibleError('space-error')}`);
  });

  await t.check('bits / key: "—" until a filter holds 10 % of what it is sized for, the figure at capacity always, sensibly formatted', async () => {
    const cell = () => page.$eval('#stat-bpk', (el) => ({ text: el.textContent, value: el.dataset.value, how: el.parentElement.querySelector('#stat-bpk-how')?.textContent ?? '' }));
    const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2));
    for (const kind of ['bloom', 'counting', 'cuckoo', 'fuse']) {
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
    for (const kind of ['bloom', 'blocked', 'counting', 'scalable', 'cuckoo']) {
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
    for (const blKind of ['bloom', 'fuse']) {
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

  // ---- every class, add / check / remove / stats / canvas ------------------------------------
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
      const Cls = CLASS_OF[kind];
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

  await t.check('a growing cuckoo filter: the growth announced (3 KiB → 6 KiB), each sub-filter drawn under its label', async () => {
    await checkCuckooGrowth(page, '');
  });

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

  await t.check('a non-scaling scalable Bloom filter at capacity shows FULL', async () => {
    await selectKind('scalable');
    await createWith('scalable', { capacity: '100', nonScaling: 'true' });
    await fillRandom(500);
    const msg = await visibleError('builder-error');
    assert(/^FULL/.test(msg), `message "${msg}"`);
    assert(await data('key-result', 'state') === 'full' && /FULL/.test(await text('key-result')), `Last: "${await text('key-result')}"`);
    await createWith('scalable', { capacity: '1000', nonScaling: 'false' });
  });

  await t.check('builder: removing a key never added from a counting or cuckoo filter is checked first: certainly absent removes nothing, maybe present warns (naming the keys it would break) and waits for Remove anyway, then names the keys it broke', async () => {
    const cases = [
      // a tiny cuckoo filter with 8-bit fingerprints: a never-added key that shares a fingerprint
      // and a bucket with an added one is easy to find from Node, with the same wasm
      ['cuckoo', { capacity: '16', errorRate: '0.01', fingerprintBits: '8', bucketSize: '4', expansion: '0' }, { capacity: 16, errorRate: 0.01, fingerprintBits: 8, bucketSize: 4, expansion: 0 }],
      ['counting', { capacity: '4', errorRate: '0.2' }, { capacity: 4, errorRate: 0.2 }],
    ];
    for (const [kind, form, options] of cases) {
      const Cls = CLASS_OF[kind];
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
      await tabThrough(page, 'key-remove', ['key-remove-anyway', 'key-keep']);
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
}
