// "Every class, as it really is" (demo/zoo.js) in the page: what each figure draws equals what a
// twin filter built in Node holds (read through the library's own fillMap, positions, count, info()
// and has() wherever it has them), every verdict is the library's answer, and the cells a key reads
// are the ones the library says. Run with reduced motion.
import { ZOO, moreKey } from '../../demo/zoo.js';
import { layerProbes, readCounters, readFuse, readLayers } from '../../demo/zoo-model.js';
import { assert } from './browser.mjs';

const bitsOf = (f, n) => Array.from(f.fillMap(n), (x) => (x > 0 ? 1 : 0)).join('');

export async function checkZoo(page, lib, shot) {
  const attr = (name) => page.getAttribute('#zoo-canvas', name);
  const verdict = () => page.$eval('#zoo-verdict', (el) => ({ ...el.dataset, text: el.textContent }));
  const settle = () => page.waitForFunction(() => document.getElementById('zoo-canvas').dataset.animating !== 'true');
  async function act(op, key) {
    if (key !== undefined) await page.fill('#zoo-key', key);
    await page.click(`#zoo-${op}`);
    await settle();
    assert(await page.$eval('#zoo-error', (el) => el.hidden), `${op} ${key}: ${await page.textContent('#zoo-error')}`);
    return verdict();
  }
  const tab = async (kind) => {
    await page.click(`#zoo-tabs button[data-kind=${kind}]`);
    assert(await attr('data-kind') === kind && await page.getAttribute(`#zoo-tabs button[data-kind=${kind}]`, 'aria-pressed') === 'true', `tab ${kind}`);
  };
  // nothing widens the page; the figure fits the screen
  const fits = async (what) => {
    const r = await page.evaluate(() => ({ vw: document.documentElement.clientWidth, sw: document.documentElement.scrollWidth,
      right: document.getElementById('zoo-canvas').getBoundingClientRect().right }));
    assert(r.sw <= r.vw && r.right <= r.vw, `${what}: page ${r.sw} px, figure ends at ${r.right} on a ${r.vw} px screen`);
  };
  const state = (f, added, key) => (!f.has(key) ? 'absent' : added.includes(key) ? 'present' : 'false-positive');
  const twins = [];
  const twin = (f) => { twins.push(f); return f; };
  try {
    // ---- counting: 4-bit counters, saturation at 15 ----
    await tab('counting');
    const c = twin(new lib.CountingBloomFilter(ZOO.counting.options));
    for (const k of ZOO.counting.seeds) c.add(k);
    const counters = async (what) => {
      const shown = (await attr('data-shown')).split(',').map(Number);
      assert(shown.join(',') === readCounters(c).counters.join(','), `${what}: counters shown ${shown}, filter ${readCounters(c).counters}`);
      // independently of the bytes: the non-zero ones are fillMap's, the 15s are info()'s saturated count
      assert(shown.map((x) => (x ? 1 : 0)).join('') === bitsOf(c, 32), `${what}: non-zero counters differ from fillMap`);
      assert(shown.filter((x) => x === 15).length === c.info().saturatedCounters, `${what}: saturated counters`);
      return shown;
    };
    await counters('on arrival');
    for (const key of ['eve', 'alice', 'zed']) {
      await page.fill('#zoo-key', key);
      await page.press('#zoo-key', 'Enter');   // Enter checks
      await settle();
      const v = await verdict();
      const positions = Array.from(c.positions(key));
      assert(v.state === state(c, ZOO.counting.seeds, key), `counting check ${key}: page ${v.state}, has() ${c.has(key)}`);
      assert(await attr('data-cells') === positions.join(','), `counting ${key}: cells ${await attr('data-cells')}, positions ${positions}`);
      if (v.state === 'absent') assert(positions.includes(Number(v.proof)) && readCounters(c).counters[v.proof] === 0, `proof counter ${v.proof}`);
      else assert(v.text.includes(`count() = the smallest, ${c.count(key)}`), `count: ${v.text}`);
    }
    await act('more', 'eve');   // add it 16 times
    for (let i = 0; i < 16; i++) c.add('eve');
    let shown = await counters('after adding eve 16 times');
    assert(Array.from(c.positions('eve')).every((p) => shown[p] === 15), 'eve\'s counters are saturated');
    assert(/saturated/.test((await verdict()).text), `verdict: ${(await verdict()).text}`);
    await shot('zoo-counting');
    await fits('counting');
    let v = await act('remove', 'eve');
    assert(c.remove('eve') && v.state === 'removed' && /stays? at 15/.test(v.text), `remove eve: ${v.text}`);
    shown = await counters('after removing eve once');
    assert(Array.from(c.positions('eve')).every((p) => shown[p] === 15), 'saturated counters stay at 15 after a remove');

    // ---- blocked: 256-bit blocks, 32-bit words, one bit per word ----
    await tab('blocked');
    const b = twin(new lib.BlockedBloomFilter(ZOO.blocked.options));
    for (const k of ZOO.blocked.seeds) b.add(k);
    const m = b.info().bits;
    const sameBits = async (what) => assert(await attr('data-shown') === bitsOf(b, m), `${what}: blocked bits differ from fillMap`);
    await sameBits('on arrival');
    for (const key of ['eve', 'bob']) {
      v = await act('check', key);
      const positions = Array.from(b.positions(key));
      assert(v.state === state(b, ZOO.blocked.seeds, key), `blocked check ${key}: page ${v.state}, has() ${b.has(key)}`);
      assert(await attr('data-cells') === positions.join(','), `blocked ${key}: cells`);
      // one block, one bit in each of its eight words
      const blocks = new Set(positions.map((p) => Math.floor(p / 256)));
      const words = positions.map((p) => Math.floor((p % 256) / 32));
      assert(blocks.size === 1 && words.join('') === '01234567', `blocked ${key}: positions ${positions}`);
      if (v.state === 'absent') {
        const [blk, word, bit] = v.proof.split(':').map(Number);
        const p = blk * 256 + word * 32 + bit;
        assert(positions.includes(p) && bitsOf(b, m)[p] === '0', `blocked proof ${v.proof}`);
      }
    }
    // the words' values in the text alternative are the filter's
    const word0 = parseInt(bitsOf(b, m).slice(0, 32).split('').reverse().join(''), 2).toString(16).padStart(8, '0');
    assert((await attr('aria-label')).includes(`block 0: 0x${word0} `), `word 0 = 0x${word0}: ${await attr('aria-label')}`);
    await act('add', 'eve');
    b.add('eve');
    await sameBits('after adding eve');
    await act('more');
    for (let i = 1; i <= 8; i++) b.add(moreKey(i));
    await sameBits('after 8 more keys');
    await shot('zoo-blocked');
    await fits('blocked');

    // ---- scalable: layers, their fill and capacity, the layer a key went into ----
    await tab('scalable');
    const s = twin(new lib.ScalableBloomFilter(ZOO.scalable.options));
    const sAdded = [];
    for (const k of ZOO.scalable.seeds) if (s.add(k)) sAdded.push(k);
    const sameLayers = async (what) => {
      const layers = readLayers(s);
      assert(await attr('data-shown') === layers.map((l) => l.bits.join('')).join('|'), `${what}: layer bits differ`);
      const info = s.info().layers;
      assert(await attr('data-layers') === info.map((l) => `${l.size}/${l.capacity}`).join(' '), `${what}: layers shown ${await attr('data-layers')}`);
      assert(layers.every((l, i) => l.m === info[i].bits && l.k === info[i].hashes), `${what}: layer shapes differ from info()`);
      // every key added shows all its bits set in some layer, and a check answers as has()
      const shownLayers = (await attr('data-shown')).split('|');
      for (const k of sAdded) assert(layerProbes(layers, k).some((p, i) => p.positions.every((x) => shownLayers[i][x] === '1')), `${what}: ${k}'s bits are in no layer`);
      for (const k of [...sAdded, 'eve', 'mallory']) assert(layerProbes(layers, k).some((p) => p.has) === s.has(k), `${what}: layers answer ${k} unlike has()`);
    };
    await sameLayers('on arrival');
    for (const key of ['eve', 'erin']) {
      v = await act('check', key);
      assert(v.state === state(s, sAdded, key), `scalable check ${key}: page ${v.state}, has() ${s.has(key)}`);
      const probes = layerProbes(readLayers(s), key);
      assert(await attr('data-cells') === probes.map((p) => p.positions.join(',')).join('|'), `scalable ${key}: cells`);
      if (v.layer !== undefined) assert(probes[v.layer].has, `layer ${v.layer} has ${key}`);
    }
    const layersBefore = s.info().layers.length;
    await act('more');
    let last = null;
    for (let i = 1; i <= 7; i++) {
      const sizes = s.info().layers.map((l) => l.size);
      if (s.add(moreKey(i))) sAdded.push(moreKey(i));
      last = s.info().layers.findIndex((l, j) => l.size !== (sizes[j] ?? 0));
    }
    v = await verdict();
    assert(v.layer === String(last), `the last key went into layer ${last}, page says ${v.layer}`);
    if (s.info().layers.length > layersBefore) assert(/a new layer \d was added/.test(v.text), `growth announced: ${v.text}`);
    await sameLayers('after 7 more keys');
    await shot('zoo-scalable');
    await fits('scalable');

    // ---- fuse: segments, the three slots a key XORs ----
    await tab('fuse');
    assert(await page.isHidden('#zoo-add') && await page.isHidden('#zoo-remove') && await page.isVisible('#zoo-static'), 'fuse: no add, no remove, and why');
    let fu = twin(lib.BinaryFuseFilter.build(ZOO.fuse.seeds, ZOO.fuse.options));
    const fuseKeys = [...ZOO.fuse.seeds];
    const xorCheck = async (key) => {
      v = await act('check', key);
      const F = (await attr('data-shown')).split(',').map(Number);
      const cells = (await attr('data-cells')).split(',').map(Number);
      const L = fu.info().segmentLength;
      assert(cells.length === 3 && cells[1] >= cells[0] && Math.floor(cells[1] / L) === Math.floor(cells[0] / L) + 1 && Math.floor(cells[2] / L) === Math.floor(cells[0] / L) + 2,
        `fuse ${key}: slots ${cells} are not in three consecutive segments of ${L}`);
      const fp = Number(await attr('data-fp'));
      assert(((F[cells[0]] ^ F[cells[1]] ^ F[cells[2]]) === fp) === fu.has(key), `fuse ${key}: the XOR of the slots shown vs has() ${fu.has(key)}`);
      assert(v.state === state(fu, fuseKeys, key) && v.match === 'true', `fuse check ${key}: page ${v.state}, has() ${fu.has(key)}`);
    };
    const sameFuse = async (what) => assert(await attr('data-shown') === readFuse(fu).F.join(','), `${what}: fingerprints differ`);
    await sameFuse('on arrival');
    for (const key of [...ZOO.fuse.seeds, 'eve', 'mallory']) await xorCheck(key);
    await shot('zoo-fuse');
    await fits('fuse');
    await page.fill('#zoo-key', 'eve');
    await page.click('#zoo-more');   // build again with it
    await settle();
    fuseKeys.push('eve');
    fu = twin(lib.BinaryFuseFilter.build(fuseKeys, ZOO.fuse.options));
    await sameFuse('built again with eve');
    await xorCheck('eve');
    await page.click('#zoo-reset');
    await tab('counting');
  } finally {
    for (const f of twins) f.free();
  }
}
