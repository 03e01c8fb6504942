// "Every class, as it really is" (#zoo): small enough to read every cell: a counting Bloom
// filter's 4-bit counters (saturating at 15), a blocked Bloom filter's 256-bit blocks of 32-bit
// words, a scalable Bloom filter's layers, a binary fuse filter's segments and the three slots a
// key XORs. What is drawn is read from the filter (positions, info(), its serialize() bytes:
// zoo-model.js); Check, Add and Remove run on the real filter and the figure shows what they did.
import { kindByName } from './filters.js';
import { animate } from './tiny-draw.js';
import { drawBlocked, drawCounting, drawFuse, drawScalable } from './zoo-draw.js';
import { blockBit, fuseSlots, layerProbes, readBlockWords, readCounters, readFuse, readLayers } from './zoo-model.js';
import { $, guard, onWidthChange, q, showFigureVerdict } from './ui.js';

const NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
export const ZOO = {
  counting: { options: { counters: 32, hashes: 3 }, seeds: NAMES.slice(0, 5) },
  blocked: { options: { blocks: 2 }, seeds: NAMES.slice(0, 6) },
  scalable: { options: { capacity: 4, errorRate: 0.1 }, seeds: NAMES.slice(0, 6) },
  fuse: { options: { fingerprintBits: 8 }, seeds: NAMES },
};
/** The keys "More" adds to a scalable or blocked filter: more-1, more-2, … */
export const moreKey = (i) => `more-${i}`;

const TEXT = {
  counting: {
    caption: '32 four-bit counters, k = 3. Adding a key adds 1 to its 3 counters, removing takes 1 away; a check needs all 3 non-zero. Two counters share a byte (under each pair: low nibble = the even counter). A counter stops at 15.',
    more: 'Add it 16 times',
  },
  blocked: {
    caption: 'Two 256-bit blocks, each eight 32-bit words (w0…w7, with their values in hex). A key picks one block and sets one bit in each of its 8 words: one cache line read per key.',
    more: 'Add 8 more keys',
  },
  scalable: {
    caption: 'Layers of Bloom filters: when the newest layer is full, a new one for twice as many keys at half the error rate is added. A check reads every layer; an add goes into the newest.',
    more: 'Add 7 more keys',
  },
  fuse: {
    caption: 'A static array of 8-bit fingerprints in segments, solved from all the keys at once. A key maps to three slots, one in each of three consecutive segments; it is maybe present when their XOR equals its fingerprint. No add, no remove: build again from a new set.',
    more: 'Build again with it',
  },
};

/**
 * The scalable tab's caption from the layers shown: each new layer takes twice the keys at half the
 * error rate, and its bits are what that needs, but never fewer than 64 per hash: layers this
 * small sit on that floor, so their bits grow by 64 a layer, not twice.
 */
function scalableCaption(layers) {
  const need = (l) => Math.ceil((-l.capacity * Math.log(l.errorRate)) / (Math.LN2 * Math.LN2));
  const floor = layers.filter((l) => l.m === 64 * l.k && need(l) < l.m).length;
  return `Layers of Bloom filters. When the newest layer is full, a new one is added for twice as many keys at half the error rate `
    + `(its bits: ⌈−n·ln ε / ln²2⌉, but at least 64 per hash). A check reads every layer; an add goes into the newest. Here: `
    + `${layers.map((l, i) => `layer ${i}: ${l.capacity} keys at ε = ${+(l.errorRate * 100).toFixed(3)} %, k = ${l.k}, ${l.m} bits`
      + `${l.m === 64 * l.k && need(l) < l.m ? ` (needs ${need(l)}, floor 64 × ${l.k})` : ''}`).join('; ')}.`
    + `${floor > 1 ? ' Layers this small sit on the 64-bits-per-hash floor, so their bits grow by 64 a layer, not twice.' : ''}`;
}

const state = {};   // kind → { filter, keys (named keys added, in order), more (count of more-keys) }
let kind = null;
let view = null;    // what is drawn, to draw again after a width change
const list = (xs) => xs.join(', ');

function make(k) {
  const { Class } = kindByName(k);
  const { options, seeds } = ZOO[k];
  state[k]?.filter.free();
  const filter = k === 'fuse' ? Class.build(seeds, options) : new Class(options);
  if (k !== 'fuse') for (const key of seeds) filter.add(key);
  state[k] = { filter, keys: [...seeds], more: 0 };
}

/** The layers of the scalable filter with, for `key`, each layer's positions and answer. */
function layersWith(filter, key) {
  const layers = readLayers(filter);
  const probes = key === undefined ? [] : layerProbes(layers, key);
  return layers.map((l, i) => ({ ...l, probe: probes[i] ?? null }));
}

/** Reads what the filter holds now, in the shape the figure takes. */
function snapshot(k, filter) {
  if (k === 'counting') return readCounters(filter).counters;
  if (k === 'blocked') return readBlockWords(filter).words;
  if (k === 'scalable') return layersWith(filter);
  return readFuse(filter);
}

function draw(v, p = 1) {
  view = v;
  const canvas = $('zoo-canvas');
  const s = state[v.kind];
  if (v.kind === 'counting') {
    drawCounting(canvas, v, p);
    const shown = v.op && v.op !== 'check' && p >= 0.6 ? v.after : v.counters;
    canvas.dataset.shown = shown.join(',');
    canvas.setAttribute('aria-label', `Counting Bloom filter of ${shown.length} four-bit counters, k = 3. Non-zero counters: `
      + `${list(shown.flatMap((n, i) => (n ? [`${i}: ${n}`] : []))) || 'none'}.${v.key ? ` Last key ${q(v.key)}: counters ${list(v.positions)}.` : ''}`);
  } else if (v.kind === 'blocked') {
    drawBlocked(canvas, v, p);
    const words = v.op === 'add' && p >= 0.6 ? v.after : v.words;
    canvas.dataset.shown = words.map((w) => Array.from({ length: 32 }, (_, j) => (w >>> j) & 1).join('')).join('');
    canvas.setAttribute('aria-label', `Blocked Bloom filter: ${words.length / 8} blocks of eight 32-bit words. `
      + `${Array.from({ length: words.length / 8 }, (_, b) => `block ${b}: ${words.slice(8 * b, 8 * b + 8).map((w) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`).join(' ')}`).join('; ')}.`
      + `${v.key ? ` Last key ${q(v.key)}: block ${v.bits[0].block}, bits ${list(v.bits.map((b) => `w${b.word}:${b.bit}`))}.` : ''}`);
  } else if (v.kind === 'scalable') {
    drawScalable(canvas, v, p);
    const layers = v.op === 'add' && p >= 0.6 ? v.after : v.layers;
    if (kind === 'scalable') $('zoo-caption').textContent = scalableCaption(layers);
    canvas.dataset.shown = layers.map((l) => l.bits.join('')).join('|');
    canvas.dataset.layers = layers.map((l) => `${l.size}/${l.capacity}`).join(' ');
    canvas.setAttribute('aria-label', `Scalable Bloom filter, ${layers.length} layer${layers.length === 1 ? '' : 's'}: `
      + `${layers.map((l, i) => `layer ${i}: ${l.m} bits, k = ${l.k}, ${l.size} of ${l.capacity} keys, ${l.bits.reduce((a, b) => a + b, 0)} bits set`).join('; ')}.`);
  } else {
    drawFuse(canvas, v, p);
    const { F, L, bits } = v.fuse;
    canvas.dataset.shown = F.join(',');
    canvas.setAttribute('aria-label', `Binary fuse filter of ${F.length} ${bits}-bit fingerprints in ${L ? F.length / L : 0} segments of ${L}: `
      + `${Array.from({ length: L ? F.length / L : 0 }, (_, sg) => `segment ${sg}: ${F.slice(sg * L, sg * L + L).map((x) => x.toString(16).padStart(bits / 4, '0')).join(' ')}`).join('; ')}.`
      + `${v.slots ? ` Last key ${q(v.key)}: slots ${list(v.slots)}.` : ''}`);
  }
  canvas.dataset.kind = v.kind;
  canvas.dataset.cells = v.cells ?? '';
  canvas.dataset.fp = v.kind === 'fuse' && v.slots ? String(v.fp) : '';
  const times = new Map();
  for (const x of s.keys) times.set(x, (times.get(x) ?? 0) + 1);
  const names = [...times].map(([x, n]) => `${q(x)}${n > 1 ? ` ×${n}` : ''}`);
  $('zoo-holds').textContent = `It holds: ${list(names.slice(0, 14))}${names.length > 14 ? ` and ${names.length - 14} more` : ''}.`;
}

function verdict(text, state_, extra = {}) {
  const el = $('zoo-verdict');
  showFigureVerdict(el, text, state_);
  for (const a of ['proof', 'layer', 'broken']) delete el.dataset[a];
  Object.assign(el.dataset, extra);
}

/** Present, false positive or absent, as the verdicts of the other figures name them. */
const answer = (s, key, yes) => (!yes ? 'absent' : s.keys.includes(key) ? 'present' : 'false-positive');

function showStill() {
  const s = state[kind];
  draw({ kind, ...(kind === 'fuse' ? { fuse: snapshot(kind, s.filter) } : kind === 'scalable' ? { layers: snapshot(kind, s.filter) }
    : { [kind === 'counting' ? 'counters' : 'words']: snapshot(kind, s.filter), after: snapshot(kind, s.filter) }) });
  showPeel();
}

// ---- counting --------------------------------------------------------------------------------

function counting(op, key, times = 1) {
  const s = state.counting;
  const f = s.filter;
  const positions = Array.from(f.positions(key));
  const counters = snapshot('counting', f);
  const vals = (cs) => list(positions.map((p) => cs[p]));
  $('zoo-how').textContent = `MurmurHash3 of ${q(key)} → counters p = ${list(positions)} (the probe sequence of a Bloom filter of 32 counters).`;
  let ok = true;
  if (op === 'check') {
    const yes = f.has(key);
    const zero = positions.find((p) => counters[p] === 0);
    const st = answer(s, key, yes);
    verdict(!yes ? `${q(key)}: counter ${zero} is 0, so ${q(key)} was never added (or was removed): certainly absent.`
      : `${q(key)}: counters ${list(positions)} are ${vals(counters)}, all non-zero: maybe present${st === 'present' ? '' : ', but it was never added: a false positive'}. `
        + `count() = the smallest, ${f.count(key)}: it was added at most that many times.`, st, zero === undefined ? {} : { proof: String(zero) });
  } else if (op === 'add') {
    for (let i = 0; i < times; i++) { f.add(key); s.keys.push(key); }
    const after = snapshot('counting', f);
    const stuck = positions.filter((p) => after[p] === 15);
    verdict(`${q(key)}${times > 1 ? ` added ${times} times` : ''}: counters ${list(positions)} went from ${vals(counters)} to ${vals(after)}.`
      + (stuck.length ? ` Counter${stuck.length > 1 ? 's' : ''} ${list([...new Set(stuck)])} reached 15, the largest 4-bit value: saturated, ${stuck.length > 1 ? 'they stay' : 'it stays'} at 15 from now on (a remove no longer lowers it).` : ''),
    'added');
  } else {
    const added = s.keys.includes(key);
    const before = new Set(s.keys.filter((x) => f.has(x)));
    ok = f.remove(key);
    const after = snapshot('counting', f);
    if (ok && added) s.keys.splice(s.keys.lastIndexOf(key), 1);
    const stuck = [...new Set(positions.filter((p) => counters[p] === 15))];
    const broken = [...before].filter((x) => !f.has(x));
    const sat = stuck.length ? ` Counter${stuck.length > 1 ? 's' : ''} ${list(stuck)} ${stuck.length > 1 ? 'stay' : 'stays'} at 15: once saturated, how many keys share it is lost, and lowering it could make one of them read absent.` : '';
    if (!ok) verdict(`${q(key)}: counter ${positions.find((p) => counters[p] === 0)} is 0: it is not in the filter, nothing removed.`, 'not-found');
    else if (added) verdict(`${q(key)} removed: counters ${list(positions)} went from ${vals(counters)} to ${vals(after)}.${sat}`, 'removed');
    else {
      verdict(`${q(key)} was never added, yet all its counters were non-zero, so remove() took 1 from each: ${vals(counters)} → ${vals(after)}. `
        + (broken.length ? `${list(broken.map((x) => `${q(x)}`))} now ${broken.length === 1 ? 'reads' : 'read'} as certainly absent, a false negative. ` : '')
        + 'Remove only keys you added.', 'removed-unknown', { broken: broken.join(' ') });
    }
  }
  const v = { kind: 'counting', key, hashText: `counters ${list(positions)}`, positions, op: op === 'remove' && !ok ? 'check' : op,
    counters, after: snapshot('counting', f), cells: positions.join(',') };
  return animate($('zoo-canvas'), op === 'check' ? 700 : 900, (p) => draw(v, p));
}

// ---- blocked ---------------------------------------------------------------------------------

function blocked(op, key) {
  const s = state.blocked;
  const f = s.filter;
  const positions = Array.from(f.positions(key));
  const bits = positions.map(blockBit);
  const words = snapshot('blocked', f);
  const isSet = (b) => (words[8 * b.block + b.word] >>> b.bit) & 1;
  const where = list(bits.map((b) => `w${b.word} bit ${b.bit}`));
  $('zoo-how').textContent = `MurmurHash3 of ${q(key)}: block = ⌊hi32(h1) · 2 / 2³²⌋ = ${bits[0].block}; in word i, bit (lo32(h2) · salt_i) >> 27: ${where}.`;
  if (op === 'check') {
    const yes = f.has(key);
    const miss = bits.find((b) => !isSet(b));
    const st = answer(s, key, yes);
    verdict(!yes ? `${q(key)}: in block ${miss.block}, word ${miss.word}, bit ${miss.bit} is 0: certainly absent (the other block is never read).`
      : `${q(key)}: all 8 of its bits in block ${bits[0].block} are set: maybe present${st === 'present' ? '' : ', but it was never added: a false positive'}.`, st,
    miss ? { proof: `${miss.block}:${miss.word}:${miss.bit}` } : {});
  } else {
    f.add(key);
    s.keys.push(key);
    const fresh = bits.filter((b) => !isSet(b)).length;
    verdict(`${q(key)} → block ${bits[0].block}: one bit in each of its 8 words (${where}); ${fresh} of them ${fresh === 1 ? 'was' : 'were'} 0 before.`, 'added');
  }
  const v = { kind: 'blocked', key, hashText: `block ${bits[0].block} · ${bits.map((b) => b.bit).join(' ')}`, bits, op, words,
    after: snapshot('blocked', f), cells: positions.join(',') };
  return animate($('zoo-canvas'), op === 'check' ? 700 : 900, (p) => draw(v, p));
}

// ---- scalable --------------------------------------------------------------------------------

function scalable(op, key) {
  const s = state.scalable;
  const f = s.filter;
  const layers = layersWith(f, key);
  let after = layers;
  let landed;
  let grew;
  if (op === 'check') {
    const yes = f.has(key);
    const st = answer(s, key, yes);
    const found = layers.findIndex((l) => l.probe.has);
    verdict(!yes ? `${q(key)}: every layer has a clear bit among the key's (${list(layers.map((l, i) => `layer ${i}: bit ${l.probe.positions.find((p) => !l.bits[p])}`))}): certainly absent.`
      : `${q(key)}: layer ${found} has all ${layers[found].k} of its bits set: maybe present${st === 'present' ? '' : ', but it was never added: a false positive'}.`, st,
    yes ? { layer: String(found) } : {});
  } else {
    const added = f.add(key);
    after = layersWith(f, key);
    if (!added) {
      const found = layers.findIndex((l) => l.probe.has);
      verdict(`${q(key)} not added: layer ${found} already has all its bits set, so it looks present, and a scalable filter adds only keys that are not maybe-present. Nothing changed.`, 'not-added', { layer: String(found) });
    } else {
      s.keys.push(key);
      landed = after.findIndex((l, i) => l.size !== (layers[i]?.size ?? 0));
      if (after.length > layers.length) grew = landed;
      const l = after[landed];
      verdict(grew !== undefined
        ? `Layer ${landed - 1} was full (${layers[landed - 1].size} of ${layers[landed - 1].capacity} keys), so a new layer ${landed} was added: ${l.m} bits, k = ${l.k}, for ${l.capacity} keys at ε = ${+(l.errorRate * 100).toFixed(3)} %, and ${q(key)} went there.`
        : `${q(key)} went into layer ${landed}, the newest (now ${l.size} of ${l.capacity} keys): its ${l.k} bits ${list(l.probe.positions)}.`, 'added', { layer: String(landed) });
    }
  }
  $('zoo-how').textContent = `One MurmurHash3 of ${q(key)} for every layer; each layer maps it to its own k bits of its own m: ${list(after.map((l, i) => `layer ${i} → ${list(l.probe.positions)}`))}.`;
  const v = { kind: 'scalable', key, hashText: `${after.length} layer${after.length === 1 ? '' : 's'}, k = ${list(after.map((l) => l.k))}`, op, layers, after, landed, grew,
    probes: after.map((l) => l.probe), cells: after.map((l) => l.probe.positions.join(',')).join('|') };
  return animate($('zoo-canvas'), op === 'check' ? 700 : 900, (p) => draw(v, p));
}

// ---- fuse ------------------------------------------------------------------------------------

/**
 * How a fuse filter of `keys` can be solved (peeling), from the keys' own three slots: a slot that
 * exactly one remaining key covers can be left to that key (no other key's XOR depends on it), so
 * the key is set aside; repeat. Then, in reverse order, each key's slot is set to its fingerprint
 * XOR its other two slots. Returns { order: [{ key, slot }], stuck } (stuck: keys left in a cycle).
 */
export function peelOrder(fu, keys) {
  const cover = keys.map((key) => fuseSlots(fu, key).slots);
  const alive = new Set(keys.map((_, i) => i));
  const order = [];
  while (alive.size) {
    const count = new Map();
    for (const i of alive) for (const sl of cover[i]) count.set(sl, (count.get(sl) ?? 0) + 1);
    let found = null;
    for (const i of alive) {
      const sl = cover[i].find((x) => count.get(x) === 1);
      if (sl !== undefined) { found = { i, slot: sl }; break; }
    }
    if (!found) break;
    order.push({ key: keys[found.i], slot: found.slot });
    alive.delete(found.i);
  }
  return { order, stuck: alive.size };
}

/** The fuse tab's paragraph on peeling, for the filter shown. */
function showPeel() {
  const el = $('zoo-peel');
  if (kind !== 'fuse') { el.hidden = true; return; }
  const s = state.fuse;
  const fu = readFuse(s.filter);
  const { order, stuck } = peelOrder(fu, s.keys);
  el.hidden = false;
  el.textContent = `How it was solved: peeling. ${s.keys.length} keys, each covering 3 of ${fu.F.length} slots. Find a slot that only one remaining key `
    + `covers: its value matters to that key alone, so set the key aside to own it, and repeat: ${order.map((o) => `${q(o.key)} → slot ${o.slot}`).join(', ')}`
    + `${stuck ? `; ${stuck} keys are left in a cycle, and the library would try another seed` : ''}. Then, last set aside first, each key's own slot `
    + 'is set to its fingerprint ⊕ its other two slots, which are final by then, so every key\'s XOR comes out right. '
    + 'That is why a fuse filter is static: one more key can need a slot another key already owns, so it is solved again from all of them.';
  el.dataset.order = order.map((o) => o.slot).join(' ');
  el.dataset.stuck = String(stuck);
}

function fuse(op, key) {
  const s = state.fuse;
  if (op === 'build') {
    const { Class } = kindByName('fuse');
    const next = Class.build([...s.keys, key], ZOO.fuse.options);
    s.filter.free();
    s.filter = next;
    s.keys.push(key);
    showPeel();
  }
  const f = s.filter;
  const fu = readFuse(f);
  const k = fuseSlots(fu, key);
  const yes = f.has(key);
  const h = (x) => `0x${x.toString(16).padStart(fu.bits / 4, '0')}`;
  $('zoo-how').textContent = `h = fmix64(h1 of ${q(key)} + the construction seed); p0 = ⌊h · ${fu.c * fu.L} / 2⁶⁴⌋ = ${k.slots[0]} (segment ${Math.floor(k.slots[0] / fu.L)}), `
    + `p1 = (p0 + ${fu.L}) ⊕ (bits of h) = ${k.slots[1]}, p2 = (p0 + ${2 * fu.L}) ⊕ (other bits of h) = ${k.slots[2]}; fingerprint = low ${fu.bits} bits of h ⊕ (h >> 32) = ${h(k.fp)}.`;
  const st = answer(s, key, yes);
  const eq = `${h(fu.F[k.slots[0]])} ⊕ ${h(fu.F[k.slots[1]])} ⊕ ${h(fu.F[k.slots[2]])} = ${h(k.xor)}`;
  const built = op === 'build' ? `Built again from ${s.keys.length} keys: ${fu.F.length} slots in ${fu.c + 2} segments of ${fu.L}, every slot solved anew (a fuse filter has no add). ` : '';
  verdict(`${built}${q(key)}: slots ${list(k.slots)}: ${eq}${yes ? '' : ` ≠ ${h(k.fp)}`}, ${yes ? `its fingerprint: maybe present${st === 'present' ? '' : ', but it was never added: a false positive (1 in 256 for 8 bits)'}`
    : 'not its fingerprint: certainly absent'}.`, op === 'build' ? 'added' : st, { match: String((k.xor === k.fp) === yes) });
  const v = { kind: 'fuse', key, hashText: `slots ${list(k.slots)} · fp ${h(k.fp)}`, op: 'check', fuse: fu, ...k, cells: k.slots.join(',') };
  return animate($('zoo-canvas'), 800, (p) => draw(v, p));
}

// ---- the section -----------------------------------------------------------------------------

const RUN = { counting, blocked, scalable, fuse };

function select(k) {
  kind = k;
  for (const b of document.querySelectorAll('#zoo-tabs button')) b.setAttribute('aria-pressed', String(b.dataset.kind === k));
  $('zoo-caption').textContent = TEXT[k].caption;
  $('zoo-add').hidden = k === 'fuse';
  $('zoo-remove').hidden = k !== 'counting';
  $('zoo-more').textContent = TEXT[k].more;
  $('zoo-static').hidden = k !== 'fuse';
  const canvas = $('zoo-canvas');
  canvas.animationToken = (canvas.animationToken ?? 0) + 1;   // an animation of the tab left stops drawing
  verdict('', '');
  $('zoo-how').textContent = '';
  showStill();
}

function readKey() {
  const k = $('zoo-key').value;
  if (k === '') throw new Error('Type a key first.');
  return k;
}

function more() {
  const s = state[kind];
  const key = readKey();
  if (kind === 'counting') return counting('add', key, 16);
  if (kind === 'fuse') return fuse('build', key);
  const n = kind === 'blocked' ? 8 : 7;
  for (let i = 1; i < n; i++) {
    const k = moreKey(++s.more);
    if (s.filter.add(k) !== false || kind === 'blocked') s.keys.push(k);
  }
  // the last one is played, so its layer / block shows
  const last = moreKey(++s.more);
  $('zoo-key').value = last;
  return RUN[kind]('add', last);
}

export function setupZoo() {
  const kinds = Object.keys(ZOO).filter((k) => kindByName(k));
  if (!kinds.length) { $('zoo').hidden = true; return; }
  for (const k of kinds) make(k);
  for (const b of document.querySelectorAll('#zoo-tabs button')) {
    if (!kinds.includes(b.dataset.kind)) b.hidden = true;
    b.addEventListener('click', () => guard($('zoo-error'), () => select(b.dataset.kind)));
  }
  const err = $('zoo-error');
  // Enter in the key field checks (the first submit button); Add / Remove are the others
  $('zoo-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const op = e.submitter?.id === 'zoo-add' ? 'add' : e.submitter?.id === 'zoo-remove' ? 'remove' : 'check';
    guard(err, () => RUN[kind](op, readKey()));
  });
  $('zoo-more').addEventListener('click', () => guard(err, more));
  $('zoo-reset').addEventListener('click', () => guard(err, () => { make(kind); select(kind); }));
  select(kinds[0]);
  onWidthChange($('zoo-canvas'), () => view && draw(view));
}
